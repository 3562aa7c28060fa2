package dev.rein.tool;

import dev.rein.ReinException;

/**
 * An explicit handler result: its text, whether it is an error, and where the data came from
 * (provenance shown in the trace and in the agent state).
 */
public record ToolOutput(String content, boolean isError, String source) {
    public ToolOutput {
        if (content == null) {
            throw new ReinException("a tool output was given no content (null): return the result's text (\"\" for none),"
                    + " or ToolOutput.error(\"what went wrong\")");
        }
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
