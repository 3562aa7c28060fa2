package dev.rein.examples;

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
     * characters omitted in between; whole when that note would be as long as what it leaves out.
     */
    public static String line(String text, int max) {
        String flat = visible(text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ⏎ "), false);
        int length = flat.codePointCount(0, flat.length());
        if (length <= max) {
            return flat;
        }
        String marker = " … (" + (length - max) + " characters omitted) … ";
        if (length - max <= marker.length()) {
            return flat; // the marker would be as long as what it leaves out: the whole text is no longer
        }
        int head = max / 2;
        int tail = max - head;
        return flat.substring(0, flat.offsetByCodePoints(0, head)) + marker + flat.substring(flat.offsetByCodePoints(0, length - tail));
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
        return dev.rein.internal.text.Controls.visible(text, keepLines);
    }
}
