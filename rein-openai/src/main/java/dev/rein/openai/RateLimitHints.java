package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.retry.RetryAfter;
import dev.rein.retry.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The wait hints of OpenAI's 429s beyond the headers every provider sends (those are read by
 * {@link dev.rein.retry.RetryAfter}): the rate-limit reset headers and the wait its message names; and the wait a
 * Google error names in its details (RetryInfo).
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
     * as Gemini's does; "Please retry after 6 seconds.", as Azure OpenAI's does), or null. It is
     * the time until this request fits, not until a full reset, so a long one (a daily limit's) is kept: the call
     * then fails at once saying how long the server asked to wait.
     */
    static Duration inMessage(String message) {
        if (message == null) {
            return null;
        }
        Matcher wait = TRY_AGAIN.matcher(message);
        if (wait.find()) {
            return goDuration(wait.group(1));
        }
        Matcher after = RETRY_AFTER_SECONDS.matcher(message);
        return after.find() && after.group(1).length() <= 18 ? Duration.ofSeconds(Long.parseLong(after.group(1))) : null;
    }

    /**
     * Azure OpenAI's 429 message: "... have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry
     * after 6 seconds. ..." (its retry-after header says the same; a gateway in front of it may drop the header).
     */
    private static final Pattern RETRY_AFTER_SECONDS = Pattern.compile("(?i)\\bretry after (\\d+) seconds?\\b");

    /**
     * For OpenRouter's 429 (no retry-after): how long until the limit that ran out resets, from the limit's headers it puts
     * in the error, {@code {"error":{..., "metadata":{"headers":{"X-RateLimit-Remaining":"0", "X-RateLimit-Reset":
     * "1741305600000"}}}}} (the reset in epoch milliseconds). Only when none remain: otherwise they do not say what the
     * 429 waits for. A reset past {@link RetryPolicy#LONGEST_HINT} is kept (a per-day limit's): no retry within the run
     * gets through, so the call fails at once saying how long the server asked to wait. Null when there is none.
     */
    static Duration errorHeadersReset(JsonNode body, java.time.Clock clock) {
        if (body == null) {
            return null;
        }
        JsonNode error = body.path("error").isObject() ? body.path("error") : body;
        JsonNode headers = error.path("metadata").path("headers");
        String remaining = header(headers, "X-RateLimit-Remaining");
        String reset = header(headers, "X-RateLimit-Reset");
        if (!"0".equals(remaining) || reset == null || !reset.matches("\\d{1,18}")) {
            return null;
        }
        Duration wait = Duration.ofMillis(Long.parseLong(reset) - clock.millis());
        return wait.isNegative() ? Duration.ZERO : wait;
    }

    /** A header's value in a JSON object of headers, its name in any case; null when absent. */
    private static String header(JsonNode headers, String name) {
        for (var entry : headers.properties()) {
            if (entry.getKey().equalsIgnoreCase(name) && entry.getValue().isValueNode()) {
                return entry.getValue().asText().strip();
            }
        }
        return null;
    }

    /**
     * A protobuf Duration as JSON writes it: seconds, up to nine decimals, and "s" ({@code 36s}, {@code 1.500s}).
     * More than 18 digits of seconds (past any wait a long holds) is no hint rather than a parse error.
     */
    private static final Pattern PROTO_DURATION = Pattern.compile("(\\d{1,18})(?:\\.(\\d{1,9}))?s");

    /**
     * The wait a Google error names in its details, as {@code google.rpc.RetryInfo} (Google's error model: clients
     * should wait at least its {@code retryDelay} before retrying): {@code {"error":{..., "details":[{"@type":
     * "type.googleapis.com/google.rpc.RetryInfo", "retryDelay":"36s"}]}}}, the error alone or in a list as Google's
     * OpenAI-compatible endpoints send it (Vertex AI's 429 RESOURCE_EXHAUSTED names the wait nowhere else). Null
     * when there is none.
     */
    static Duration retryInfo(JsonNode body) {
        for (JsonNode detail : googleDetails(body, "google.rpc.RetryInfo")) {
            Matcher delay = PROTO_DURATION.matcher(detail.path("retryDelay").asText(""));
            if (delay.matches()) {
                String fraction = delay.group(2) == null ? "" : delay.group(2);
                return Duration.ofSeconds(Long.parseLong(delay.group(1)),
                        fraction.isEmpty() ? 0 : Long.parseLong((fraction + "00000000").substring(0, 9)));
            }
        }
        return null;
    }

    /**
     * The details of {@code type} (such as {@code google.rpc.RetryInfo}) in a Google error's {@code details}, the error
     * alone or in a list as Google's OpenAI-compatible endpoints send it; none for a null body.
     */
    static List<JsonNode> googleDetails(JsonNode body, String type) {
        if (body == null) {
            return List.of();
        }
        List<JsonNode> found = new java.util.ArrayList<>(1);
        for (JsonNode item : body.isArray() ? body : List.of(body)) {
            JsonNode error = item.path("error").isObject() ? item.path("error") : item;
            for (JsonNode detail : error.path("details")) {
                if (detail.path("@type").asText("").endsWith(type)) {
                    found.add(detail);
                }
            }
        }
        return found;
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
