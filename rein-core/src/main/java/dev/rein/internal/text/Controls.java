package dev.rein.internal.text;

import java.util.Locale;

/**
 * Text from models, tools, providers and files is untrusted: printed on a terminal, an ANSI or OSC
 * sequence in it could clear the screen or retitle the window. Every console view of Rein shows its
 * control characters as escapes ({@code \x1b}).
 */
public final class Controls {
    private Controls() {}

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
            if (isControl(c) && !(keepLines && (c == '\n' || c == '\t'))) {
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
     * Whether {@link #visible} shows code point {@code c} as an escape (line feeds and tabs aside): a C0 or C1 control,
     * DEL, a line or paragraph separator, or an invisible format character (Cf).
     */
    public static boolean isControl(int c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || Character.getType(c) == Character.FORMAT;
    }
}
