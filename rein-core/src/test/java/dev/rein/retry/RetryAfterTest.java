package dev.rein.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The provider-neutral reading of retry-after-ms, retry-after and x-should-retry that both providers share. */
class RetryAfterTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T10:00:00Z"), ZoneOffset.UTC);

    private static Function<String, List<String>> headers(Map<String, String> values) {
        return name -> values.containsKey(name) ? List.of(values.get(name)) : List.of();
    }

    @Test
    void retryAfterMsWinsOverRetryAfterWhichIsSecondsOrAnHttpDate() {
        assertThat(RetryAfter.from(headers(Map.of("retry-after-ms", "1500.5", "retry-after", "9")), CLOCK))
                .isEqualTo(Duration.ofNanos(1_500_500_000));
        assertThat(RetryAfter.from(headers(Map.of("retry-after", " 2.5 ")), CLOCK)).isEqualTo(Duration.ofMillis(2500));
        assertThat(RetryAfter.from(headers(Map.of("retry-after", "Fri, 04 Dec 2026 10:00:30 GMT")), CLOCK))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.from(headers(Map.of("retry-after", "Fri, 04 Dec 2026 09:00:00 GMT")), CLOCK))
                .as("a date in the past means now").isEqualTo(Duration.ZERO);
    }

    @Test
    void unusableOrMissingHintsAreNoHint() {
        assertThat(RetryAfter.from(headers(Map.of("retry-after", "soon")), CLOCK)).isNull();
        assertThat(RetryAfter.from(headers(Map.of("retry-after-ms", "-5")), CLOCK)).isNull();
        assertThat(RetryAfter.from(headers(Map.of("retry-after", "NaN")), CLOCK)).isNull();
        assertThat(RetryAfter.from(headers(Map.of()), CLOCK)).isNull();
        assertThat(RetryAfter.from(null, CLOCK)).isNull();
        assertThat(RetryAfter.from(name -> null, CLOCK)).isNull();
    }

    @Test
    void xShouldRetrySaysTrueFalseOrNothing() {
        assertThat(RetryAfter.shouldRetry(headers(Map.of("x-should-retry", "TRUE")))).isTrue();
        assertThat(RetryAfter.shouldRetry(headers(Map.of("x-should-retry", "false")))).isFalse();
        assertThat(RetryAfter.shouldRetry(headers(Map.of("x-should-retry", "maybe")))).isNull();
        assertThat(RetryAfter.shouldRetry(null)).isNull();
    }
}
