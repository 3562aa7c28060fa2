package dev.rein.model;

import dev.rein.ReinException;

/**
 * The answer to one {@link ToolUseBlock}, matched by {@code toolUseId}. Success or failure is the
 * {@code isError} flag, never inferred from the text.
 */
public record ToolResultBlock(String toolUseId, String content, boolean isError) implements ContentBlock {
    public ToolResultBlock {
        if (toolUseId == null) {
            throw new ReinException("a tool result block was given no tool_use id (null): give the id of the tool_use it answers");
        }
        if (content == null) {
            throw new ReinException("the tool result block for " + toolUseId + " was given no content (null): give the result's"
                    + " text (\"\" for none)");
        }
    }
}
