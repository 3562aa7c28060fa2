package dev.rein.model;

import dev.rein.ReinException;
import dev.rein.internal.collect.NullElements;
import java.util.List;

/** One conversation turn: a role and its content blocks (never empty). */
public record Message(Role role, List<ContentBlock> content) {
    /** @throws ReinException when the role or the content is null, the content is empty or holds a null block */
    public Message {
        if (role == null) {
            throw new ReinException("a message was given no role (null): give Role.USER or Role.ASSISTANT, or use"
                    + " Message.user(...) or Message.assistant(...)");
        }
        if (content == null) {
            throw new ReinException("a message was given no content (null): give its blocks, e.g. List.of(new TextBlock(\"...\"))");
        }
        int at = NullElements.firstNull(content); // one pass whatever the list (a LinkedList too)
        if (at >= 0) {
            throw new ReinException("a message's content block " + (at + 1) + " of " + content.size() + " is null: leave it"
                    + " out, or give the block");
        }
        content = List.copyOf(content);
        if (content.isEmpty()) {
            throw new ReinException("a message needs at least one content block: give its text or blocks");
        }
    }

    public static Message user(String text) {
        return new Message(Role.USER, List.of(new TextBlock(text)));
    }

    public static Message user(List<? extends ContentBlock> blocks) {
        return new Message(Role.USER, blocks(blocks));
    }

    public static Message assistant(List<? extends ContentBlock> blocks) {
        return new Message(Role.ASSISTANT, blocks(blocks));
    }

    /** The blocks as they are: the record checks them and copies them (not at all when the list is immutable already). */
    @SuppressWarnings("unchecked") // read only, never added to: a list of a subtype is a list of blocks
    private static List<ContentBlock> blocks(List<? extends ContentBlock> blocks) {
        return (List<ContentBlock>) blocks;
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
