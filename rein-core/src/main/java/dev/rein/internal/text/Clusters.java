package dev.rein.internal.text;

import java.text.BreakIterator;
import java.util.Locale;

/**
 * Grapheme clusters (what a reader takes for one character: a letter and its marks, a flag, emoji joined by U+200D), the
 * one place Rein's modules cut text between them: rein-mcp's quoted server text, rein-eval's task ids made from trace
 * names, its progress bar and its display width. JDK 20 and later follow Unicode's extended grapheme clusters
 * (UAX #29) in {@link BreakIterator#getCharacterInstance}.
 */
public final class Clusters {
    private Clusters() {}

    /** An iterator over the cluster boundaries of {@code text}, from its start. */
    public static BreakIterator of(String text) {
        BreakIterator clusters = BreakIterator.getCharacterInstance(Locale.ROOT);
        clusters.setText(text);
        return clusters;
    }

    /**
     * The start of the cluster {@code at} (a char index inside {@code text}, 0 &lt; at &lt; length) is in: {@code at}
     * itself when a cluster starts there. Only the text up to the character after {@code at} is segmented: whether a
     * cluster ends there depends on nothing further, and the JDK's iterator finds every boundary of its text at once (a
     * 16 MB line would be segmented whole).
     */
    public static int startOf(String text, int at) {
        BreakIterator clusters = of(text.substring(0, text.offsetByCodePoints(at, 1)));
        return clusters.isBoundary(at) ? at : clusters.preceding(at);
    }

    /** The end of the cluster that starts at char index 0 of {@code text}. */
    public static int firstEnd(String text) {
        return of(text).following(0);
    }
}
