package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.log.CapturingLogger;
import dev.rein.run.RunStatus;
import dev.rein.security.TraceRedactor;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * What the log says when a run's listener fails: which listener, on what, of which run, the failure's words on one
 * line (its type when it said nothing), what the run lost by it and what to check. It said
 * "run listener X failed on StateChanged: java.lang.IllegalStateException: disk full" over as many lines as the
 * failure's message had, and for a streamed part "run listener failed: java.lang.NullPointerException", naming
 * neither the listener nor the run.
 */
class RecorderListenerFailureLogTest {
    static final class Broken implements RunListener {
        @Override
        public void onEvent(TraceEvent event) {
            throw new IllegalStateException("disk full\n  at /var/log/rein \u001b[31mred");
        }

        @Override
        public void onTextDelta(String text) {
            throw new NullPointerException();
        }

        @Override
        public void close() {
            throw new java.io.UncheckedIOException("cannot flush trace.jsonl", new java.io.IOException("No space left on device"));
        }
    }

    @Test
    void aListenersFailureIsLoggedOnOneLineSayingWhichRunWhatWasMissedAndWhatToCheck() {
        CapturingLogger log = new CapturingLogger();
        Recorder recorder = new Recorder("run_1", List.of(new Broken()), new TraceRedactor(Map::of), Map::of, log);

        recorder.emit(new TraceEvent.StateChanged("run_1", 1, Instant.EPOCH, RunStatus.RUNNING, RunStatus.SUCCEEDED, "done"));
        recorder.onTextDelta("hello");
        recorder.endOfStream();
        recorder.close();

        String listener = "dev.rein.agent.RecorderListenerFailureLogTest$Broken";
        assertThat(log.at(Level.WARN)).containsExactly(
                "run listener " + listener + " failed on the state_change event of run run_1: IllegalStateException:"
                        + " disk full at /var/log/rein \\x1b[31mred; the run went on, but this listener missed that event (a"
                        + " trace file or export it writes lacks it); check the listener: where it writes (reachable,"
                        + " writable, not full), or its code",
                "run listener " + listener + " failed on streamed text (onTextDelta) of run run_1: NullPointerException"
                        + " (no message); the run went on, but this listener missed that part of the live output (the run's"
                        + " trace events have all of it); check the listener: where it writes (reachable, writable, not"
                        + " full), or its code",
                "run listener " + listener + " failed to close after run run_1: UncheckedIOException: cannot flush"
                        + " trace.jsonl (caused by IOException); the run went on, but what this"
                        + " listener writes may be incomplete (not flushed or not ended); check the listener: where it"
                        + " writes (reachable, writable, not full), or its code");
        // the stack trace is for debug, with the failure as the log's throwable
        assertThat(log.lines()).filteredOn(l -> l.level() == Level.DEBUG).hasSize(3)
                .allSatisfy(l -> assertThat(l.thrown()).isNotNull());
    }
}
