package dev.rein.internal.text;

import java.util.List;

/**
 * The source of a tool result that cites several items (passages, memory entries): a prefix and the
 * items joined by commas, each with {@code %} and {@code ,} written as {@code %25} and {@code %2C}, so
 * an item holding a comma stays one item and the list reads back unambiguously.
 */
public final class SourceList {
    private SourceList() {}

    /** {@code prefix} alone when there are no items, else {@code prefix:item,item,...}. */
    public static String of(String prefix, List<String> items) {
        if (items.isEmpty()) {
            return prefix;
        }
        StringBuilder sb = new StringBuilder(prefix).append(':');
        for (int i = 0; i < items.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(items.get(i).replace("%", "%25").replace(",", "%2C"));
        }
        return sb.toString();
    }
}
