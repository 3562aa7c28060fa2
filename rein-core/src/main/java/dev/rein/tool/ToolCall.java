package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A proposed tool call: unvalidated and unexecuted. {@code index} is its position among the calls
 * of one model response.
 */
public record ToolCall(String id, String name, JsonNode arguments, int index) {
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
