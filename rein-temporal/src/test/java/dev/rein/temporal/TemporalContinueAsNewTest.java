package dev.rein.temporal;

import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.temporal.internal.AgentWorkflow;
import dev.rein.temporal.internal.RunInput;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalRequest;
import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A run longer than one workflow history holds continues as new (same workflow id, so the same run id, a fresh
 * history) instead of growing until Temporal terminates it at 51,200 events: tested with a low limit.
 */
class TemporalContinueAsNewTest {
    private static ScriptedModel lookupsThenRefundThenAnswer(int lookups) {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= lookups; i++) {
            turns.add(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-" + i + "\"}")));
        }
        turns.add(ScriptedModel.toolCalls(ScriptedModel.call("refund", "{\"id\":\"A-1\"}")));
        turns.add(ScriptedModel.text("A-1 を返金しました。"));
        return ScriptedModel.of(turns.toArray(ScriptedModel.Turn[]::new));
    }

    @Test
    void aRunPastItsHistoryLimitContinuesAsNewKeepingItsIdItsCountersAndItsApprovals() {
        Orders.Ledger ledger = new Orders.Ledger();
        List<String> keys = new CopyOnWriteArrayList<>();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(lookupsThenRefundThenAnswer(10), trace, Orders.lookup(),
                Orders.refund(ledger, keys::add)).budget(Budget.builder().maxSteps(20).maxDuration(Duration.ofMinutes(10)).build()));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(40).start("A-1 を調べて返金して", "run-long");
            // refused in the first execution: still listed by the last one
            String other = "0".repeat(64);
            server.client().newWorkflowStub(AgentWorkflow.class, "run-long").decide(ApprovalSignal.approve(other, "mallory"));
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            List<ApprovalRequest> pending = run.pendingApprovals();
            assertThat(pending).singleElement().satisfies(r -> assertThat(r.tool()).isEqualTo("refund"));

            run.approve(pending.get(0).actionHash(), "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("A-1 を返金しました。");
            assertThat(result.runId()).isEqualTo("run-long");
            assertThat(result.steps()).isEqualTo(12);
            assertThat(ledger.charges).hasSize(1);
            assertThat(keys).singleElement().asString().startsWith("run-long:11:");
            assertThat(trace.events(TraceEvent.RunStarted.class)).hasSize(1);
            assertThat(trace.events(TraceEvent.RunFinished.class)).hasSize(1);
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).hasSize(1);

            // the last execution of the workflow id was continued from an earlier one, and its history stayed short
            WorkflowExecutionHistory last = server.client().fetchHistory("run-long");
            HistoryEvent first = last.getEvents().get(0);
            assertThat(first.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId()).isNotEmpty();
            assertThat(last.getEvents().size()).isLessThan(120);
            assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(run.refusedDecisions()).singleElement().asString().startsWith(other);
        }
    }

    /**
     * A continued execution's input carries the run's state, not its goal: the goal is in the run's snapshot once the run
     * has begun, and a goal near the 2 MB that start takes (Temporal's limit.blobSize.error) carried again with that
     * state made the ContinueAsNew command's input larger than Temporal takes, so such a run could not continue as new.
     */
    @Test
    void aContinuedExecutionsInputDoesNotCarryTheGoalAgain() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(lookupsThenRefundThenAnswer(3), new RecordingListener(), Orders.lookup(),
                Orders.refund(ledger, key -> {})).budget(Budget.builder().maxSteps(20).maxDuration(Duration.ofMinutes(10)).build()));
        // 1,620,011 bytes of UTF-8: under the 2 MB start refuses past, so start takes it
        String goal = "A-1 を返金して。" + "配達状況を調べて。".repeat(60_000);
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(40).start(goal, "run-long-goal");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("A-1 を返金しました。");
            assertThat(result.history().get(0).text()).isEqualTo(goal);
            HistoryEvent first = server.client().fetchHistory("run-long-goal").getEvents().get(0);
            assertThat(first.getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId()).isNotEmpty();
            assertThat(first.getWorkflowExecutionStartedEventAttributes().getInput().getSerializedSize())
                    .as("the continued execution's input, in bytes").isLessThan(64 * 1024);
        }
    }

    /**
     * A pause whose history grows long while it waits (a sender repeating refused decisions, each a signal and a
     * workflow task in the history) continues as new within the pause: the run still waits, lists its pending action
     * and its refusals, and goes on with the decision sent to the new execution; the pause is traced once.
     */
    @Test
    void aPauseWhoseHistoryGrowsLongWithRefusedSignalsContinuesAsNewAndStillWaits() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.lookup(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(80).start("A-1 を返金して", "run-long-pause");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            AgentWorkflow stub = server.client().newWorkflowStub(AgentWorkflow.class, "run-long-pause");
            for (int i = 0; i < 60; i++) {
                stub.decide(ApprovalSignal.approve(String.format("%064x", i), "mallory"));
            }
            // the pause went on in a fresh history
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.client().fetchHistory("run-long-pause").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty()
                    && System.nanoTime() < until) {
                sleep();
            }
            assertThat(server.client().fetchHistory("run-long-pause").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId()).isNotEmpty();
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            // Temporal describes the new execution as one continued from the run's first (which TemporalRun relies on)
            var info = server.client().newUntypedWorkflowStub("run-long-pause").describe().getRawDescription()
                    .getWorkflowExecutionInfo();
            assertThat(info.getFirstRunId()).isNotEmpty().isNotEqualTo(info.getExecution().getRunId());
            assertThat(run.refusedDecisions()).hasSize(60);
            List<ApprovalRequest> pending = run.pendingApprovals();
            assertThat(pending).singleElement().satisfies(r -> assertThat(r.tool()).isEqualTo("refund"));

            run.approve(pending.get(0).actionHash(), "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("A-1 refunded.");
            assertThat(ledger.charges).hasSize(1);
            assertThat(trace.events(TraceEvent.ApprovalRequested.class)).hasSize(1);
            assertThat(trace.events(TraceEvent.StateChanged.class)).filteredOn(c -> c.to() == RunStatus.WAITING_APPROVAL).hasSize(1);
            assertThat(trace.events(TraceEvent.RunResumed.class)).hasSize(1);
            assertThat(trace.events(TraceEvent.RunFinished.class)).hasSize(1);
        }
    }

    /**
     * Temporal hands a signal that came with an execution's start to the workflow before its workflow method runs: a
     * decision sent just as a pause continued as new reaches the new execution that way. It is heard (the carried state
     * is restored before any signal), where it was refused as "the run has not started yet" and the run waited on.
     */
    @Test
    void aDecisionDeliveredWithTheStartOfAContinuedPauseIsHeard() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.lookup(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient agents = server.start(agent).withHistoryLimit(80);
            TemporalRun run = agents.start("A-1 を返金して", "run-pause-signal");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            AgentWorkflow stub = server.client().newWorkflowStub(AgentWorkflow.class, "run-pause-signal");
            for (int i = 0; i < 60; i++) {
                stub.decide(ApprovalSignal.approve(String.format("%064x", i), "mallory"));
            }
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.client().fetchHistory("run-pause-signal").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty()
                    && System.nanoTime() < until) {
                sleep();
            }
            String hash = run.pendingApprovals().get(0).actionHash();
            // the continued execution's input (the pause carried), started again under another id with the decision
            io.temporal.api.common.v1.Payloads carried = server.client().fetchHistory("run-pause-signal").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getInput();
            RunInput input = TemporalAgents.dataConverter().fromPayloads(0, java.util.Optional.of(carried), RunInput.class,
                    RunInput.class);
            assertThat(input.carried().paused()).isNotNull();
            server.client().newUntypedWorkflowStub("ReinAgentRun", io.temporal.client.WorkflowOptions.newBuilder()
                            .setTaskQueue(TemporalTestServer.QUEUE).setWorkflowId("run-pause-signal-2").build())
                    .signalWithStart("decide", new Object[] {ApprovalSignal.approve(hash, "alice")}, new Object[] {input});
            TemporalRun second = agents.attach("run-pause-signal-2");

            until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!second.status().terminal() && System.nanoTime() < until) {
                sleep();
            }

            assertThat(second.refusedDecisions()).noneSatisfy(r -> assertThat(r).startsWith(hash));
            assertThat(second.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
            // replayed as a worker replays it (the workflow made from its input, before the signal): heard again
            DeterminismTest.replay(server.client().fetchHistory("run-pause-signal-2"));
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A cancel reaches the execution the run continued in: it ends CANCELLED with its result, the refund never run. */
    @Test
    void aRunThatContinuedAsNewIsCancelledByItsRunId() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(lookupsThenRefundThenAnswer(4), trace, Orders.lookup(),
                Orders.refund(ledger, key -> {})).budget(Budget.builder().maxSteps(20).maxDuration(Duration.ofMinutes(10)).build()));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(30).start("A-1 を返金して", "run-long-cancel");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);

            run.cancel();
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(result.steps()).isEqualTo(5);
            assertThat(ledger.charges).isEmpty();
            assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.status()).isEqualTo(RunStatus.CANCELLED));
            assertThat(server.client().fetchHistory("run-long-cancel").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId()).isNotEmpty();
        }
    }

    /**
     * The smallest history limit the client takes (1) still lets a run go on, a step per execution: a continued
     * execution's history is longer than that from its start, and continuing as new before it had done anything
     * started executions without end (the run never took another step), in a pause too.
     */
    @Test
    void aRunWithTheSmallestHistoryLimitStillGoesOnAStepAtATimeAndWaitsInItsPause() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(lookupsThenRefundThenAnswer(2), new RecordingListener(), Orders.lookup(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(1).start("A-1 を返金して", "run-tiny-limit");
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (run.status() != RunStatus.WAITING_APPROVAL && !run.status().terminal() && System.nanoTime() < until) {
                sleep();
            }
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            // nothing comes, so the pause stays in one execution (the one it continued in once its step's was long)
            Thread.sleep(500);
            String waitingIn = newestExecution(server, "run-tiny-limit");
            Thread.sleep(1_000);
            assertThat(newestExecution(server, "run-tiny-limit")).isEqualTo(waitingIn);

            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            RunResult result = TemporalTestServer.resultPolled(run, Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.steps()).isEqualTo(4);
            assertThat(ledger.charges).hasSize(1);
        }
    }

    private static String newestExecution(TemporalTestServer server, String workflowId) {
        io.temporal.client.WorkflowClient client = server.client();
        return client.getWorkflowServiceStubs().blockingStub().describeWorkflowExecution(
                io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest.newBuilder()
                        .setNamespace(client.getOptions().getNamespace())
                        .setExecution(io.temporal.api.common.v1.WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                        .build()).getWorkflowExecutionInfo().getExecution().getRunId();
    }

    @Test
    void aHistoryLimitOutsideWhatTemporalKeepsIsRefused() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            assertThatThrownBy(() -> client.withHistoryLimit(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("history limit");
            assertThatThrownBy(() -> client.withHistoryLimit(51_200)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("51,200");
        }
    }
}
