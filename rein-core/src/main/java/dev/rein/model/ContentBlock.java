package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One block of message content. The set is closed: text, tool use, tool result, the model's
 * thinking (kept opaque and echoed back unchanged) and {@link OpaqueBlock} for any provider block
 * Rein does not interpret but must send back verbatim (server tool results, compaction blocks).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = TextBlock.class, name = "text"),
        @JsonSubTypes.Type(value = ToolUseBlock.class, name = "tool_use"),
        @JsonSubTypes.Type(value = ToolResultBlock.class, name = "tool_result"),
        @JsonSubTypes.Type(value = ThinkingBlock.class, name = "thinking"),
        @JsonSubTypes.Type(value = RedactedThinkingBlock.class, name = "redacted_thinking"),
        @JsonSubTypes.Type(value = OpaqueBlock.class, name = "opaque")
})
public sealed interface ContentBlock
        permits TextBlock, ToolUseBlock, ToolResultBlock, ThinkingBlock, RedactedThinkingBlock, OpaqueBlock {
}
