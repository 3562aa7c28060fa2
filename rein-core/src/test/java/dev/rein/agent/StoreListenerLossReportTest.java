package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.state.ForwardingRunStore;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.StoreException;
import dev.rein.trace.TraceEvent;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What the log says when the store lost events of a run's trace: which run, how many, what the store said (its type
 * when it said nothing), and what the user can do. It said "(…)" with the failure's message alone, "()" for one without.
 */
class StoreListenerLossReportTest {
    private static StoreListener failingWith(RuntimeException failure) {
        ForwardingRunStore store = new ForwardingRunStore(new InMemoryRunStore()) {
            @Override
            public void appendEvent(String runId, TraceEvent event) {
                throw failure;
            }

            @Override
            public String toString() {
                return "the test store";
            }
        };
        StoreListener listener = new StoreListener(store, "run_1");
        listener.onEvent(new TraceEvent.StateChanged("run_1", 0, Instant.EPOCH, RunStatus.RUNNING, RunStatus.SUCCEEDED, "completed"));
        listener.onEvent(new TraceEvent.StateChanged("run_1", 1, Instant.EPOCH, RunStatus.RUNNING, RunStatus.SUCCEEDED, "completed"));
        listener.close();
        return listener;
    }

    @Test
    void aFailureWithoutAMessageIsNamedByItsTypeAndTheReportSaysWhatToDo() {
        String report = failingWith(new IllegalStateException()).lossReport();

        assertThat(report).startsWith("2 trace events of run run_1 could not be stored in the test store: IllegalStateException"
                + " (no message)")
                .doesNotContain("()")
                .contains("the run was not held up for them")
                .contains("JsonlTraceListener")
                .contains("check that the store can be written to");
    }

    @Test
    void theStoresOwnWordsComeWithTheirCause() {
        String report = failingWith(new StoreException("cannot append an event of run run_1",
                new java.io.IOException("database is locked"))).lossReport();

        assertThat(report).contains(": cannot append an event of run run_1 (caused by IOException)");
    }

    /**
     * A store that reworded its cause's message (one that quotes a password, masked) is quoted in its words alone, and a
     * message over several lines (a database's error with its hint) stays one log line. Both came out as they were: the
     * cause's message after the store's, the line breaks as they are.
     */
    @Test
    void theReportIsOneLineAndLeavesOutTheMessageOfACauseTheStoreReworded() {
        String report = failingWith(new StoreException("cannot connect to the database (password=***)",
                new IllegalStateException("connection refused: password=s3cret"))).lossReport();
        String full = failingWith(new StoreException("ERROR: could not extend file: No space left on device\n  Hint: Check free"
                + " disk space.")).lossReport();

        assertThat(report).contains(": cannot connect to the database (password=***) (caused by IllegalStateException)")
                .doesNotContain("s3cret");
        assertThat(full).contains("No space left on device\\x0a  Hint: Check free disk space.").doesNotContain("\n");
    }

    @Test
    void nothingLostIsNoReport() {
        StoreListener listener = new StoreListener(new InMemoryRunStore(), "run_1");
        listener.onEvent(new TraceEvent.StateChanged("run_1", 0, Instant.EPOCH, RunStatus.RUNNING, RunStatus.SUCCEEDED, "completed"));
        listener.close();

        assertThat(listener.lossReport()).isNull();
    }
}
