package dev.rein.internal.text;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * The one way Rein writes a duration: for people ({@link #human}) and for JSON ({@link #seconds}); and the one way it
 * rounds a wait to whole milliseconds ({@link #upToMillis}).
 */
public final class Durations {
    private Durations() {}

    /** Whole seconds as {@code "30 s"}, anything finer as {@code "1500 ms"} (or {@code "1000.5 ms"}: never cut). */
    public static String human(Duration d) {
        long millis = d.toMillis();
        int finer = d.getNano() % 1_000_000;
        if (finer != 0) {
            // a limit of 1000.5 ms read "1000 ms": not the limit that was set
            return BigDecimal.valueOf(millis).add(BigDecimal.valueOf(finer, 6)).stripTrailingZeros().toPlainString() + " ms";
        }
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }

    /**
     * Whole seconds as an integer, fractions (e.g. 1.5, 1.0005) as an exact decimal, to the nanosecond; null for no
     * limit. Exact, because a replay runs on the limit the trace records: one cut to milliseconds is another limit.
     */
    public static Number seconds(Duration d) {
        if (d == null) {
            return null;
        }
        if (d.getNano() == 0) {
            return d.getSeconds();
        }
        return BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9)).stripTrailingZeros();
    }

    /**
     * The duration {@code seconds} (as {@link #seconds} writes it) stands for, or null when no Duration holds it exactly
     * (finer than a nanosecond, or past what a Duration holds).
     */
    public static Duration ofSeconds(BigDecimal seconds) {
        // Judged on its digits first: an edited trace's 1e400000000 (read exactly) would be expanded before it is refused.
        int integerDigits = seconds.precision() - seconds.scale();
        if (seconds.signum() != 0 && (integerDigits > 19 || seconds.scale() - 9 >= seconds.precision())) {
            return null; // past a Duration's seconds (a long), or finer than a nanosecond
        }
        try {
            BigDecimal whole = seconds.setScale(0, java.math.RoundingMode.FLOOR);
            BigDecimal nanos = seconds.subtract(whole).movePointRight(9);
            return Duration.ofSeconds(whole.longValueExact(), nanos.intValueExact());
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * {@code d} in whole milliseconds, a fraction rounded up, as the trace's {@code delay_ms} says a wait and an engine
     * (Temporal's Java SDK, which drops the rest) sends it: truncated, a wait of 0.4 ms (a server's
     * {@code retry-after-ms: 0.4}, a sub-millisecond backoff) read as none, which Temporal takes for "none set" in a
     * retry policy (its default, 1 s) and for "at once" in a failure's retry delay. Zero stays zero. A duration too long
     * for a count of milliseconds is the longest that is.
     */
    public static Duration upToMillis(Duration d) {
        Duration longest = Duration.ofMillis(Long.MAX_VALUE);
        if (d.compareTo(longest) >= 0) {
            return longest;
        }
        Duration whole = Duration.ofMillis(d.toMillis());
        return whole.equals(d) || whole.equals(longest) ? whole : whole.plusMillis(1);
    }
}
