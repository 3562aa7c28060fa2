package dev.rein.model;

import java.util.List;
import java.util.Objects;

/** What the model answered: content blocks, why it stopped, and the tokens it used. */
public record ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                            String stopSequence, Usage usage) {
    public ModelResponse {
        Objects.requireNonNull(model, "model");
        content = List.copyOf(content);
        Objects.requireNonNull(stopReason, "stopReason");
        usage = usage == null ? Usage.ZERO : usage;
    }

    /** The response as an assistant message for the history (unchanged content). */
    public Message toMessage() {
        return Message.assistant(content);
    }

    /** The tool use blocks, in the order the model proposed them. */
    public List<ToolUseBlock> toolUses() {
        return Blocks.toolUses(content);
    }

    /** The concatenated text blocks. */
    public String text() {
        return Blocks.text(content);
    }
}
