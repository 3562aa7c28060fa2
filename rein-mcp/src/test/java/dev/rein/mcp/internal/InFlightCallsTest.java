package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class InFlightCallsTest {
    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void aCallPastItsDeadlineIsOverdueUntilItEnds() {
        InFlightCalls calls = new InFlightCalls();
        Object hanging = calls.began(NOW.minusMillis(1));
        Object running = calls.began(NOW.plusSeconds(10));

        assertThat(calls.anyOverdue(NOW)).isTrue();
        calls.ended(hanging);
        assertThat(calls.anyOverdue(NOW)).isFalse();
        calls.ended(running);
        assertThat(calls.anyOverdue(NOW.plusSeconds(60))).isFalse();
    }

    @Test
    void callsWithinTheirTimeAreNotOverdue() {
        InFlightCalls calls = new InFlightCalls();
        calls.began(NOW.plusMillis(1));
        calls.began(NOW);

        assertThat(calls.anyOverdue(NOW)).isFalse();
    }
}
