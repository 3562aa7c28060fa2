package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool's implementation. It receives arguments that already passed schema validation. It may
 * return a {@link String} (sent as is), a {@link ToolOutput} (to set the error flag or a source),
 * {@code null} or an empty string (reported to the model as an empty result) or any other value
 * (sent as JSON). Exceptions are caught by the executor and become error results.
 */
@FunctionalInterface
public interface ToolHandler {
    Object handle(JsonNode arguments, ToolContext context) throws Exception;
}
