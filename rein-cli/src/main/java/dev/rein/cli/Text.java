package dev.rein.cli;

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
        return line.substring(0, end) + "… (+" + (length - max) + " chars)";
    }

    /** {@code text} with every control character (line breaks included) shown as an escape, e.g. {@code \x1b}. */
    static String visible(String text) {
        return escape(text, false);
    }

    /** {@code text} with every control character except line feeds and tabs shown as an escape. */
    static String visibleLines(String text) {
        return escape(text, true);
    }

    private static String escape(String text, boolean keepLines) {
        if (text == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int next = i + Character.charCount(c);
            boolean kept = keepLines && (c == '\n' || c == '\t');
            if (!kept && isControl(c)) {
                if (sb == null) {
                    sb = new StringBuilder(text.length() + 16).append(text, 0, i);
                }
                if (c <= 0xff) {
                    sb.append(String.format(Locale.ROOT, "\\x%02x", c));
                } else {
                    // A tag character outside the BMP shows as its two UTF-16 units, as JSON would write it.
                    for (int j = i; j < next; j++) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) text.charAt(j)));
                    }
                }
            } else if (sb != null) {
                sb.append(text, i, next);
            }
            i = next;
        }
        return sb == null ? text : sb.toString();
    }

    /**
     * C0 and C1 controls and DEL (ESC starts ANSI/OSC sequences, CR and BS overwrite what is shown),
     * line and paragraph separators, and every invisible format character (Unicode's Cf): those that
     * reorder text (bidirectional overrides, isolates and marks, the Arabic letter mark among them), the
     * zero-width ones (spaces, joiners, the word joiner), the soft hyphen, and the tag characters that
     * spell text no one sees but a model reads.
     */
    private static boolean isControl(int c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || Character.getType(c) == Character.FORMAT;
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
