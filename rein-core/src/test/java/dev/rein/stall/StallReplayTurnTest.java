package dev.rein.stall;

import static dev.rein.stall.StallHarness.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.stall.StallMonitor;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StallMonitor#replayTurn}: a resumed reply turn rebuilds its own counts, not the earlier turns'. */
class StallReplayTurnTest {
    private static final String X = "{\"path\":\"x\"}";

    /** Turn 1: two identical reads (steps 1, 2) and a text answer (step 3); then the person's reply. */
    private static StallHarness afterFirstTurn() {
        StallHarness h = new StallHarness();
        h.step(ok("read", X, "r1"));
        h.step(ok("read", X, "r2"));
        h.history.add(Message.assistant(List.of(new TextBlock("the answer"))));
        h.history.add(Message.user("and again, please"));
        return h;
    }

    private static StallMonitor.CallDecision propose(StallMonitor monitor, StallHarness h, String id) {
        return monitor.beforeCall(ProposedCall.of(id, "read", Json.parse(X), h.tools.get("read"), 9));
    }

    @Test
    void aFreshReplyTurnStartsWithNoCounts() {
        StallHarness h = afterFirstTurn();
        StallMonitor monitor = new StallMonitor(StallPolicy.defaults());
        monitor.replayTurn(h.history, 3, 3, h.tools::get, name -> false);
        assertThat(propose(monitor, h, "a")).isInstanceOf(StallMonitor.CallDecision.Allow.class);
        assertThat(propose(monitor, h, "b")).isInstanceOf(StallMonitor.CallDecision.Allow.class);
        assertThat(propose(monitor, h, "c")).isInstanceOf(StallMonitor.CallDecision.Block.class);
    }

    @Test
    void anEmptyResponseInTheTurnReachesBackOnlyToTheEarlierTurnsAnswer() {
        StallHarness h = afterFirstTurn();
        h.step(ok("read", X, "r3")); // turn 2: step 4 was empty (no message), step 5 read x again
        StallMonitor monitor = new StallMonitor(StallPolicy.defaults());
        monitor.replayTurn(h.history, 3, 5, h.tools::get, name -> false);
        assertThat(propose(monitor, h, "a")).isInstanceOf(StallMonitor.CallDecision.Allow.class);
        assertThat(propose(monitor, h, "b")).isInstanceOf(StallMonitor.CallDecision.Block.class);
    }

    @Test
    void theFirstTurnReplaysTheWholeHistoryAsBefore() {
        StallHarness h = new StallHarness();
        h.step(ok("read", X, "r1"));
        h.step(ok("read", X, "r2"));
        StallMonitor monitor = new StallMonitor(StallPolicy.defaults());
        monitor.replayTurn(h.history, 0, 2, h.tools::get, name -> false);
        assertThat(propose(monitor, h, "a")).isInstanceOf(StallMonitor.CallDecision.Block.class);
    }
}
