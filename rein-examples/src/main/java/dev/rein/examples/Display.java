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
     * its end (where tools put notes such as "showing the first 50 rows"), with the number of the text's
     * characters omitted in between; whole when that note would be as long as what it leaves out. A
     * control character's escape is shown whole or not at all: cutting the escaped line left fragments
     * such as {@code \x} that read as text, and counted the escapes' letters as characters omitted.
     */
    public static String line(String text, int max) {
        String flat = text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ⏎ ");
        String whole = visible(flat, false);
        int width = whole.codePointCount(0, whole.length());
        if (width <= max) {
            return whole;
        }
        int[] points = flat.codePoints().toArray();
        StringBuilder head = new StringBuilder();
        int headWidth = 0;
        int first = 0; // code points of the text shown at its beginning
        while (first < points.length) {
            String piece = visible(Character.toString(points[first]), false); // escapes are per character
            if (headWidth + piece.codePointCount(0, piece.length()) > max / 2) {
                break;
            }
            head.append(piece);
            headWidth += piece.codePointCount(0, piece.length());
            first++;
        }
        StringBuilder tail = new StringBuilder();
        int tailWidth = 0;
        int last = points.length; // the first code point of the text shown at its end
        while (last > first) {
            String piece = visible(Character.toString(points[last - 1]), false);
            if (tailWidth + piece.codePointCount(0, piece.length()) > max - max / 2) {
                break;
            }
            tail.insert(0, piece);
            tailWidth += piece.codePointCount(0, piece.length());
            last--;
        }
        String marker = " … (" + (last - first) + " characters omitted) … ";
        if (width - headWidth - tailWidth <= marker.length()) {
            return whole; // the marker would be as long as what it leaves out: the whole text is no longer
        }
        return head + marker + tail;
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
