package dev.rein.internal.text;

import dev.rein.internal.secret.Masking;

/** Beginnings of long text for evidence and notices, cut between whole characters. */
public final class Excerpts {
    private Excerpts() {}

    /**
     * {@code text} when it has at most {@code max} code points, else its first {@code max} code
     * points (fewer before a masking marker, see {@link #end}) and {@code "..."}: half of a surrogate pair is not text,
     * and no JSON writer takes it.
     */
    public static String first(String text, int max) {
        int end = end(text, max);
        return end == text.length() ? text : text.substring(0, end) + "...";
    }

    /**
     * Where a cut of {@code text} to at most {@code max} code points ends (a char index; the text's length when it is not
     * that long): after {@code max} code points, or before a masking marker ({@code [REDACTED:name]}) that the cut would
     * split, so that no half marker ({@code [REDA}) is shown as if it were the text's. A marker runs to the first
     * {@code ]} after its start, within {@value #MAX_NAME} characters of name; a {@code [REDACTED:} with no such {@code ]}
     * is no marker, and is cut as any text, as is a marker at the text's start (so the cut never leaves nothing).
     */
    public static int end(String text, int max) {
        if (text.length() <= max || text.codePointCount(0, text.length()) <= max) {
            return text.length();
        }
        int end = text.offsetByCodePoints(0, max);
        int marker = text.lastIndexOf(Masking.MARKER_START, end - 1); // one that starts before the cut, whole or not
        if (marker < 0) {
            return end;
        }
        int close = text.indexOf(']', marker + Masking.MARKER_START.length());
        // a ']' past a name's longest is no marker's (the text's own "[REDACTED:" cannot leave the quote empty), and a
        // marker at the start is cut as text, never leaving nothing to show
        boolean isMarker = close >= 0 && close - marker - Masking.MARKER_START.length() <= MAX_NAME && marker > 0;
        return isMarker && close >= end ? marker : end;
    }

    /** The longest secret name a marker's {@code ]} is looked for within ({@link Masking#MAX_NAME}). */
    static final int MAX_NAME = Masking.MAX_NAME;
}
