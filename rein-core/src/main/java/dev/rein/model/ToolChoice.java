package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** How the model may use tools on one request. Written to traces as the API writes it, e.g. {@code {"type":"none"}}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ToolChoice.Auto.class, name = "auto"),
        @JsonSubTypes.Type(value = ToolChoice.Any.class, name = "any"),
        @JsonSubTypes.Type(value = ToolChoice.Tool.class, name = "tool"),
        @JsonSubTypes.Type(value = ToolChoice.None.class, name = "none")
})
public sealed interface ToolChoice {
    /** The model decides whether to call tools. */
    record Auto() implements ToolChoice {}

    /** The model must call some tool. */
    record Any() implements ToolChoice {}

    /** The model must call the named tool. */
    record Tool(String name) implements ToolChoice {
        /** @throws dev.rein.ReinException when the name is null */
        public Tool {
            if (name == null) {
                throw new dev.rein.ReinException("ToolChoice.Tool was given no name (null): give the name of the tool the"
                        + " model must call, or use ToolChoice.any()");
            }
        }
    }

    /** The model must not call tools (definitions are still sent so the history stays valid). */
    record None() implements ToolChoice {}

    static ToolChoice auto() {
        return new Auto();
    }

    static ToolChoice any() {
        return new Any();
    }

    static ToolChoice none() {
        return new None();
    }

    static ToolChoice tool(String name) {
        return new Tool(name);
    }
}
