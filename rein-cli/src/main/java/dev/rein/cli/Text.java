package dev.rein.cli;

import dev.rein.examples.Display;
import dev.rein.internal.text.Counts;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * Small formatting helpers for what the CLI prints. Text from models and tools is untrusted: it
 * is printed only through {@link #visible}, {@link #visibleLines} or {@link #shorten}, which make
 * every control character visible, so no escape sequence from outside reaches the terminal.
 */
final class Text {
    private Text() {}

    /**
     * {@code text} on one line (whitespace runs collapsed), its control characters {@link #visible}, cut so that at most
     * {@code max} code points are shown, with an explicit note of how many of the text's characters were left out, so
     * shortening is never silent. A control character's escape is shown whole or not at all: cutting the escaped line
     * left fragments such as {@code \x} that read as text, and counted the escapes' letters as characters left out.
     */
    static String shorten(String text, int max) {
        return text == null ? "" : cut(text.strip().replaceAll("\\s+", " "), max);
    }

    /**
     * {@code text} as {@link #shorten} shows it, but with its whitespace kept, each line break or tab shown as its escape
     * ({@code \x0a}, {@code \x09}) as {@link #visible} shows it: for text where a tab shown as a space would hide what is
     * wrong (a name refused for holding one), or whose lines are worth seeing as they were.
     */
    static String shortenVisible(String text, int max) {
        return text == null ? "" : cut(text.strip(), max);
    }

    /** {@code line}, each code point {@link #visible}, cut at {@code max} shown code points with a note of what was left out. */
    private static String cut(String line, int max) {
        StringBuilder shown = new StringBuilder();
        int width = 0;
        int kept = 0;
        for (int i = 0; i < line.length(); ) {
            int next = line.offsetByCodePoints(i, 1);
            String piece = visible(line.substring(i, next)); // escapes are per character: the same as the whole line's
            width += piece.codePointCount(0, piece.length());
            if (width > max) {
                return shown + "… (+" + Counts.of(line.codePointCount(0, line.length()) - kept, "char") + ")";
            }
            shown.append(piece);
            kept++;
            i = next;
        }
        return shown.toString();
    }

    /**
     * Whether {@code text} shows nothing: only spaces and invisible characters (U+00A0, U+200B, a
     * BOM), which isBlank() takes for text; rein-core refuses such a goal or reply by the same rule.
     */
    static boolean showsNothing(String text) {
        return text == null || text.codePoints().allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c)
                || Character.getType(c) == Character.FORMAT || Character.isISOControl(c));
    }

    /** {@code text} with every control character (line breaks included) shown as an escape, e.g. {@code \x1b}. */
    static String visible(String text) {
        return escape(text, false);
    }

    /** {@code text} with every control character except line feeds and tabs shown as an escape. */
    static String visibleLines(String text) {
        return escape(text, true);
    }

    /** The examples' console and the CLI show untrusted text by one rule: {@link Display#visible}. */
    private static String escape(String text, boolean keepLines) {
        return text == null ? "" : Display.visible(text, keepLines);
    }

    /** A USD amount for people: four decimals, since a single step often costs less than a cent. */
    static String usd(BigDecimal amount) {
        return amount == null ? "$0" : String.format(Locale.ROOT, "$%.4f", amount);
    }

    /** A duration in milliseconds for people: "850 ms", "12.3 s". */
    static String millis(long millis) {
        return millis < 1000 ? millis + " ms" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
