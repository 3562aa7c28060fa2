package dev.rein.model;

import java.util.Objects;

/**
 * The answer to one {@link ToolUseBlock}, matched by {@code toolUseId}. Success or failure is the
 * {@code isError} flag, never inferred from the text.
 */
public record ToolResultBlock(String toolUseId, String content, boolean isError) implements ContentBlock {
    public ToolResultBlock {
        Objects.requireNonNull(toolUseId, "toolUseId");
        Objects.requireNonNull(content, "content");
    }
}
