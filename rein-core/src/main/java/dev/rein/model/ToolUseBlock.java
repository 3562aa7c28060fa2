package dev.rein.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** The model's proposal to call a tool. {@code input} is unvalidated JSON exactly as proposed. */
public record ToolUseBlock(String id, String name, JsonNode input) implements ContentBlock {
    public ToolUseBlock {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(input, "input");
    }
}
