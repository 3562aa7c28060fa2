package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.log.CapturingLogger;
import dev.rein.run.RunStatus;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * What the log says when a listener told of a cancellation fails, as a store's failure says it: which run and
 * listener, what it missed, the failure's words on one line and what to check. It said "... failed on RunFinished of
 * cancelled run run_1: java.lang.IllegalStateException: ..." with the message's line breaks as they were.
 */
class RunsListenerFailureLogTest {
    static final class Broken implements RunListener {
        @Override
        public void onEvent(TraceEvent event) {
            throw new IllegalStateException("exporter down\nretry later");
        }

        @Override
        public void close() {
            throw new IllegalStateException();
        }
    }

    static final class BrokenFactory implements RunListenerFactory {
        @Override
        public RunListener create(String runId) {
            throw new IllegalArgumentException("no endpoint configured\u0007");
        }
    }

    private static final List<TraceEvent> END = List.of(
            new TraceEvent.RunFinished("run_1", 2, Instant.EPOCH, RunStatus.CANCELLED, "cancelled", "もう不要です", null, null, null));

    @Test
    void aListenerThatFailsOnACancellationIsLoggedSayingWhatItMissedAndWhatToCheck() {
        CapturingLogger log = new CapturingLogger();
        RunListenerFactory factory = runId -> new Broken();

        Runs.tell(log, factory, "run_1", null, END);

        String listener = "dev.rein.state.RunsListenerFailureLogTest$Broken";
        assertThat(log.at(Level.WARN)).containsExactly(
                "run listener " + listener + " failed on the run_finished event of cancelled run run_1:"
                        + " IllegalStateException: exporter down retry later; the cancellation is saved, but this listener"
                        + " missed that event (a trace file or export it writes lacks it); check the listener: where it"
                        + " writes (reachable, writable, not full), or its code",
                "run listener " + listener + " failed to close after cancelled run run_1: IllegalStateException (no"
                        + " message); the cancellation is saved, but what this listener writes may be incomplete (not"
                        + " flushed or not ended); check the listener: where it writes (reachable, writable, not full), or"
                        + " its code");
        assertThat(log.lines()).filteredOn(l -> l.level() == Level.DEBUG).hasSize(2)
                .allSatisfy(l -> assertThat(l.thrown()).isNotNull());
    }

    @Test
    void aFactoryThatFailsToMakeItsListenerIsLoggedSayingTheListenerWasNotTold() {
        CapturingLogger log = new CapturingLogger();

        Runs.tell(log, new BrokenFactory(), "run_1", null, END);

        assertThat(log.at(Level.WARN)).containsExactly("run run_1 was cancelled (its status is saved), but the run listener"
                + " factory dev.rein.state.RunsListenerFailureLogTest$BrokenFactory failed to make its listener:"
                + " IllegalArgumentException: no endpoint configured\\x07; its listener was not told of the run's end, so"
                + " what it writes (a trace file, an export) lacks it; check the factory: where its listener writes"
                + " (reachable, writable, not full), or its code");
    }
}
