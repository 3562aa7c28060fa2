package dev.rein.anthropic;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads the server's wait hint from response headers: {@code retry-after-ms} (milliseconds, may
 * be fractional) wins over {@code retry-after} (seconds, or an HTTP date). Unparseable values are
 * ignored rather than guessed at; a date in the past means "now".
 */
final class RetryAfter {
    private RetryAfter() {}

    /** The requested wait, or null when the headers carry no usable hint. */
    static Duration from(HttpHeaders headers, Clock clock) {
        if (headers == null) {
            return null;
        }
        Duration millis = parseMillis(first(headers, "retry-after-ms"));
        if (millis != null) {
            return millis;
        }
        String value = first(headers, "retry-after");
        if (value == null) {
            return null;
        }
        Duration seconds = parseSeconds(value);
        return seconds != null ? seconds : parseDate(value, clock);
    }

    /** {@code x-should-retry: true|false}, or null when absent or anything else. */
    static Boolean shouldRetry(HttpHeaders headers) {
        String value = headers == null ? null : first(headers, "x-should-retry");
        if ("true".equalsIgnoreCase(value)) {
            return Boolean.TRUE;
        }
        if ("false".equalsIgnoreCase(value)) {
            return Boolean.FALSE;
        }
        return null;
    }

    private static String first(HttpHeaders headers, String name) {
        String value = headers.firstValue(name).orElse("").trim();
        return value.isEmpty() ? null : value;
    }

    private static Duration parseMillis(String value) {
        Double number = number(value);
        return number == null ? null : Duration.ofNanos(Math.round(number * 1_000_000));
    }

    private static Duration parseSeconds(String value) {
        Double number = number(value);
        return number == null ? null : Duration.ofNanos(Math.round(number * 1_000_000_000));
    }

    private static Double number(String value) {
        if (value == null) {
            return null;
        }
        try {
            double d = Double.parseDouble(value);
            return Double.isFinite(d) && d >= 0 ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Duration parseDate(String value, Clock clock) {
        try {
            ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration wait = Duration.between(clock.instant(), at.toInstant());
            return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
