package dev.rein.model;

import java.util.List;
import java.util.Objects;

/** One conversation turn: a role and its content blocks (never empty). */
public record Message(Role role, List<ContentBlock> content) {
    public Message {
        Objects.requireNonNull(role, "role");
        content = List.copyOf(content);
        if (content.isEmpty()) {
            throw new IllegalArgumentException("a message needs at least one content block");
        }
    }

    public static Message user(String text) {
        return new Message(Role.USER, List.of(new TextBlock(text)));
    }

    public static Message user(List<? extends ContentBlock> blocks) {
        return new Message(Role.USER, List.copyOf(blocks));
    }

    public static Message assistant(List<? extends ContentBlock> blocks) {
        return new Message(Role.ASSISTANT, List.copyOf(blocks));
    }

    /** The concatenated text blocks of this message. */
    public String text() {
        return Blocks.text(content);
    }

    /** The tool use blocks of this message, in order. */
    public List<ToolUseBlock> toolUses() {
        return Blocks.toolUses(content);
    }
}
