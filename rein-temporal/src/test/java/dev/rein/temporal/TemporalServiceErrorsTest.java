package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowClient;
import io.temporal.common.interceptors.WorkflowClientCallsInterceptor;
import io.temporal.common.interceptors.WorkflowClientCallsInterceptorBase;
import io.temporal.common.interceptors.WorkflowClientInterceptorBase;
import io.temporal.serviceclient.RpcRetryOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A run's handle (decisions, cancel, status queries, result) says a refusal of Temporal's service in Rein's terms with
 * what to do, as the start does, where Temporal's WorkflowServiceException (naming only the workflow) came back; and a
 * decision over Temporal's 2 MB payload limit (limit.blobSize.error) is refused before it is sent.
 */
class TemporalServiceErrorsTest {
    private static Agent agent(Orders.Ledger ledger) {
        return Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
    }

    /**
     * A rejection reason or edited arguments over 2 MB are refused before anything is sent, saying the size, the limit
     * and what to do; the run still waits, and takes a decision after that (failed before: the oversized reason was
     * sent, which a real server refuses with a bare INVALID_ARGUMENT, and the test server took).
     */
    @Test
    void aDecisionOverTemporalsPayloadLimitIsRefusedBeforeItIsSent() {
        Orders.Ledger ledger = new Orders.Ledger();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent(ledger)).start("A-1 を返金して", "run-huge-decision");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            ApprovalRequest pending = run.pendingApprovals().get(0);
            String reason = "在庫がありません。".repeat(80_000); // 720,000 characters, 2,160,000 bytes of UTF-8

            assertThatThrownBy(() -> run.reject(pending.actionHash(), reason, "alice")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("720,000 characters").hasMessageContaining("2,160,000 bytes of UTF-8")
                    .hasMessageContaining("2 MB").hasMessageContaining("limit.blobSize.error")
                    .hasMessageContaining("shorter reason").hasMessageContaining("nothing was sent");
            com.fasterxml.jackson.databind.node.ObjectNode huge = Json.object();
            huge.put("order_id", "A-1");
            huge.put("note", "返金".repeat(400_000));
            assertThatThrownBy(() -> run.edit(pending.actionHash(), huge, "alice")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("limit.blobSize.error").hasMessageContaining("smaller arguments")
                    .hasMessageContaining("nothing was sent");

            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(run.refusedDecisions()).isEmpty();
            assertThat(ledger.charges).isEmpty();
            run.reject(pending.actionHash(), "在庫がありません。", "alice");
            RunResult result = run.result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).isEmpty();
        }
    }

    /**
     * A decision the service refuses (here: unavailable) is said with the gRPC status, what to do, and that it may not
     * have reached the run (failed before: Temporal's WorkflowServiceException).
     */
    @Test
    void aDecisionTheServiceRefusesIsSaidWithWhatToDo() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = agent(ledger);
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-decision-refused");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            WorkflowClient refusing = WorkflowClient.newInstance(server.env.getWorkflowServiceStubs(),
                    TemporalAgents.clientOptions().setNamespace(server.env.getNamespace())
                            .setInterceptors(new WorkflowClientInterceptorBase() {
                                @Override
                                public WorkflowClientCallsInterceptor workflowClientCallsInterceptor(WorkflowClientCallsInterceptor next) {
                                    return new WorkflowClientCallsInterceptorBase(next) {
                                        @Override
                                        public WorkflowSignalOutput signal(WorkflowSignalInput input) {
                                            throw new StatusRuntimeException(Status.UNAVAILABLE.withDescription("io exception"));
                                        }
                                    };
                                }
                            }).build());
            TemporalRun handle = TemporalAgents.client(refusing, TemporalTestServer.QUEUE, agent).attach("run-decision-refused");
            String hash = run.pendingApprovals().get(0).actionHash();

            assertThatThrownBy(() -> handle.approve(hash, "alice")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal did not take the decision on action " + hash + " for run 'run-decision-refused'")
                    .hasMessageContaining("UNAVAILABLE").hasMessageContaining("could not be reached")
                    .hasMessageContaining("pendingApprovals()");
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            run.approve(hash, "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    /**
     * With no service at the client's target, each call of a handle says so with what to do (failed before: Temporal's
     * WorkflowServiceException, naming only the workflow).
     */
    @Test
    void aServiceThatCannotBeReachedIsSaidByEveryCallOfTheHandle() {
        WorkflowServiceStubs nowhere = WorkflowServiceStubs.newServiceStubs(WorkflowServiceStubsOptions.newBuilder()
                .setTarget("127.0.0.1:1").setRpcRetryOptions(RpcRetryOptions.newBuilder().setMaximumAttempts(1)
                        .validateBuildWithDefaults()).build());
        try {
            WorkflowClient client = WorkflowClient.newInstance(nowhere, TemporalAgents.clientOptions().build());
            TemporalRun run = TemporalAgents.client(client, "orders", agent(new Orders.Ledger())).attach("run-no-service");
            for (Executable call : new Executable[] {run::status, run::pendingApprovals, run::refusedDecisions, run::cancel,
                    () -> run.approve("a".repeat(64), "alice"), () -> run.reject("a".repeat(64), "いいえ", "alice"),
                    () -> run.result(Duration.ofSeconds(5))}) {
                assertThatThrownBy(call::execute).isInstanceOf(ReinException.class)
                        .hasMessageContaining("run 'run-no-service'").hasMessageContaining("UNAVAILABLE")
                        .hasMessageContaining("could not be reached");
            }
        } finally {
            nowhere.shutdownNow();
        }
    }
}
