package dev.rein.tool;

import dev.rein.ReinException;

/**
 * An explicit handler result: its text, whether it is an error, where the data came from
 * (provenance shown in the trace and in the agent state), and optionally a part meant for the
 * person only.
 *
 * @param userContent text for the person using the application, never sent to the model (MCP's
 *                    {@code audience: ["user"]}); masked as the content is, recorded in the trace's
 *                    {@code tool_result} event and shown to listeners; null for none
 */
public record ToolOutput(String content, boolean isError, String source, String userContent) {
    public ToolOutput {
        if (content == null) {
            throw new ReinException("a tool output was given no content (null): return the result's text (\"\" for none),"
                    + " or ToolOutput.error(\"what went wrong\")");
        }
    }

    /** An output without a part for the person only. */
    public ToolOutput(String content, boolean isError, String source) {
        this(content, isError, source, null);
    }

    public static ToolOutput text(String content) {
        return new ToolOutput(content, false, null);
    }

    public static ToolOutput error(String message) {
        return new ToolOutput(message, true, null);
    }

    public ToolOutput withSource(String source) {
        return new ToolOutput(content, isError, source, userContent);
    }

    /**
     * With {@code text} for the person only: the model never sees it (it sees {@link #content()}; when that
     * is blank, Rein's note that the tool returned content for the user only, or for an {@linkplain #error error}
     * that its message was for the user only). Null or blank for none. Cut to the run's tool output limit as
     * the content is.
     */
    public ToolOutput withUserContent(String text) {
        return new ToolOutput(content, isError, source, text == null || text.isBlank() ? null : text);
    }
}
