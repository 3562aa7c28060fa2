package dev.rein.internal.text;

import java.time.Duration;

/** The one way Rein writes a duration: for people ({@link #human}) and for JSON ({@link #seconds}). */
public final class Durations {
    private Durations() {}

    /** Whole seconds as {@code "30 s"}, anything finer as {@code "1500 ms"}. */
    public static String human(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }

    /** Whole seconds as an integer, fractions (e.g. 1.5) as a decimal; null for no limit. */
    public static Number seconds(Duration d) {
        if (d == null) {
            return null;
        }
        return d.toMillis() % 1000 == 0 ? (Number) d.toSeconds() : (Number) (d.toMillis() / 1000.0);
    }
}
