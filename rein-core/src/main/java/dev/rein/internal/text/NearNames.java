package dev.rein.internal.text;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A name that is none of those known (a command, an option, an example): one rule for "did you mean", so the rein command
 * and the library's callers are told alike.
 */
public final class NearNames {
    private NearNames() {}

    /**
     * "unknown KIND 'WORD'; did you mean NAME?", naming the {@code names} at most one or two edits from {@code word}
     * (one for a word of up to four letters, where two would be half of it: 'nope' is no near miss of 'code' or 'npc';
     * a swap of two letters is one edit; case and blanks around it aside), nearest
     * first; else "unknown KIND 'WORD'; OTHERWISE" ({@code otherwise}: the names to choose from). The word is quoted with
     * its control characters visible ({@link Controls#visible}).
     */
    public static String unknown(String kind, String word, List<String> names, String otherwise) {
        String typed = word.strip().toLowerCase(Locale.ROOT);
        int limit = typed.codePointCount(0, typed.length()) <= 4 ? 1 : 2;
        List<String> near = names.stream().filter(name -> editDistance(typed, name) <= limit)
                .sorted(Comparator.comparingInt(name -> editDistance(typed, name)))
                .toList();
        String shown = Controls.visible(word, false);
        return near.isEmpty() ? "unknown " + kind + " '" + shown + "'; " + otherwise
                : "unknown " + kind + " '" + shown + "'; did you mean " + String.join(" or ", near) + "?";
    }

    /** Edits (insert, delete, replace, swap of neighbours) between two words: optimal string alignment, over code points. */
    public static int editDistance(String a, String b) {
        return EditDistance.withSwaps(a, b);
    }
}
