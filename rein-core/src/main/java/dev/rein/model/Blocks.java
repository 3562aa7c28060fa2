package dev.rein.model;

import java.util.List;

/** Reads of block lists shared by messages and responses. */
final class Blocks {
    private Blocks() {}

    static String text(List<ContentBlock> content) {
        StringBuilder sb = new StringBuilder();
        for (ContentBlock block : content) {
            if (block instanceof TextBlock t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    static List<ToolUseBlock> toolUses(List<ContentBlock> content) {
        return content.stream().filter(ToolUseBlock.class::isInstance).map(ToolUseBlock.class::cast).toList();
    }
}
