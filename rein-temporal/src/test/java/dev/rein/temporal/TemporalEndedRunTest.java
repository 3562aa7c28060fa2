package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.approval.ApprovalException;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.TraceEvent;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import org.junit.jupiter.api.Test;

/**
 * Probe (passed at once) of docs/temporal.md's promises for a run that ended while it waited for approval: a cancel
 * ends it CANCELLED with one RunFinished in its trace and its workflow closed as cancelled, the pending action never
 * runs; each decision afterwards (approve, reject, edit) is an ApprovalException naming the status with nothing sent;
 * and a start under its id is refused as a run that has ended, with nothing started.
 */
class TemporalEndedRunTest {
    @Test
    void aCancelledPausedRunRefusesEveryDecisionAndItsIdCannotStartAnotherRun() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            TemporalRun run = client.start("A-1 を返金して", "run-ended-決定");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();

            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(server.client().newUntypedWorkflowStub("run-ended-決定").describe().getStatus())
                    .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_CANCELED);
            assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.status()).isEqualTo(RunStatus.CANCELLED));
            assertThat(trace.events(TraceEvent.ToolCompleted.class)).isEmpty();

            assertThatThrownBy(() -> run.approve(hash, "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("is CANCELLED, not waiting for approval").hasMessageContaining("nothing was sent");
            assertThatThrownBy(() -> run.reject(hash, "いいえ", "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("is CANCELLED, not waiting for approval");
            assertThatThrownBy(() -> run.edit(hash, Json.object().put("id", "A-9"), "alice"))
                    .isInstanceOf(ApprovalException.class).hasMessageContaining("is CANCELLED, not waiting for approval");
            run.cancel(); // a second cancel of an ended run does nothing
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);

            assertThatThrownBy(() -> client.start("A-1 を返金して", "run-ended-決定")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("already ran on Temporal and has ended")
                    .hasMessageContaining("attach(\"run-ended-決定\")");
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(trace.events(TraceEvent.RunStarted.class)).hasSize(1);
            assertThat(ledger.charges).isEmpty();
        }
    }
}
