package dev.rein.retry;

import dev.rein.ReinException;
import dev.rein.internal.text.Durations;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded exponential backoff with jitter. A server's own wait hint (retry-after) wins over the
 * computed delay, even past {@code maxDelay}, up to {@link #LONGEST_HINT}; a longer hint gets no
 * retry at all. Callers never sleep past their deadline.
 *
 * @param maxRetries   retries after the first attempt
 * @param initialDelay delay before the first retry
 * @param maxDelay     cap on any single delay
 * @param jitter       fraction (0..1) of random spread around each computed delay
 */
public record RetryPolicy(int maxRetries, Duration initialDelay, Duration maxDelay, double jitter) {
    /** 4 retries, 0.5 s doubling to at most 30 s, 20 % jitter. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(30), 0.2);
    public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO, Duration.ZERO, 0);
    /**
     * The longest wait hint Rein honours (60 s). A server asking for more (a quota that resets in
     * minutes, say) gets no retry: the call fails at once, saying so, rather than holding the run.
     */
    public static final Duration LONGEST_HINT = Duration.ofSeconds(60);
    private static final Duration LONGEST_MILLIS = Duration.ofMillis(Long.MAX_VALUE);

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new ReinException("maxRetries cannot be negative, was " + maxRetries + ": give the retries after the first"
                    + " attempt, 0 for none (RetryPolicy.NONE)");
        }
        if (initialDelay == null) {
            throw new ReinException("the retry policy's initialDelay is missing (null): pass a Duration, e.g. Duration.ofMillis(200)");
        }
        if (maxDelay == null) {
            throw new ReinException("the retry policy's maxDelay is missing (null): pass a Duration, e.g. Duration.ofSeconds(5)");
        }
        if (initialDelay.isNegative()) {
            throw new ReinException("the retry policy's initialDelay cannot be negative, was " + shown(initialDelay)
                    + ": give the wait before the first retry, e.g. Duration.ofMillis(200), or Duration.ZERO to retry at once");
        }
        if (maxDelay.isNegative()) {
            throw new ReinException("the retry policy's maxDelay cannot be negative, was " + shown(maxDelay)
                    + ": give the longest wait between attempts, e.g. Duration.ofSeconds(5)");
        }
        if (!(jitter >= 0 && jitter <= 1)) { // NaN too, which every comparison fails
            throw new ReinException("jitter must be between 0 and 1, was " + jitter + ": give the fraction of random spread"
                    + " around each delay, e.g. 0.2 (RetryPolicy.DEFAULT's), or 0 for none");
        }
    }

    /**
     * The delay before retry number {@code retry} (1-based): the server's hint as given, else the
     * backoff. Check {@link #tooLong} first: a hint longer than {@link #LONGEST_HINT} is returned
     * as is (so a caller can still compare it with its deadline), but is not to be waited for.
     *
     * @param hint the server's requested wait, or null; a negative one is ignored
     */
    public Duration delayBefore(int retry, Duration hint) {
        if (hint != null && !hint.isNegative()) {
            return hint;
        }
        double base = millis(initialDelay) * Math.pow(2, Math.max(0, retry - 1));
        double spread = base * jitter * (ThreadLocalRandom.current().nextDouble() * 2 - 1);
        return ofMillis(Math.min(millis(maxDelay), Math.max(0, base + spread)));
    }

    /**
     * {@code d} in milliseconds, with their fraction: a delay configured below a millisecond (or between two) is
     * waited as given, not truncated. A delay too long for a count of them (which a Duration can hold) is the longest that is.
     */
    private static double millis(Duration d) {
        return d.compareTo(LONGEST_MILLIS) >= 0 ? Long.MAX_VALUE : d.getSeconds() * 1000.0 + d.getNano() / 1e6;
    }

    /** {@code millis} (at least 0) as a Duration, to the nanosecond; the longest millisecond count for one past it. */
    private static Duration ofMillis(double millis) {
        if (millis >= Long.MAX_VALUE) {
            return LONGEST_MILLIS;
        }
        long whole = (long) millis;
        return Duration.ofMillis(whole).plusNanos(Math.round((millis - whole) * 1e6));
    }

    /** Whether {@code hint} (null for none) asks for a longer wait than Rein makes, {@link #LONGEST_HINT}. */
    public static boolean tooLong(Duration hint) {
        return hint != null && hint.compareTo(LONGEST_HINT) > 0;
    }

    /**
     * Why a failure whose hint is {@link #tooLong} was not retried, and what to do, to append to
     * the failure's own message.
     */
    public static String tooLongMessage(Duration hint) {
        return "not retried: the server asked to wait " + Durations.human(seconds(hint)) + ", more than Rein waits ("
                + Durations.human(LONGEST_HINT) + "); try again later, or raise the account's rate limits";
    }

    /** A negative delay as given, in seconds ({@code -0.2 s}): Durations writes the limits Rein takes, none negative. */
    private static String shown(Duration d) {
        return java.math.BigDecimal.valueOf(d.getSeconds()).add(java.math.BigDecimal.valueOf(d.getNano(), 9))
                .stripTrailingZeros().toPlainString() + " s";
    }

    /** Rounded up to whole seconds, as servers give them (a hint of 90.5 s reads 91 s). */
    private static Duration seconds(Duration d) {
        long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(s);
    }
}
