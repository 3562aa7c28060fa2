package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.trace.TraceEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ConsoleTraceTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String printed(TraceEvent event) {
        ConsoleTrace.to(out).create("run_1").onEvent(event);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static TraceEvent.ApprovalDecided decided(String decidedBy, String reason) {
        return new TraceEvent.ApprovalDecided("run_1", 2, Instant.EPOCH, "call_1", "send_message", "a".repeat(64),
                "rejected", reason, null, null, decidedBy);
    }

    /**
     * A decision stored before deciders were recorded has no decidedBy, and a resumed run replays it as an
     * approval_decided event without one. Before: the line said "send_message by null".
     */
    @Test
    void aDecisionWithoutADeciderNamesNone() {
        assertThat(printed(decided(null, "wrong recipient"))).contains("send_message: wrong recipient").doesNotContain("null");
    }

    @Test
    void aDecisionNamesItsDeciderAndShowsControlCharactersInTheirWordsVisibly() {
        assertThat(printed(decided("山田\u001b[2J", "宛先が\u001b]0;x\u0007違う")))
                .contains("send_message by 山田\\x1b[2J: 宛先が\\x1b]0;x\\x07違う");
    }
}
