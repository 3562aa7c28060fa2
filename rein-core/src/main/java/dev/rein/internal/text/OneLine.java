package dev.rein.internal.text;

/**
 * Text a message quotes from elsewhere (what a server relays from the service behind it), made fit for a message a
 * terminal or a log shows: on one line, its control characters escaped, and not printed whole when long, saying how
 * much was cut.
 */
public final class OneLine {
    private OneLine() {}

    /**
     * {@code text} with each run of white space as one space, stripped, cut after {@code max} characters (never between
     * the two halves of a surrogate pair) with {@code "... (N characters, cut to MAX)"}, and its control characters
     * shown as escapes ({@link Controls#visible}); empty when nothing is left.
     */
    public static String of(String text, int max) {
        String line = text.replaceAll("\\s+", " ").strip();
        if (line.length() > max) {
            int cut = Character.isHighSurrogate(line.charAt(max - 1)) ? max - 1 : max;
            line = line.substring(0, cut) + "... (" + line.length() + " characters, cut to " + max + ")";
        }
        return Controls.visible(line, false);
    }
}
