package dev.rein.retry;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Function;

/**
 * A server's wait hint and retry verdict as HTTP response headers carry them, for any provider:
 * {@code retry-after-ms} (milliseconds, may be fractional) wins over {@code retry-after} (seconds,
 * or an HTTP date), and {@code x-should-retry} says whether to retry at all. Unparseable values are
 * ignored rather than guessed at; a date in the past means "now". The wait goes to
 * {@link RetryPolicy#delayBefore} (and {@link RetryPolicy#tooLong}) through the provider's
 * {@code ModelException}. Headers are given as a lookup, so any HTTP client's headers fit
 * ({@code httpHeaders::allValues} for the JDK's).
 */
public final class RetryAfter {
    private RetryAfter() {}

    /**
     * The requested wait, or null when the headers carry no usable hint.
     *
     * @param headers the values of a header by its name (empty or null when absent); null for no headers
     * @param clock   the clock an HTTP date is measured from
     */
    public static Duration from(Function<String, List<String>> headers, Clock clock) {
        if (headers == null) {
            return null;
        }
        Duration millis = number(first(headers, "retry-after-ms"), 1_000_000);
        if (millis != null) {
            return millis;
        }
        String value = first(headers, "retry-after");
        if (value == null) {
            return null;
        }
        Duration seconds = number(value, 1_000_000_000);
        return seconds != null ? seconds : date(value, clock);
    }

    /**
     * {@code x-should-retry: true|false}, or null when absent or anything else.
     *
     * @param headers the values of a header by its name (empty or null when absent); null for no headers
     */
    public static Boolean shouldRetry(Function<String, List<String>> headers) {
        String value = headers == null ? null : first(headers, "x-should-retry");
        if ("true".equalsIgnoreCase(value)) {
            return Boolean.TRUE;
        }
        if ("false".equalsIgnoreCase(value)) {
            return Boolean.FALSE;
        }
        return null;
    }

    /**
     * The first value of header {@code name}, trimmed, or null when it is absent or blank: how the
     * providers read the other wait hints of their responses too.
     *
     * @param headers the values of a header by its name (empty or null when absent)
     * @param name    the header's name
     */
    public static String first(Function<String, List<String>> headers, String name) {
        List<String> values = headers.apply(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        String value = values.get(0).trim();
        return value.isEmpty() ? null : value;
    }

    private static Duration number(String value, long nanosPerUnit) {
        if (value == null) {
            return null;
        }
        try {
            double d = Double.parseDouble(value);
            return Double.isFinite(d) && d >= 0 ? Duration.ofNanos(Math.round(d * nanosPerUnit)) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Duration date(String value, Clock clock) {
        try {
            ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration wait = Duration.between(clock.instant(), at.toInstant());
            return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
