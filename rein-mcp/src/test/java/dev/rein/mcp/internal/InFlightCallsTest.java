package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class InFlightCallsTest {
    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void aCallPastItsDeadlineIsTakenAsOverdueOnceUnlessItEnded() {
        InFlightCalls calls = new InFlightCalls();
        Object hanging = calls.began(NOW.minusMillis(1));
        Object running = calls.began(NOW.plusSeconds(10));

        assertThat(calls.takeOverdue(NOW)).isTrue();
        // Forgotten once taken: the server is checked once for a call given up on, not at every call after it.
        assertThat(calls.takeOverdue(NOW)).isFalse();
        calls.ended(hanging);
        calls.ended(running);
        assertThat(calls.takeOverdue(NOW.plusSeconds(60))).as("a call that ended is not overdue").isFalse();
    }

    @Test
    void callsWithinTheirTimeAreNotOverdue() {
        InFlightCalls calls = new InFlightCalls();
        calls.began(NOW.plusMillis(1));
        calls.began(NOW);

        assertThat(calls.takeOverdue(NOW)).isFalse();
        assertThat(calls.takeOverdue(NOW.plusMillis(2))).as("both past their time now").isTrue();
    }
}
