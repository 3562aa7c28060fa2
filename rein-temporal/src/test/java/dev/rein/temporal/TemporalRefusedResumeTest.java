package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.ConfigurationException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A resume from a pause that fails on a worker ends the run on Temporal, so the decisions taken on the pause are never
 * applied: whatever the failure, the run's message and its traced end say so, and which (not only for a
 * ConfigurationException, as before).
 */
class TemporalRefusedResumeTest {
    private static final String NOT_APPLIED =
            "The decisions taken on its pause (refund) were not applied: the run ends without them";

    @Test
    void aListenerFactoryFailingAtTheResumeEndsTheRunSayingTheDecisionsWereNotApplied() {
        RunResult result = resumeFailingWith(new IllegalStateException("the exporter lost its connection"), "run-resume-ise");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.INTERNAL_ERROR);
        assertThat(result.message()).contains("IllegalStateException: the exporter lost its connection")
                .contains("the run did not go on. " + NOT_APPLIED).doesNotContain("not started");
    }

    @Test
    void aRefusalEndingInAFullStopIsJoinedToTheNoteAsOneSentenceFollowsAnother() {
        RunResult result = resumeFailingWith(new ConfigurationException("the exporter is not configured."), "run-resume-dot");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.CONFIGURATION_ERROR);
        assertThat(result.message()).isEqualTo("the exporter is not configured. " + NOT_APPLIED);
    }

    /** A paused run approved, whose resume finds the agent's listener factory throwing {@code failure} once. */
    private static RunResult resumeFailingWith(RuntimeException failure, String runId) {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        AtomicReference<RuntimeException> armed = new AtomicReference<>();
        RunListenerFactory failingOnce = id -> {
            RuntimeException thrown = armed.getAndSet(null);
            if (thrown != null) {
                throw thrown;
            }
            return null;
        };
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, k -> {})))
                .withListener(failingOnce);
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("refund A-1", runId);
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            armed.set(failure);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            RunResult result = run.result();

            assertThat(armed.get()).as("the resume met the failure").isNull();
            assertThat(ledger.charges).isEmpty();
            // the traced end says it too, after the decision it did not apply
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement()
                    .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("alice"));
            assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.message()).isEqualTo(result.message()));
            return result;
        }
    }
}
