package dev.rein.internal.text;

/** Whether text shows anything to a reader. */
public final class Visible {
    private Visible() {}

    /**
     * Whether {@code text} shows anything: isBlank() takes a no-break space, a zero-width space or a
     * byte-order mark for text, and an answer of only those is as empty as no answer.
     */
    public static boolean any(String text) {
        return text.codePoints().anyMatch(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)
                && Character.getType(c) != Character.FORMAT && !Character.isISOControl(c));
    }
}
