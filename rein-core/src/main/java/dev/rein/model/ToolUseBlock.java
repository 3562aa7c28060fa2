package dev.rein.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;

/** The model's proposal to call a tool. {@code input} is unvalidated JSON exactly as proposed. */
public record ToolUseBlock(String id, String name, JsonNode input) implements ContentBlock {
    /** @throws ReinException when the id, the name or the input is null */
    public ToolUseBlock {
        if (id == null) {
            throw new ReinException("a tool_use block was given no id (null): give the id the provider gave the call");
        }
        if (name == null) {
            throw new ReinException("the tool_use block " + id + " was given no name (null): give the name of the tool called");
        }
        if (input == null) {
            throw new ReinException("the tool_use block " + id + " (" + name + ") was given no input (null): give the"
                    + " arguments as proposed, Json.object() for none");
        }
    }
}
