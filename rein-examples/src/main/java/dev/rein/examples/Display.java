package dev.rein.examples;

/** Shortens text for the console, always saying how much was left out (display only; traces keep everything). */
public final class Display {
    private Display() {}

    /**
     * {@code text} on one line, at most about {@code max} characters: when longer, its beginning and
     * its end (where tools put notes such as "showing the first 50 rows"), with the number of
     * characters omitted in between.
     */
    public static String line(String text, int max) {
        String flat = text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ⏎ ");
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
        return (text == null ? "" : text.strip()).lines().map(l -> prefix + l).reduce((a, b) -> a + "\n" + b).orElse(prefix);
    }
}
