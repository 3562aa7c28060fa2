package dev.rein.model;

import java.util.ArrayList;
import java.util.Collections;
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
        // Called several times per step; a plain loop, and no list at all for the common text-only turn.
        List<ToolUseBlock> uses = null;
        for (ContentBlock block : content) {
            if (block instanceof ToolUseBlock use) {
                if (uses == null) {
                    uses = new ArrayList<>(2);
                }
                uses.add(use);
            }
        }
        return uses == null ? List.of() : Collections.unmodifiableList(uses);
    }
}
