package dev.rein.model;

/**
 * One block of message content. The set is closed: text, tool use, tool result, the model's
 * thinking (kept opaque and echoed back unchanged) and {@link OpaqueBlock} for any provider block
 * Rein does not interpret but must send back verbatim (server tool results, compaction blocks).
 */
public sealed interface ContentBlock
        permits TextBlock, ToolUseBlock, ToolResultBlock, ThinkingBlock, RedactedThinkingBlock, OpaqueBlock {
}
