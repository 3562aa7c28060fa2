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
     * {@code text} on one line (whitespace runs collapsed), cut at {@code max} code points with an
     * explicit note of how much was left out, so shortening is never silent.
     */
    static String shorten(String text, int max) {
        if (text == null) {
            return "";
        }
        String line = visible(text.strip().replaceAll("\\s+", " "));
        int length = line.codePointCount(0, line.length());
        if (length <= max) {
            return line;
        }
        int end = line.offsetByCodePoints(0, max);
        return line.substring(0, end) + "… (+" + Counts.of(length - max, "char") + ")";
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
