package dev.rein.tool;

import java.util.Objects;

/**
 * An explicit handler result: its text, whether it is an error, and where the data came from
 * (provenance shown in the trace and in the agent state).
 */
public record ToolOutput(String content, boolean isError, String source) {
    public ToolOutput {
        Objects.requireNonNull(content, "content");
    }

    public static ToolOutput text(String content) {
        return new ToolOutput(content, false, null);
    }

    public static ToolOutput error(String message) {
        return new ToolOutput(message, true, null);
    }

    public ToolOutput withSource(String source) {
        return new ToolOutput(content, isError, source);
    }
}
