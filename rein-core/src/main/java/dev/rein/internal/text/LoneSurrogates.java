package dev.rein.internal.text;

import java.util.Locale;

/**
 * Finds and names half a UTF-16 surrogate pair (text cut inside an emoji): it has no UTF-8 form, so
 * what must be stored or sent as it is (a run id, a memory entry) refuses it, in the same words.
 */
public final class LoneSurrogates {
    private LoneSurrogates() {}

    /** The index of the first surrogate in {@code text} that is not half of a whole pair, or -1. */
    public static int first(String text) {
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * "half a UTF-16 surrogate pair (U+D83D alone, at character N: ...)" for the surrogate at {@code at}, its
     * position counted in characters as limits count them (code points).
     */
    public static String describe(String text, int at) {
        return "half a UTF-16 surrogate pair (U+" + Integer.toHexString(text.charAt(at)).toUpperCase(Locale.ROOT)
                + " alone, at character " + text.codePointCount(0, at) + ": text cut inside an emoji or other character)";
    }
}
