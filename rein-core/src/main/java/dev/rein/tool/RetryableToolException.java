package dev.rein.tool;

import java.time.Duration;

/**
 * Thrown by a handler for a transient failure (timeout, rate limit, temporarily unavailable) that
 * the executor may retry with backoff inside the run's deadline.
 */
public class RetryableToolException extends Exception {
    private final Duration retryAfter;

    public RetryableToolException(String message) {
        this(message, null);
    }

    public RetryableToolException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    /**
     * How long the failing system asked us to wait, or null. Waited for in full up to
     * {@link dev.rein.retry.RetryPolicy#LONGEST_HINT}; a longer wait is not retried.
     */
    public Duration retryAfter() {
        return retryAfter;
    }
}
