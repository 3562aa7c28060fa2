package dev.rein.internal.text;

/** The one way Rein writes a count for people: "1 step", "2 steps", "0 steps". */
public final class Counts {
    private Counts() {}

    /** {@code n} and {@code noun} (a regular English noun, singular), with an "s" unless {@code n} is 1. */
    public static String of(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
