package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.run.RunStatus;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.Usage;
import dev.rein.tool.Principal;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The default store is bounded: finished runs are evicted, paused runs are kept until decided. */
class InMemoryRunStoreTest {
    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void onlyTheMostRecentFinishedRunsAreKeptWithTheirTraceAndIdempotencyRecords() {
        InMemoryRunStore store = new InMemoryRunStore(3);
        for (int i = 0; i < 50; i++) {
            finishRun(store, "run_" + i);
        }
        assertThat(store.size()).isEqualTo(3);
        assertThat(store.list()).extracting(RunSummary::runId).containsExactlyInAnyOrder("run_47", "run_48", "run_49");
        assertThat(store.load("run_10")).isEmpty();
        assertThat(store.events("run_10")).isEmpty();
        assertThat(store.idempotency("run_10:toolu_1")).isEmpty();
        assertThat(store.load("run_49")).isPresent();
        assertThat(store.events("run_49")).extracting(StoredEvent::type).containsExactly("run_started", "audit");
        assertThat(store.idempotency("run_49:toolu_1")).isPresent();
    }

    @Test
    void aTraceEventArrivingAfterEvictionDoesNotBringTheRunBack() {
        InMemoryRunStore store = new InMemoryRunStore(0);
        finishRun(store, "run_a");
        store.appendEvent("run_a", new TraceEvent.Audit("run_a", 2, t0, "late", "t", "c", "u", "t", "after the end"));
        assertThat(store.size()).isZero();
        assertThat(store.events("run_a")).isEmpty();
    }

    @Test
    void theEvictedRunsItRemembersAreBoundedAndTheOldestAreForgottenFirst() {
        InMemoryRunStore store = new InMemoryRunStore(0);
        for (int i = 0; i < 1_030; i++) {
            finishRun(store, "run_" + i);
        }
        // the last 1,024 evicted runs stay refused; the six before them are forgotten, so a late event makes an entry
        for (String late : List.of("run_5", "run_6", "run_1029")) {
            store.appendEvent(late, new TraceEvent.Audit(late, 2, t0, "late", "t", "c", "u", "t", "after the end"));
        }
        assertThat(store.events("run_6")).isEmpty();
        assertThat(store.events("run_1029")).isEmpty();
        assertThat(store.events("run_5")).extracting(StoredEvent::type).containsExactly("audit");
    }

    @Test
    void pausedAndRunningRunsAreNeverEvictedAndAPausedRunResumesFromItsJson() {
        InMemoryRunStore store = new InMemoryRunStore(2);
        store.save(snapshot("run_paused", 1, RunStatus.RUNNING));
        store.save(snapshot("run_paused", 2, RunStatus.WAITING_APPROVAL));
        store.save(snapshot("run_busy", 1, RunStatus.RUNNING));
        for (int i = 0; i < 20; i++) {
            finishRun(store, "run_" + i);
        }
        assertThat(store.size()).isEqualTo(4);
        RunSnapshot paused = store.load("run_paused").orElseThrow();
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(paused).isEqualTo(snapshot("run_paused", 2, RunStatus.WAITING_APPROVAL));
        // Approving and resuming continue the version chain; ending it makes the run evictable.
        store.save(snapshot("run_paused", 3, RunStatus.RUNNING));
        assertThatThrownBy(() -> store.save(snapshot("run_paused", 3, RunStatus.RUNNING)))
                .isInstanceOf(StoreConflictException.class);
        store.save(snapshot("run_paused", 4, RunStatus.SUCCEEDED));
        finishRun(store, "run_x");
        finishRun(store, "run_y");
        assertThat(store.load("run_paused")).isEmpty();
        assertThat(store.load("run_busy")).isPresent();
    }

    @Test
    void aFinishedRunContinuedByAReplyIsNotEvictedWhileItRunsOrWaits() {
        InMemoryRunStore store = new InMemoryRunStore(2);
        finishRun(store, "run_asked"); // ended (needs_user_input or an answer): evictable
        // agent.reply: the next turn runs, then pauses for an approval
        store.save(snapshot("run_asked", 3, RunStatus.RUNNING));
        for (int i = 0; i < 5; i++) {
            finishRun(store, "run_" + i);
        }
        store.save(snapshot("run_asked", 4, RunStatus.WAITING_APPROVAL));
        for (int i = 5; i < 10; i++) {
            finishRun(store, "run_" + i);
        }
        assertThat(store.load("run_asked")).contains(snapshot("run_asked", 4, RunStatus.WAITING_APPROVAL));
        // once the turn ends, it is a finished run again, and the most recent one
        store.save(snapshot("run_asked", 5, RunStatus.RUNNING));
        store.save(snapshot("run_asked", 6, RunStatus.SUCCEEDED));
        finishRun(store, "run_x");
        assertThat(store.load("run_asked")).isPresent();
        finishRun(store, "run_y");
        assertThat(store.load("run_asked")).isEmpty();
    }

    @Test
    void aNegativeBoundIsRefused() {
        // was an IllegalArgumentException that said what was wrong but not what to pass
        assertThatThrownBy(() -> new InMemoryRunStore(-1)).isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("new InMemoryRunStore(finishedRunsKept) was given -1: pass how many finished runs to keep, 0 or"
                        + " more (0 forgets a run as soon as it ends; new InMemoryRunStore() keeps 32)");
    }

    private void finishRun(InMemoryRunStore store, String runId) {
        store.appendEvent(runId, new TraceEvent.RunStarted(runId, 0, t0, "goal", "m", List.of(), Map.of()));
        store.save(snapshot(runId, 1, RunStatus.RUNNING));
        ToolResult result = ToolResult.success(new ToolCall("toolu_1", "send", Json.object(), 0), "sent", "outbox");
        store.putIdempotency(new IdempotencyRecord(runId + ":toolu_1", runId, 1, "toolu_1", "send", "h", Json.object(),
                IdempotencyRecord.Status.COMPLETED, result, 1, t0, t0));
        store.appendEvent(runId, new TraceEvent.Audit(runId, 1, t0, "note", "t", "c", "u", "t", "detail"));
        store.save(snapshot(runId, 2, RunStatus.SUCCEEDED));
    }

    private RunSnapshot snapshot(String runId, long version, RunStatus status) {
        return new RunSnapshot(RunSnapshot.FORMAT, runId, version, "目標", "m", status, "", "", "", t0, t0.plusSeconds(version),
                0, new Principal("u", "t", Set.of()), List.of(Message.user("目標")), 1, Usage.ZERO, BigDecimal.ZERO, 0,
                Map.of(), AgentState.of("目標"), null, null);
    }
}
