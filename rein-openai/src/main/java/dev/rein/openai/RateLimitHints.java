package dev.rein.openai;

import dev.rein.retry.RetryAfter;
import dev.rein.retry.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wait hints of OpenAI's 429s beyond the headers every provider sends (those are read by
 * {@link dev.rein.retry.RetryAfter}): the rate-limit reset headers and the wait its message names.
 */
final class RateLimitHints {
    private RateLimitHints() {}

    /**
     * For a 429 without {@code retry-after}: how long until the rate limit that ran out resets, from OpenAI's
     * {@code x-ratelimit-reset-requests} / {@code x-ratelimit-reset-tokens} (durations such as {@code 1s},
     * {@code 6m0s}, {@code 20ms}) for the limit whose {@code x-ratelimit-remaining-*} is 0 (the longer when
     * both are). When neither ran out, the headers do not say what the 429 waits for (a request needing more
     * tokens than remain, a limit of another kind): no hint, so the policy's backoff spreads the retries
     * rather than a reset of a few milliseconds sending them all at once. A reset past {@link
     * RetryPolicy#LONGEST_HINT} is no hint either: it is the time to a full reset (a daily limit's can be
     * hours), not to room for one request, so the backoff applies rather than the call failing as one asking
     * to wait too long. Null when there is nothing usable.
     */
    static Duration rateLimitReset(Function<String, List<String>> headers) {
        Duration longest = null;
        for (String limit : new String[] {"requests", "tokens"}) {
            Duration reset = goDuration(RetryAfter.first(headers, "x-ratelimit-reset-" + limit));
            if (reset != null && "0".equals(RetryAfter.first(headers, "x-ratelimit-remaining-" + limit))
                    && (longest == null || reset.compareTo(longest) > 0)) {
                longest = reset;
            }
        }
        return longest == null || RetryPolicy.tooLong(longest) ? null : longest;
    }

    /**
     * The public API's 429 message: "... Please try again in 1.8s. Visit ..."; Gemini's through Google's OpenAI-compatible
     * endpoint (no retry-after header): "... Please retry in 36.429760048s.".
     */
    private static final Pattern TRY_AGAIN = Pattern.compile("(?i)(?:try again|retry) in ([0-9][0-9.hmsuµμn]*[a-z])\\b");

    /**
     * The wait a 429's message names ("Please try again in 1.8s.", as the public API writes it; "Please retry in 36.4s.",
     * as Gemini's does), or null. It is
     * the time until this request fits, not until a full reset, so a long one (a daily limit's) is kept: the call
     * then fails at once saying how long the server asked to wait.
     */
    static Duration inMessage(String message) {
        if (message == null) {
            return null;
        }
        Matcher wait = TRY_AGAIN.matcher(message);
        return wait.find() ? goDuration(wait.group(1)) : null;
    }

    private static final Pattern GO_PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(h|ms|m|s|us|µs|μs|ns)");

    /** A duration as Go writes it ({@code 1h2m3.5s}, {@code 20ms}); null when it is not one. */
    static Duration goDuration(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        Matcher part = GO_PART.matcher(value);
        double nanos = 0;
        int at = 0;
        while (part.find() && part.start() == at) {
            double n = Double.parseDouble(part.group(1));
            nanos += n * switch (part.group(2)) {
                case "h" -> 3_600e9;
                case "m" -> 60e9;
                case "s" -> 1e9;
                case "ms" -> 1e6;
                case "ns" -> 1;
                default -> 1e3; // us, µs
            };
            at = part.end();
        }
        return at == value.length() && Double.isFinite(nanos) ? Duration.ofNanos(Math.round(nanos)) : null;
    }
}
