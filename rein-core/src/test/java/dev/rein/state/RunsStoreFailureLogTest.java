package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What the log says when a cancellation or a decision was saved but the store could not keep its trace events: the
 * run, what was saved and what is missing, the store's own words (not "java.lang.IllegalStateException" alone), and
 * what the user can do.
 */
class RunsStoreFailureLogTest {
    @Test
    void aCancelledRunWhoseTraceEndWasNotKeptSaysWhatIsSavedWhyAndWhatToDo() {
        String line = Runs.cancelTraceLost("run_1", new IllegalStateException());

        assertThat(line).isEqualTo("run run_1 was cancelled (its status is saved), but the store could not keep the end of its"
                + " trace (state_change and run_finished): IllegalStateException (no message); the run's trace in the store"
                + " lacks them, so rein show and Runs.show show no ending; check that the store can be written to (reachable,"
                + " not locked by another process, not full)");
    }

    @Test
    void aDecisionWhoseTraceEventWasNotKeptSaysTheStoresWordsAndTheirCause() {
        String line = Runs.decisionTraceLost("run_1", new StoreException("cannot append an event of run run_1",
                new java.io.IOException("database is locked")));

        assertThat(line).isEqualTo("the decision on run run_1 was saved and applies, but the store could not keep its"
                + " approval_decided trace event: cannot append an event of run run_1 (caused by IOException); the"
                + " run's trace in the store lacks it; check that the store can be written to (reachable, not"
                + " locked by another process, not full)");
    }
}
