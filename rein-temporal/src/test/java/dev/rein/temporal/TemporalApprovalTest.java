package dev.rein.temporal;

import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.temporal.internal.AgentWorkflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalRequest;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemporalApprovalTest {
    @Test
    void anApprovalSignalAfterAThreeDayWaitResumesTheRunAndAnotherHashIsRefused() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-approval");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            List<ApprovalRequest> pending = run.pendingApprovals();
            assertThat(pending).singleElement().satisfies(r -> assertThat(r.tool()).isEqualTo("refund"));
            assertThat(ledger.charges).isEmpty();

            server.env.sleep(Duration.ofDays(3));
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);

            String other = "0".repeat(64);
            assertThatThrownBy(() -> run.approve(other, "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("no pending action with hash " + other);
            // sent directly, past the handle's check: the workflow refuses it too
            server.client().newWorkflowStub(AgentWorkflow.class, "run-approval").decide(ApprovalSignal.approve(other, "mallory"));
            assertThat(run.refusedDecisions()).singleElement().asString().contains(other);
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);

            run.approve(pending.get(0).actionHash(), "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("A-1 refunded.");
            assertThat(ledger.charges).hasSize(1);
            // the budget's deadline (10 minutes) counts running time only: three days of waiting are excluded
            assertThat(result.duration()).isLessThan(Duration.ofMinutes(10));
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement()
                    .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("alice"));
            // approving again (a second click, a retried script) says why, as a local run's Runs.approve does
            assertThatThrownBy(() -> run.approve(pending.get(0).actionHash(), "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("run-approval is SUCCEEDED, not waiting for approval");
        }
    }

    @Test
    void cancellingAWaitingRunEndsItCancelledAndThePendingActionNeverRuns() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-cancel");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);

            run.cancel();
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(result.reason()).isEqualTo("cancelled");
            assertThat(ledger.charges).isEmpty();
            // the agent's listeners see the paused run end (rein-otel: its stop metric and a span), as agent.runs().cancel's do
            assertThat(trace.events(TraceEvent.RunFinished.class)).last().satisfies(end -> {
                assertThat(end.status()).isEqualTo(RunStatus.CANCELLED);
                assertThat(end.reason()).isEqualTo("cancelled");
            });
        }
    }

    /**
     * A decision taken on a pause the run never resumed from (a second action still waited when the run was cancelled)
     * is traced before the run's end, as agent.runs().cancel tells a local run's listeners of the decisions made on the
     * pause it ends: before, the listeners never heard of it (no approval_decided in the trace, the OpenTelemetry span
     * without the decision), although the person's rejection, with its reason, was part of the run.
     */
    @Test
    void aDecisionTakenBeforeTheRunWasCancelledIsTracedBeforeItsEnd() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("refund", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-2\"}")),
                ScriptedModel.text("done"));
        // each activity makes its own listeners: the one that hears the end must hear the decisions too (a span begun
        // for the decisions alone, on a listener of their own, would never end)
        List<RecordingListener> made = new java.util.concurrent.CopyOnWriteArrayList<>();
        Agent agent = Orders.withApproval(Orders.agent(model, trace, Orders.refund(ledger, key -> {}))).withListener(runId -> {
            RecordingListener listener = new RecordingListener();
            made.add(listener);
            return listener;
        });
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 と A-2 を返金して", "run-decided-then-cancelled");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            List<ApprovalRequest> pending = run.pendingApprovals();
            assertThat(pending).hasSize(2);
            run.reject(pending.get(0).actionHash(), "二重返金です", "佐藤");
            awaitPending(run, 1);

            run.cancel();
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(ledger.charges).isEmpty();
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement().satisfies(d -> {
                assertThat(d.decision()).isEqualTo("reject");
                assertThat(d.actionHash()).isEqualTo(pending.get(0).actionHash());
                assertThat(d.reason()).isEqualTo("二重返金です");
                assertThat(d.decidedBy()).isEqualTo("佐藤");
                assertThat(d.step()).isEqualTo(result.steps());
            });
            // in the local order: the decisions, then the end (state_change to CANCELLED, run_finished)
            List<TraceEvent> events = trace.events();
            int decided = events.indexOf(trace.events(TraceEvent.ApprovalDecided.class).get(0));
            assertThat(events.subList(decided + 1, events.size())).extracting(e -> e.getClass().getSimpleName())
                    .containsExactly("StateChanged", "RunFinished");
            // the run ended from its pause, as a local cancel's end says
            assertThat(trace.events(TraceEvent.StateChanged.class).getLast().from()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(made).filteredOn(listener -> !listener.events(TraceEvent.ApprovalDecided.class).isEmpty())
                    .singleElement().satisfies(listener -> assertThat(listener.events())
                            .extracting(e -> e.getClass().getSimpleName())
                            .containsExactly("ApprovalDecided", "StateChanged", "RunFinished"));
        }
    }

    /**
     * A cancel that lands while the run tells its listeners of the resume (every pending action decided, ReinResumed
     * running): the decision is traced once. Before, the workflow left that activity for the cancel, and the run's end,
     * built from the paused run, told the decision a second time (approval_decided twice, the second from a pause the
     * run had already resumed from).
     */
    @Test
    void aCancelWhileTheResumeIsTracedTracesTheDecisionOnce() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        java.util.concurrent.CountDownLatch inResume = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch cancelSent = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        // holds the resume's activity at its first approval_decided until the cancel has reached Temporal
        dev.rein.trace.RunListener holding = new dev.rein.trace.RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.ApprovalDecided && first.getAndSet(false)) {
                    inResume.countDown();
                    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    while (System.nanoTime() < until) {
                        try {
                            if (cancelSent.await(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                                return;
                            }
                        } catch (InterruptedException e) {
                            // the activity's call interrupted for the cancel: still held, as a slow listener would be
                        }
                    }
                }
            }
        };
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {})))
                .withListener(runId -> holding);
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-cancel-during-resume");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();

            run.approve(hash, "alice");
            assertThat(inResume.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the resume was traced").isTrue();
            run.cancel();
            cancelSent.countDown();
            RunResult result = run.result(Duration.ofSeconds(120));

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement()
                    .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("alice"));
            assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(end -> assertThat(end.status()).isEqualTo(RunStatus.CANCELLED));
            // the refund never ran: the cancel came before the step after the resume
            assertThat(ledger.charges).isEmpty();
        }
    }

    /**
     * A run cancelled while it waited has no pending actions any more (the query listed the action it never ran), and
     * a late approval says the run is CANCELLED instead of Temporal's bare WorkflowNotFoundException (a signal sent to
     * the closed workflow).
     */
    @Test
    void aCancelledRunHasNoPendingActionsAndALateApprovalSaysItIsCancelled() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-cancel-late-approval");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
            // as a local run's result (pending approvals only while it waits) and its snapshot (none once ended)
            assertThat(run.result().pendingApprovals()).isEmpty();

            assertThat(run.pendingApprovals()).isEmpty();
            assertThatThrownBy(() -> run.approve(hash, "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("run-cancel-late-approval is CANCELLED, not waiting for approval");
            assertThat(ledger.charges).isEmpty();
        }
    }

    @Test
    void anEditDecisionBoundToTheActionHashResumesTheRunWithTheEditedCall() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-edit");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            ApprovalRequest pending = run.pendingApprovals().get(0);
            assertThat(pending.arguments().get("id").asText()).isEqualTo("A-1");

            ObjectNode edited = Json.object().put("id", "A-9");
            assertThatThrownBy(() -> run.edit("f".repeat(64), edited, "alice")).isInstanceOf(ApprovalException.class);
            run.edit(pending.actionHash(), edited, "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            // the edited call ran, the proposed one (traced when it passed validation, then held) did not
            assertThat(ledger.charges.values()).singleElement().asString().endsWith("for A-9");
            assertThat(trace.events(TraceEvent.ToolCalled.class)).extracting(c -> c.arguments().get("id").asText())
                    .containsExactly("A-1", "A-9");
            assertThat(trace.events(TraceEvent.ToolCompleted.class)).singleElement()
                    .satisfies(c -> assertThat(c.content()).contains("for A-9"));
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement().satisfies(d -> {
                assertThat(d.decidedBy()).isEqualTo("alice");
                assertThat(d.actionHash()).isEqualTo(pending.actionHash());
            });
            // the model is told that a person edited the call before it ran
            ToolResultBlock answer = (ToolResultBlock) result.history().get(2).content().get(0);
            assertThat(answer.content()).contains("A person edited the arguments").contains("A-9");
        }
    }

    /**
     * Japanese passes intact through every payload of a run: the run id (the workflow id, and so the idempotency key),
     * the goal, the edited arguments and the decider's name in the signal, the tool's result and the answer.
     */
    @Test
    void japaneseRunIdsGoalsAndDecisionsPassThroughTheWorkflowsPayloadsIntact() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("refund", "{\"id\":\"注文-壱\"}")),
                ScriptedModel.text("注文-弐 を返金しました。"));
        Agent agent = Orders.withApproval(Orders.agent(model, trace, Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("注文-壱 を返金して", "返金-実行-1");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            ApprovalRequest pending = run.pendingApprovals().get(0);
            assertThat(pending.arguments().get("id").asText()).isEqualTo("注文-壱");

            run.edit(pending.actionHash(), Json.object().put("id", "注文-弐"), "山田 花子");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.runId()).isEqualTo("返金-実行-1");
            assertThat(result.answer()).isEqualTo("注文-弐 を返金しました。");
            assertThat(ledger.keysSeen).singleElement().asString().startsWith("返金-実行-1:");
            assertThat(ledger.charges.values()).singleElement().asString().endsWith("for 注文-弐");
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement()
                    .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("山田 花子"));
            assertThat(result.history().get(0).content().get(0)).isInstanceOfSatisfying(dev.rein.model.TextBlock.class,
                    t -> assertThat(t.text()).contains("注文-壱 を返金して"));
        }
    }

    /**
     * Refused decisions are workflow state, carried into a continued execution and returned by every query: a sender
     * repeating bad signals (or one with a huge hash) kept growing them. The query keeps the latest 100, each cut to
     * 1,000 characters.
     */
    @Test
    void refusedDecisionsKeepTheLatestOnesEachCutToALength() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-refusals");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            AgentWorkflow stub = server.client().newWorkflowStub(AgentWorkflow.class, "run-refusals");
            for (int i = 0; i < 103; i++) {
                stub.decide(ApprovalSignal.approve("bad-" + i, "mallory"));
            }
            stub.decide(ApprovalSignal.approve("長".repeat(5000), "mallory"));
            List<String> refused = run.refusedDecisions();
            assertThat(refused).hasSize(100);
            assertThat(refused.get(0)).startsWith("bad-4:");
            assertThat(refused.get(98)).startsWith("bad-102:");
            assertThat(refused.get(99)).hasSize(1000).endsWith("…");
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        }
    }

    /**
     * Approving an action a second time while the run still waits for another one (a double click) says it was already
     * decided, as a local run's Runs.approve says, and sends nothing; the handle said the run had no pending action
     * with that hash and that an approval is bound to the exact action shown, as if the action had changed.
     */
    @Test
    void approvingAnActionAgainWhileAnotherStillWaitsSaysItWasAlreadyDecided() {
        Orders.Ledger ledger = new Orders.Ledger();
        dev.rein.testkit.ScriptedModel model = dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"A-1\"}"),
                        dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"A-2\"}")),
                dev.rein.testkit.ScriptedModel.text("A-1 と A-2 を返金しました。"));
        Agent agent = Orders.withApproval(Orders.agent(model, new RecordingListener(), Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 と A-2 を返金して", "run-approve-twice");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            List<ApprovalRequest> pending = run.pendingApprovals();
            assertThat(pending).hasSize(2);
            run.approve(pending.get(0).actionHash(), "alice");
            awaitPending(run, 1);

            assertThatThrownBy(() -> run.approve(pending.get(0).actionHash(), "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("already decided").hasMessageContaining(pending.get(1).actionHash());
            assertThat(run.refusedDecisions()).isEmpty();
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            run.approve(pending.get(1).actionHash(), "bob");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(2);
        }
    }

    /**
     * The first 12 characters of a hash, as the waiting action is shown (ApprovalRequest's text, the trace summary), are
     * answered as a local run's Runs.approve answers them: which waiting action they start and its whole hash to pass,
     * not "no pending action ... an approval is bound to the exact action shown", as if the action had changed.
     */
    @Test
    void theShortHashShownIsAnsweredWithTheWholeHashAsLocally() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-short-hash");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            ApprovalRequest request = run.pendingApprovals().get(0);
            String shown = dev.rein.approval.ActionHash.shortForm(request.actionHash());
            assertThat(request.toString()).contains(shown);

            assertThatThrownBy(() -> run.approve(shown, "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("'" + shown + "' is the start of the hash of the waiting action refund")
                    .hasMessageContaining("pass the whole hash: " + request.actionHash())
                    .hasMessageNotContaining("bound to the exact action shown");
            assertThatThrownBy(() -> run.reject(shown.toUpperCase(java.util.Locale.ROOT), "no", "alice"))
                    .isInstanceOf(ApprovalException.class).hasMessageContaining("pass the whole hash: " + request.actionHash());
            assertThat(run.refusedDecisions()).isEmpty();
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(ledger.charges).isEmpty();
            // no hash at all (a line break copied along) is answered as that, as locally, and nothing is sent
            assertThatThrownBy(() -> run.approve(request.actionHash() + "\n", "alice")).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("is not an action hash").hasMessageNotContaining("bound to the exact action shown");
            assertThat(run.refusedDecisions()).isEmpty();

            // the whole hash in upper case is the same digest: it names the action, as locally (it was "the start of the hash")
            run.approve(request.actionHash().toUpperCase(java.util.Locale.ROOT), "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    /**
     * Two refunds of one response under one id (some compatible servers repeat ids): on Temporal too each is its own
     * pending action (the later one call_0#1), each decision reaches its own call, both run, and the model gets both
     * results under the id it gave, as the local loop does (RepeatedCallIdApprovalTest).
     */
    @Test
    void callsOfOneResponseThatShareAnIdAreEachPutToAPersonAndRunOnce() {
        Orders.Ledger ledger = new Orders.Ledger();
        dev.rein.testkit.ScriptedModel model = dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.reply(
                        dev.rein.model.StopReason.TOOL_USE, dev.rein.model.Usage.ZERO,
                        new dev.rein.model.ToolUseBlock("call_0", "refund", Json.parse("{\"id\":\"A-1\"}")),
                        new dev.rein.model.ToolUseBlock("call_0", "refund", Json.parse("{\"id\":\"A-2\"}"))),
                dev.rein.testkit.ScriptedModel.text("A-1 と A-2 を返金しました。"));
        Agent agent = Orders.withApproval(Orders.agent(model, new RecordingListener(), Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 と A-2 を返金して", "run-shared-ids");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);
            List<ApprovalRequest> pending = run.pendingApprovals();
            assertThat(pending).extracting(ApprovalRequest::callId).containsExactly("call_0", "call_0#1");
            assertThat(pending).extracting(r -> r.arguments().get("id").asText()).containsExactly("A-1", "A-2");

            run.approve(pending.get(1).actionHash(), "alice");
            awaitPending(run, 1);
            run.approve(pending.get(0).actionHash(), "bob");
            RunResult result = run.result();

            assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges.values()).containsExactlyInAnyOrder("re_1 for A-1", "re_2 for A-2");
            var blocks = model.requests().get(1).messages().get(2).content();
            assertThat(blocks).extracting(b -> ((ToolResultBlock) b).toolUseId()).containsExactly("call_0", "call_0");
            assertThat(blocks).extracting(b -> ((ToolResultBlock) b).content()).allSatisfy(c -> assertThat(c).contains("re_"));
        }
    }

    /**
     * A probe of docs/temporal.md: a decision sent with the workflow's start ({@code signalWithStart}) reaches the run
     * before it has begun, so it is refused as "the run has not started yet" and not kept for the pause that follows,
     * even when it names the very action the run then waits on; the refund runs only after a decision sent then.
     */
    @Test
    void aDecisionSignalledWithTheStartIsRefusedAndNotKeptForTheLaterPause() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {})));
        String hash = dev.rein.approval.ActionHash.of("refund", Json.parse("{\"id\":\"A-1\"}"));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient agents = server.start(agent);
            var config = agent.config();
            dev.rein.temporal.internal.RunInput input = new dev.rein.temporal.internal.RunInput("A-1 を返金して",
                    config.modelName(), config.budget(), config.prices().entries(), config.maxTokens(),
                    config.maxVerificationFailures(), dev.rein.agent.DrivenRun.MAX_EMPTY_NUDGES,
                    TemporalAgentClient.DEFAULT_ATTEMPT_TIMEOUT, config.retryPolicy().maxRetries(),
                    config.retryPolicy().initialDelay(), config.retryPolicy().maxDelay());
            server.client().newUntypedWorkflowStub("ReinAgentRun", io.temporal.client.WorkflowOptions.newBuilder()
                            .setTaskQueue(TemporalTestServer.QUEUE).setWorkflowId("run-signal-with-start").build())
                    .signalWithStart("decide", new Object[] {ApprovalSignal.approve(hash, "alice")}, new Object[] {input});
            TemporalRun run = agents.attach("run-signal-with-start");
            awaitStatus(run, RunStatus.WAITING_APPROVAL);

            assertThat(run.pendingApprovals()).singleElement().satisfies(r -> assertThat(r.actionHash()).isEqualTo(hash));
            assertThat(run.refusedDecisions()).containsExactly(hash + ": the run has not started yet");
            assertThat(ledger.charges).isEmpty();

            run.approve(hash, "bob");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
            assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement()
                    .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("bob"));
        }
    }

    private static void awaitPending(TemporalRun run, int count) {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (run.pendingApprovals().size() != count) {
            if (System.nanoTime() > until) {
                throw new AssertionError("run " + run.runId() + " does not have " + count + " pending actions");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    static void awaitStatus(TemporalRun run, RunStatus status) {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (run.status() != status) {
            if (System.nanoTime() > until) {
                throw new AssertionError("run " + run.runId() + " did not reach " + status + "; it is " + run.status());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

}
