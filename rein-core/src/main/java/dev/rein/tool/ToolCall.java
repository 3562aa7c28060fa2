package dev.rein.tool;

import dev.rein.ReinException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A proposed tool call: unvalidated and unexecuted. {@code index} is its position among the calls
 * of one model response.
 */
public record ToolCall(String id, String name, JsonNode arguments, int index) {
    /** @throws ReinException when the id, the name or the arguments are null */
    public ToolCall {
        if (id == null) {
            throw new ReinException("a tool call was given no id (null): give the id of the model's tool_use it runs");
        }
        if (name == null) {
            throw new ReinException("tool call " + id + " was given no tool name (null): give the name of the tool to run");
        }
        if (arguments == null) {
            throw new ReinException("tool call " + id + " (" + name + ") was given no arguments (null): give a JSON object,"
                    + " Json.parse(\"{}\") for none");
        }
    }
}
