package dev.rein.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** What the model sees of a tool: its name, description and the JSON schema of its input. */
public record ToolDefinition(String name, String description, ObjectNode inputSchema) {
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(inputSchema, "inputSchema");
    }
}
