package dev.rein.examples;

/** Shortens text for the console, always saying how much was left out (display only; traces keep everything). */
public final class Display {
    private Display() {}

    /** {@code text} on one line, cut after {@code max} characters with a note of what was omitted. */
    public static String line(String text, int max) {
        String flat = text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ⏎ ");
        int length = flat.codePointCount(0, flat.length());
        if (length <= max) {
            return flat;
        }
        int end = flat.offsetByCodePoints(0, max);
        return flat.substring(0, end) + " … (+" + (length - max) + " characters)";
    }

    /** Indents every line of {@code text}. */
    public static String indent(String text, String prefix) {
        return (text == null ? "" : text.strip()).lines().map(l -> prefix + l).reduce((a, b) -> a + "\n" + b).orElse(prefix);
    }
}
