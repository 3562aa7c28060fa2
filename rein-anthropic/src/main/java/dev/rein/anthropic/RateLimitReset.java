package dev.rein.anthropic;

import dev.rein.retry.RetryAfter;
import dev.rein.retry.RetryPolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Function;

/**
 * The wait hint of an Anthropic 429 beyond the headers every provider sends (those are read by
 * {@link dev.rein.retry.RetryAfter}): the API's {@code anthropic-ratelimit-*-reset} headers.
 */
final class RateLimitReset {
    /** The API's rate limits, each with its {@code anthropic-ratelimit-LIMIT-remaining} and {@code -reset} headers. */
    private static final String[] LIMITS = {"requests", "tokens", "input-tokens", "output-tokens"};

    private RateLimitReset() {}

    /**
     * For a 429 without {@code retry-after}: how long until the rate limit that ran out resets, from
     * the API's {@code anthropic-ratelimit-*-reset} headers (RFC 3339 times) of the limits whose
     * {@code -remaining} is 0, the latest when several are. When none ran out the headers do not
     * say what the 429 waits for, and a reset past {@link RetryPolicy#LONGEST_HINT} is the time to a
     * full replenishment, not to room for one request: no hint then, so the policy's backoff applies
     * (rather than the call failing as one asking to wait too long). A reset already past means now.
     * Null when there is nothing usable.
     *
     * @param headers the values of a header by its name (empty or null when absent); null for no headers
     */
    static Duration of(Function<String, List<String>> headers, Clock clock) {
        if (headers == null) {
            return null;
        }
        Duration latest = null;
        for (String limit : LIMITS) {
            if (!"0".equals(RetryAfter.first(headers, "anthropic-ratelimit-" + limit + "-remaining"))) {
                continue;
            }
            String reset = RetryAfter.first(headers, "anthropic-ratelimit-" + limit + "-reset");
            if (reset == null) {
                continue;
            }
            try {
                Duration wait = Duration.between(clock.instant(), OffsetDateTime.parse(reset).toInstant());
                wait = wait.isNegative() ? Duration.ZERO : wait;
                latest = latest == null || wait.compareTo(latest) > 0 ? wait : latest;
            } catch (DateTimeParseException e) {
                // not a time: no hint from this limit rather than a guess
            }
        }
        return latest == null || RetryPolicy.tooLong(latest) ? null : latest;
    }
}
