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

    /** {@code text} with every control character (but line feeds and tabs, when {@code keepLines}) shown as an escape. */
    public static String visible(String text, boolean keepLines) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e)
                    || (c >= 0x2066 && c <= 0x2069) || c == 0xfeff;
            if (control && !(keepLines && (c == '\n' || c == '\t'))) {
                sb.append(c <= 0xff ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
