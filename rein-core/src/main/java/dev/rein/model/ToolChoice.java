package dev.rein.model;

import java.util.Objects;

/** How the model may use tools on one request. */
public sealed interface ToolChoice {
    /** The model decides whether to call tools. */
    record Auto() implements ToolChoice {}

    /** The model must call some tool. */
    record Any() implements ToolChoice {}

    /** The model must call the named tool. */
    record Tool(String name) implements ToolChoice {
        public Tool {
            Objects.requireNonNull(name, "name");
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
