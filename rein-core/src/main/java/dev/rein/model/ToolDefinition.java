package dev.rein.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;

/** What the model sees of a tool: its name, description and the JSON schema of its input. */
public record ToolDefinition(String name, String description, ObjectNode inputSchema) {
    /** @throws ReinException when the name, the description or the input schema is null */
    public ToolDefinition {
        if (name == null) {
            throw new ReinException("a tool definition was given no name (null): give the tool's name");
        }
        if (description == null) {
            throw new ReinException("the tool definition '" + name + "' was given no description (null): give what the tool"
                    + " does (\"\" for none)");
        }
        if (inputSchema == null) {
            throw new ReinException("the tool definition '" + name + "' was given no inputSchema (null): give the JSON schema"
                    + " of its input, e.g. {\"type\":\"object\"}");
        }
    }
}
