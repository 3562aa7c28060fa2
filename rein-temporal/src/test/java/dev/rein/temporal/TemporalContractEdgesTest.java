package dev.rein.temporal;

import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.temporal.internal.AgentWorkflow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Edges of the contract an experienced Temporal user tries: early cancel, reject, raw signals, bad goals. */
class TemporalContractEdgesTest {
    /** A cancel that reaches the workflow before its first activity still ends the run CANCELLED, not FAILED. */
    @Test
    void aRunCancelledBeforeItsFirstActivityEndsCancelled() throws TimeoutException {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.worker(worker, agent);
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent).start("A-1?", "run-early-cancel");
            run.cancel();
            server.env.start();
            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(result.reason()).isEqualTo("cancelled");
            assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
        }
    }

    /**
     * A workflow terminated from outside Rein (the Temporal CLI or UI) ends without a Rein result: result() says so
     * in Rein's terms, with the termination's reason, and status() no longer answers from the replayed state (which
     * would still say WAITING_APPROVAL) but FAILED, since the run is over and did not succeed.
     */
    @Test
    void aWorkflowTerminatedOutsideReinSaysSoInsteadOfTemporalsException() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-terminated");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.stub().terminate("運用者が停止");

            assertThatThrownBy(run::result).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("run-terminated").hasMessageContaining("terminated")
                    .hasMessageContaining("運用者が停止").hasMessageContaining("no result");
            assertThatThrownBy(() -> run.result(Duration.ofSeconds(10))).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("terminated");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.pendingApprovals()).isEmpty();
            assertThat(ledger.charges).isEmpty();
        }
    }

    /** The README allows a budget without a time limit (maxDuration null); the workflow then has no deadline. */
    @Test
    void aRunWithoutATimeLimitRunsToItsAnswer() throws TimeoutException {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-no-time-limit").result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    /**
     * A time limit longer than Temporal can set as an activity timeout (over 10,000 years), up to Budget.LONGEST_DURATION,
     * which the budget allows, runs as locally: the workflow computed its activities' timeouts from the time left (an
     * ArithmeticException at Long.MAX_VALUE milliseconds, a protobuf Duration out of range past 10,000 years), failed
     * every workflow task, and the run never started.
     */
    @Test
    void aTimeLimitLongerThanTemporalCanSetRunsToItsAnswer() throws TimeoutException {
        for (Duration limit : java.util.List.of(dev.rein.budget.Budget.LONGEST_DURATION, Duration.ofDays(365L * 20_000))) {
            Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                    .budget(dev.rein.budget.Budget.builder().maxDuration(limit).build()).build();
            try (TemporalTestServer server = new TemporalTestServer()) {
                RunResult result = server.start(agent).start("A-1?", "run-long-limit").result(Duration.ofSeconds(60));

                assertThat(result.status()).as("maxDuration %s", limit).isEqualTo(RunStatus.SUCCEEDED);
            }
        }
    }

    /**
     * An attempt timeout longer than Temporal can set as a heartbeat timeout (over 10,000 years: a user's "never take a
     * worker for dead"), which withAttemptTimeout takes, runs to its answer with every activity's attempt counted as
     * the 365 days of a run without a time limit: the workflow set it as each activity's heartbeat timeout (a protobuf
     * Duration out of range, an ArithmeticException past Long.MAX_VALUE seconds when tripled), failed every workflow
     * task, and the run never started (result(timeout) timed out).
     */
    @Test
    void anAttemptTimeoutLongerThanTemporalCanSetRunsToItsAnswer() throws TimeoutException {
        for (Duration attempt : java.util.List.of(Duration.ofDays(365L * 20_000), Duration.ofSeconds(Long.MAX_VALUE / 2),
                Duration.ofSeconds(Long.MAX_VALUE))) {
            Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
            try (TemporalTestServer server = new TemporalTestServer()) {
                RunResult result = server.start(agent).withAttemptTimeout(attempt).start("A-1?", "run-long-attempt")
                        .result(Duration.ofSeconds(30));

                assertThat(result.status()).as("attempt timeout %s", attempt).isEqualTo(RunStatus.SUCCEEDED);
            }
        }
    }

    /**
     * An attempt timeout shorter than a second is refused, saying why and what to set, where it was taken and a live
     * worker's calls were taken for a dead worker's: its heartbeats (every third of the timeout, at least 100 ms
     * apart, and throttled by the SDK) came too late, so a model call of 1.5 s with a timeout of 50 ms was made
     * again (the scripted model was asked twice, the run FAILED), and a tool call would have been delivered again.
     */
    @Test
    void anAttemptTimeoutUnderASecondIsRefusedSinceHeartbeatsCannotKeepUp() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            for (Duration tooShort : java.util.List.of(Duration.ofMillis(50), Duration.ofMillis(999))) {
                assertThatThrownBy(() -> client.withAttemptTimeout(tooShort)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("at least 1 second").hasMessageContaining(tooShort.toString());
            }
            assertThat(client.withAttemptTimeout(Duration.ofSeconds(1))).isNotNull();
        }
    }

    /**
     * Retry policies the agent takes, and a local run uses, that Temporal's retry options could not be set from run to
     * their answer on Temporal too: no limit on retries (Integer.MAX_VALUE, whose attempts overflowed when the lost
     * workers were added), a first delay longer than the longest (RetryPolicy does not order them; Temporal refuses an
     * initial interval over the maximum one) and delays past 10,000 years. The workflow failed every workflow task.
     */
    @Test
    void retryPoliciesALocalRunTakesRunToTheirAnswer() {
        java.util.List<String> stuck = new java.util.ArrayList<>();
        for (dev.rein.retry.RetryPolicy policy : java.util.List.of(
                new dev.rein.retry.RetryPolicy(Integer.MAX_VALUE, Duration.ofMillis(10), Duration.ofSeconds(1), 0),
                new dev.rein.retry.RetryPolicy(2, Duration.ofMinutes(5), Duration.ofSeconds(30), 0),
                new dev.rein.retry.RetryPolicy(2, Duration.ofDays(365L * 20_000), Duration.ofDays(365L * 20_000), 0),
                new dev.rein.retry.RetryPolicy(2, Duration.ofSeconds(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE), 0))) {
            Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).retryPolicy(policy).build();
            try (TemporalTestServer server = new TemporalTestServer()) {
                RunResult result = server.start(agent).start("A-1?", "run-retry-policy").result(Duration.ofSeconds(20));
                if (result.status() != RunStatus.SUCCEEDED) {
                    stuck.add(policy + ": " + result.status());
                }
            } catch (TimeoutException e) {
                stuck.add(policy + ": never ended");
            }
        }
        assertThat(stuck).isEmpty();
    }

    /**
     * What docs/temporal.md says the agent's RunStore holds of a run on Temporal: the idempotency records of its tool
     * calls, and neither a snapshot nor trace events (agent.runs().show, rein show and rein runs do not know the run);
     * the trace reaches the agent's listeners, and the result is TemporalRun.result() (probe).
     */
    @Test
    void theAgentsStoreKeepsOnlyTheIdempotencyRecordsOfARunOnTemporal() throws TimeoutException {
        Orders.Ledger ledger = new Orders.Ledger();
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(Orders.refundThenAnswer(), trace, Orders.refund(ledger, key -> {}))
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).store(store).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1 を返金して", "run-store").result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(store.idempotency("run-store:1:0")).isPresent();
            assertThat(store.load("run-store")).isEmpty();
            assertThat(store.events("run-store")).isEmpty();
            assertThat(agent.runs().find("run-store")).isEmpty();
            assertThat(trace.events(dev.rein.trace.TraceEvent.RunFinished.class)).hasSize(1);
        }
    }

    /**
     * attach with no run id (null, empty: an id read from an empty form field) says so in Rein's terms when it is
     * called, as start does for an empty id, where each later call threw Temporal's IllegalArgumentException
     * ('workflowId is null or empty') or a bare NullPointerException (result(), cancel()).
     */
    @Test
    void attachingWithoutARunIdSaysSo() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            for (String id : new String[] {null, "", "  "}) {
                assertThatThrownBy(() -> client.attach(id)).as("id %s", id).isInstanceOf(dev.rein.ReinException.class)
                        .hasMessageContaining("run id is empty").hasMessageContaining("start");
            }
        }
    }

    /**
     * cancel() of a run that has ended does nothing, as a local RunHandle.cancel() (docs/temporal.md): the result stays
     * the run's own, and a second cancel() of a cancelled run does nothing either.
     */
    @Test
    void cancellingARunThatHasEndedDoesNothing() throws TimeoutException {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            TemporalRun run = client.start("A-1?", "run-cancel-after-end");
            assertThat(run.result(Duration.ofSeconds(60)).status()).isEqualTo(RunStatus.SUCCEEDED);

            run.cancel();
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    /** A rejection by signal: the refund never runs, the model is told the reason, and the run goes on to its answer. */
    @Test
    void aRejectionSignalResumesTheRunWithoutTheActionAndTellsTheModelWhy() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-reject");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            server.env.sleep(Duration.ofDays(2));
            run.reject(run.pendingApprovals().get(0).actionHash(), "返金は不要です", "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).isEmpty();
            ToolResultBlock answer = (ToolResultBlock) result.history().get(2).content().get(0);
            assertThat(answer.content()).contains("返金は不要です");
        }
    }

    /**
     * A decision sent around the handle (the Temporal CLI, another SDK) that is malformed — an edit
     * without arguments, an unknown decision — is refused with the reason; the run keeps waiting and
     * a good decision still resumes it.
     */
    @Test
    void aMalformedRawDecisionIsRefusedAndTheRunKeepsWaiting() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-raw-signal");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            AgentWorkflow raw = server.client().newWorkflowStub(AgentWorkflow.class, "run-raw-signal");
            raw.decide(new ApprovalSignal("edit", hash, null, null, "bob"));
            raw.decide(new ApprovalSignal("allow", hash, null, null, "bob"));

            assertThat(run.refusedDecisions()).hasSize(2).anySatisfy(r -> assertThat(r).contains("arguments"))
                    .anySatisfy(r -> assertThat(r).contains("unknown decision 'allow'"));
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(run.pendingApprovals()).singleElement().satisfies(r -> assertThat(r.actionHash()).isEqualTo(hash));
            run.approve(hash, "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
        }
    }

    /**
     * A decision sent around the handle (the Temporal CLI: {@code temporal workflow signal --name decide --input ...})
     * that lacks its decision or its action hash, or names the hash in another spelling (actionHash for action_hash), is
     * refused and listed by refusedDecisions saying which field is missing, as other malformed decisions are, where
     * Temporal dropped it without a word; the run keeps waiting.
     */
    @Test
    void aRawDecisionWithoutItsDecisionOrHashIsRefusedSayingWhichFieldIsMissing() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-raw-fields");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            io.temporal.client.WorkflowStub raw = server.client().newUntypedWorkflowStub("run-raw-fields");
            // the fields are snake_case on the wire: a camelCase hash is no hash
            raw.signal("decide", java.util.Map.of("decision", "approve", "actionHash", hash, "decidedBy", "bob"));
            raw.signal("decide", java.util.Map.of("action_hash", hash, "decided_by", "bob"));

            long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
            while (run.refusedDecisions().size() < 2 && System.nanoTime() < until) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            assertThat(run.refusedDecisions()).hasSize(2)
                    .anySatisfy(r -> assertThat(r).contains("no action_hash").contains("'action_hash' field").contains("pendingApprovals"))
                    .anySatisfy(r -> assertThat(r).contains("decision").contains("approve, reject or edit"));
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            run.approve(hash, "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
        }
    }

    /**
     * A decision sent around the handle without decided_by (the Temporal CLI) is carried out, recorded as made by
     * ApprovalDecision.NOT_RECORDED: the decision record refuses no name, and the workflow's signal handler let that
     * refusal fail every workflow task, so the run was stuck for good.
     */
    @Test
    void aRawDecisionWithoutWhoMadeItIsCarriedOutAsMadeByNoRecordedName() {
        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener listener = new RecordingListener();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), listener, Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-raw-nameless");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            server.client().newUntypedWorkflowStub("run-raw-nameless").signal("decide",
                    java.util.Map.of("decision", "approve", "action_hash", hash));

            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
            assertThat(run.refusedDecisions()).isEmpty();
            assertThat(listener.events()).filteredOn(e -> e instanceof dev.rein.trace.TraceEvent.ApprovalDecided).singleElement()
                    .satisfies(e -> assertThat(((dev.rein.trace.TraceEvent.ApprovalDecided) e).decidedBy())
                            .isEqualTo(dev.rein.approval.ApprovalDecision.NOT_RECORDED));
        }
    }

    /**
     * A decide signal sent with no input (the Temporal CLI without --input, or with --input null) is refused and listed by
     * refusedDecisions saying to send one JSON object, and the run keeps waiting for a good decision; the workflow's signal
     * handler threw a NullPointerException, which failed every workflow task from then on, so the run was stuck for good
     * (its queries said no worker answered, and a later approval was never acted on).
     */
    @Test
    void aDecideSignalWithoutInputIsRefusedAndTheRunStillTakesAGoodDecision() throws TimeoutException {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-raw-no-input");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            io.temporal.client.WorkflowStub raw = server.client().newUntypedWorkflowStub("run-raw-no-input");
            raw.signal("decide");
            raw.signal("decide", (Object) null);

            awaitRefused(run, 2);
            assertThat(run.refusedDecisions()).hasSize(2).allSatisfy(r -> assertThat(r).contains("no input")
                    .contains("one JSON object").contains("action_hash"));
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            run.approve(hash, "alice");
            assertThat(run.result(Duration.ofSeconds(60)).status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
        }
    }

    /**
     * A decide signal whose input is not one JSON object (the Temporal CLI with --input '"approve"', a JSON array of the
     * fields) or has a field of the wrong kind (an object for action_hash) is refused and listed by refusedDecisions saying
     * what was sent, and the run keeps waiting; Temporal could not read it as a decision and dropped it without a word.
     */
    @Test
    void aDecideSignalThatIsNoJsonObjectIsRefusedSayingWhatWasSent() throws TimeoutException {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-raw-not-object");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();
            io.temporal.client.WorkflowStub raw = server.client().newUntypedWorkflowStub("run-raw-not-object");
            raw.signal("decide", "approve");
            raw.signal("decide", java.util.List.of("approve", hash, "bob"));
            raw.signal("decide", java.util.Map.of("decision", "approve", "action_hash", java.util.Map.of("hash", hash)));

            awaitRefused(run, 3);
            assertThat(run.refusedDecisions()).hasSize(3)
                    .anySatisfy(r -> assertThat(r).contains("a string").contains("not a JSON object").contains("action_hash"))
                    .anySatisfy(r -> assertThat(r).contains("an array").contains("not a JSON object"))
                    .anySatisfy(r -> assertThat(r).contains("'action_hash' is an object").contains("not a string"));
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            run.approve(hash, "alice");
            assertThat(run.result(Duration.ofSeconds(60)).status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges).hasSize(1);
        }
    }

    static void awaitRefused(TemporalRun run, int count) {
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (run.refusedDecisions().size() < count && System.nanoTime() < until) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /**
     * Edited arguments that do not fit the tool's schema, or none at all, are refused by the handle, as a local run's
     * Runs.edit refuses them.
     */
    @Test
    void anEditThatDoesNotFitTheToolsSchemaIsRefusedBeforeItIsSent() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-bad-edit");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String hash = run.pendingApprovals().get(0).actionHash();

            assertThatThrownBy(() -> run.edit(hash, dev.rein.json.Json.object().put("order", "A-9"), "alice"))
                    .isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("the edited arguments do not fit tool 'refund'").hasMessageContaining("id");
            assertThat(run.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(run.pendingApprovals()).hasSize(1);
            // no arguments at all: said as a local Runs.edit says it, not a bare NullPointerException naming "arguments"
            assertThatThrownBy(() -> run.edit(hash, null, "alice")).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("edit(...) was given no arguments").hasMessageContaining("approve(...)");
            // no action hash: refused as a local Runs refuses it, naming what is pending, where each was a bare
            // NullPointerException naming "actionHash"
            assertThatThrownBy(() -> run.approve(null, "alice")).isInstanceOf(dev.rein.approval.ApprovalException.class)
                    .hasMessageContaining("was given no action hash").hasMessageContaining(hash);
            assertThatThrownBy(() -> run.reject(null, "no", "alice")).isInstanceOf(dev.rein.approval.ApprovalException.class)
                    .hasMessageContaining("was given no action hash");
            assertThatThrownBy(() -> run.edit(null, dev.rein.json.Json.object().put("id", "A-9"), "alice"))
                    .isInstanceOf(dev.rein.approval.ApprovalException.class).hasMessageContaining("was given no action hash");
            run.edit(hash, dev.rein.json.Json.object().put("id", "A-9"), "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges.values()).singleElement().asString().endsWith("for A-9");
        }
    }

    /** An empty goal or run id, or the id of a running run, is refused before a workflow starts, saying what to do. */
    @Test
    void anEmptyGoalOrABusyRunIdIsRefusedBeforeAnyWorkflowStarts() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            assertThatThrownBy(() -> client.start("  ", "run-empty-goal")).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("the goal is empty");
            assertThatThrownBy(() -> client.start(null, "run-null-goal")).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("the goal is empty");
            assertThatThrownBy(() -> client.start("A-1?", " ")).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("the run id is empty");
            client.start("A-1?", "run-twice");
            assertThatThrownBy(() -> client.start("A-2?", "run-twice")).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("a run with id 'run-twice' is already running").hasMessageContaining("attach(\"run-twice\")");
        }
    }

    /** A cancelled run's history replays too (the detached end after the cancel is deterministic). */
    @Test
    void aCancelledRunsHistoryReplays() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.lookup(), Orders.refund(ledger, key -> {})));
        WorkflowExecutionHistory history;
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-cancel-replay");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            server.env.sleep(Duration.ofHours(5));
            run.cancel();
            assertThat(run.result().status()).isEqualTo(RunStatus.CANCELLED);
            history = server.client().fetchHistory("run-cancel-replay");
        }
        DeterminismTest.replay(history);
    }

    /** Parallel reads and a Japanese goal and output: the history replays. */
    @Test
    void aRunWithParallelReadsReplays() throws Exception {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        WorkflowExecutionHistory history;
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1 と A-2 の状況は?", "run-parallel-replay").result();
            assertThat(result.answer()).isEqualTo("注文 A-1 と A-2 は配達済みです。");
            history = server.client().fetchHistory("run-parallel-replay");
        }
        DeterminismTest.replay(history);
    }

    /** A cancel while a tool activity is in flight ends the run CANCELLED, with its end traced. */
    @Test
    void aRunCancelledWhileAToolRunsEndsCancelled() throws Exception {
        java.util.concurrent.CountDownLatch inCall = new java.util.concurrent.CountDownLatch(1);
        dev.rein.tool.Tool slow = dev.rein.tool.Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(dev.rein.tool.Risk.READ).timeout(Duration.ofMinutes(1)).handler((args, ctx) -> {
                    inCall.countDown();
                    Thread.sleep(Duration.ofSeconds(20));
                    return "late";
                }).build();
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), trace, slow).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1?", "run-cancel-in-tool");
            assertThat(inCall.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            run.cancel();
            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(trace.events(dev.rein.trace.TraceEvent.RunFinished.class)).singleElement()
                    .satisfies(f -> assertThat(f.reason()).isEqualTo("cancelled"));
        }
    }

    /**
     * A client built without Rein's data converter is refused when the handle is made: a run it started would hang
     * on its first workflow task (the workers cannot read its input), with nothing said to the caller.
     */
    @Test
    void aClientWithoutReinsDataConverterIsRefusedSayingHowToBuildIt() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);
            io.temporal.client.WorkflowClient plain = io.temporal.client.WorkflowClient.newInstance(
                    server.env.getWorkflowServiceStubs(), io.temporal.client.WorkflowClientOptions.newBuilder().build());

            assertThatThrownBy(() -> TemporalAgents.client(plain, TemporalTestServer.QUEUE, agent))
                    .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("default data converter")
                    .hasMessageContaining("TemporalAgents.clientOptions()");
        }
    }

    /**
     * Not only Temporal's shared default converter: a client given another converter Rein's workers cannot read (a new
     * default instance, Temporal's Jackson converter with its own camelCase mapper) is refused when the handle is made,
     * where it was taken and a run it started hung on its first workflow task (result(timeout) timed out).
     */
    @Test
    void aClientWithAnotherConverterTheWorkersCannotReadIsRefused() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);
            for (io.temporal.common.converter.DataConverter foreign : java.util.List.of(
                    io.temporal.common.converter.DefaultDataConverter.newDefaultInstance(),
                    io.temporal.common.converter.DefaultDataConverter.newDefaultInstance().withPayloadConverterOverrides(
                            new io.temporal.common.converter.JacksonJsonPayloadConverter()))) {
                io.temporal.client.WorkflowClient client = io.temporal.client.WorkflowClient.newInstance(
                        server.env.getWorkflowServiceStubs(),
                        io.temporal.client.WorkflowClientOptions.newBuilder().setDataConverter(foreign).build());

                assertThatThrownBy(() -> TemporalAgents.client(client, TemporalTestServer.QUEUE, agent))
                        .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("data converter")
                        .hasMessageContaining("TemporalAgents.clientOptions()");
            }
        }
    }

    /**
     * A codec around Rein's converter (encryption, compression), which the workers' client has too, is not refused
     * with the converters the workers cannot read: its runs go to their answer (probe for the check above).
     */
    @Test
    void aClientWithACodecAroundReinsConverterRunsToItsAnswer() throws TimeoutException {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        io.temporal.common.converter.DataConverter zipped = new io.temporal.common.converter.CodecDataConverter(
                TemporalAgents.dataConverter(), java.util.List.of(new io.temporal.payload.codec.ZlibPayloadCodec()));
        try (io.temporal.testing.TestWorkflowEnvironment env = io.temporal.testing.TestWorkflowEnvironment.newInstance(
                io.temporal.testing.TestEnvironmentOptions.newBuilder().setWorkflowClientOptions(
                        TemporalAgents.clientOptions().setDataConverter(zipped).build()).build())) {
            TemporalAgents.worker(env.newWorker(TemporalTestServer.QUEUE), agent);
            env.start();
            RunResult result = TemporalAgents.client(env.getWorkflowClient(), TemporalTestServer.QUEUE, agent)
                    .start("A-1 は?", "run-zipped").result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("注文 A-1 と A-2 は配達済みです。");
        }
    }

    /**
     * The idempotency key of a call is the run id, the step and the call's index, so a second run started with the
     * id of one that ended would present the first run's keys: an idempotent tool (the Stripe-like ledger) answered
     * its refund with the first run's receipt and applied nothing. Such an id is refused, saying why, before any
     * workflow starts (Temporal's default let a closed workflow's id be used again).
     */
    @Test
    void theIdOfARunThatEndedIsRefusedSinceItsIdempotencyKeysWouldRepeat() {
        Orders.Ledger ledger = new Orders.Ledger();
        dev.rein.testkit.ScriptedModel model = dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"A-1\"}")),
                dev.rein.testkit.ScriptedModel.text("A-1 refunded."),
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"B-7\"}")),
                dev.rein.testkit.ScriptedModel.text("B-7 refunded."));
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.refund(ledger, key -> {}))
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            assertThat(client.start("A-1 を返金して", "run-reused").result().status()).isEqualTo(RunStatus.SUCCEEDED);

            assertThatThrownBy(() -> client.start("B-7 を返金して", "run-reused")).isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("run-reused").hasMessageContaining("ended")
                    .hasMessageContaining("idempotency").hasMessageContaining("another run id");
            RunResult second = client.start("B-7 を返金して", "run-reused-2").result();

            assertThat(second.answer()).isEqualTo("B-7 refunded.");
            assertThat(ledger.charges.values()).containsExactlyInAnyOrder("re_1 for A-1", "re_2 for B-7");
        }
    }
}
