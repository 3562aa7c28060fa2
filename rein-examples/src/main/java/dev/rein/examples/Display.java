package dev.rein.examples;

import java.util.Locale;

/**
 * Shortens text for the console, always saying how much was left out (display only; traces keep
 * everything). Text from models, tools and web pages is untrusted: every control character is shown
 * as an escape ({@code \x1b}), so no ANSI or OSC sequence in it reaches the terminal (the same rule
 * as the CLI's own output).
 */
public final class Display {
    private Display() {}

    /**
     * {@code text} on one line, at most about {@code max} characters: when longer, its beginning and
     * its end (where tools put notes such as "showing the first 50 rows"), with the number of
     * characters omitted in between.
     */
    public static String line(String text, int max) {
        String flat = visible(text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ⏎ "), false);
        int length = flat.codePointCount(0, flat.length());
        if (length <= max) {
            return flat;
        }
        int head = max / 2;
        int tail = max - head;
        return flat.substring(0, flat.offsetByCodePoints(0, head)) + " … (" + (length - max) + " characters omitted) … "
                + flat.substring(flat.offsetByCodePoints(0, length - tail));
    }

    /** Indents every line of {@code text}. */
    public static String indent(String text, String prefix) {
        return visible(text == null ? "" : text.strip(), true).lines().map(l -> prefix + l).reduce((a, b) -> a + "\n" + b)
                .orElse(prefix);
    }

    /**
     * {@code text} with every control character (but line feeds and tabs, when {@code keepLines}) shown
     * as an escape: C0 and C1 controls, DEL, line and paragraph separators, and every invisible format
     * character (Unicode's Cf: bidi overrides, isolates and marks, zero-width characters, the soft
     * hyphen, the tag characters that spell text no one sees).
     */
    public static String visible(String text, boolean keepLines) {
        StringBuilder sb = null; // only when something is escaped: most text is returned as it is
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int next = i + Character.charCount(c);
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029
                    || Character.getType(c) == Character.FORMAT;
            if (control && !(keepLines && (c == '\n' || c == '\t'))) {
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
}
