package dev.rein.cli;

import java.math.BigDecimal;
import java.util.Locale;

/** Small formatting helpers for the live view. */
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
        String line = text.strip().replaceAll("\\s+", " ");
        int length = line.codePointCount(0, line.length());
        if (length <= max) {
            return line;
        }
        int end = line.offsetByCodePoints(0, max);
        return line.substring(0, end) + "… (+" + (length - max) + " chars)";
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
