package dev.rein.retry;

import dev.rein.ReinException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Bounded exponential backoff with jitter. A server's own wait hint (retry-after) wins over the
 * computed delay but is still capped; callers never sleep past their deadline.
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

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new ReinException("maxRetries cannot be negative, was " + maxRetries);
        }
        if (initialDelay.isNegative() || maxDelay.isNegative()) {
            throw new ReinException("retry delays cannot be negative");
        }
        if (jitter < 0 || jitter > 1) {
            throw new ReinException("jitter must be between 0 and 1, was " + jitter);
        }
    }

    /**
     * The delay before retry number {@code retry} (1-based).
     *
     * @param hint the server's requested wait, or null
     */
    public Duration delayBefore(int retry, Duration hint) {
        if (hint != null && !hint.isNegative()) {
            return hint.compareTo(maxDelay) > 0 ? maxDelay : hint;
        }
        double base = initialDelay.toMillis() * Math.pow(2, Math.max(0, retry - 1));
        double spread = base * jitter * (ThreadLocalRandom.current().nextDouble() * 2 - 1);
        long millis = (long) Math.min(maxDelay.toMillis(), Math.max(0, base + spread));
        return Duration.ofMillis(millis);
    }
}
