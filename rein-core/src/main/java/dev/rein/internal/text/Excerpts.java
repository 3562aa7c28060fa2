package dev.rein.internal.text;

/** Beginnings of long text for evidence and notices, cut between whole characters. */
public final class Excerpts {
    private Excerpts() {}

    /**
     * {@code text} when it has at most {@code max} code points, else its first {@code max} code
     * points and {@code "..."}: half of a surrogate pair is not text, and no JSON writer takes it.
     */
    public static String first(String text, int max) {
        return text.codePointCount(0, text.length()) <= max ? text : text.substring(0, text.offsetByCodePoints(0, max)) + "...";
    }
}
