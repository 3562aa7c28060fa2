package dev.rein.temporal;

import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.temporal.internal.AgentWorkflow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.tool.Secrets;
import io.temporal.api.history.v1.HistoryEvent;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The workflow history is the run's record on Temporal: a registered secret in what a client sends
 * (the goal, a rejection reason, edited arguments) is masked before it is sent, as a local run masks
 * it before it keeps it.
 */
class TemporalSecretsTest {
    static final String KEY = "sk-live-9f8e7d6c5b4a";

    /** The types of the history's events that carry the secret (in a payload; ASCII shows as it is). */
    static String eventsCarryingTheKey(TemporalTestServer server, String runId) {
        StringBuilder out = new StringBuilder();
        for (HistoryEvent e : server.client().fetchHistory(runId).getEvents()) {
            if (e.toString().contains(KEY)) {
                out.append(e.getEventType()).append('\n');
            }
        }
        return out.toString();
    }

    @Test
    void aSecretInTheGoalOrARejectionReasonIsNotInTheWorkflowHistory() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})).secrets(Secrets.of(Map.of("api_key", KEY))));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して (key " + KEY + ")", "run-secret");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.reject(run.pendingApprovals().get(0).actionHash(), "no: " + KEY, "alice");
            RunResult result = run.result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(eventsCarryingTheKey(server, "run-secret")).isEmpty();
            // the model is told the reason, masked
            assertThat(((dev.rein.model.ToolResultBlock) result.history().get(2).content().get(0)).content())
                    .contains("no: [REDACTED:api_key]");
        }
    }

    @Test
    void aSecretInEditedArgumentsIsMaskedBeforeTheSignalAndTheActionRunsMasked() {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})).secrets(Secrets.of(Map.of("api_key", KEY))));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-secret-edit");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.edit(run.pendingApprovals().get(0).actionHash(), dev.rein.json.Json.object().put("id", "A-9 " + KEY), "alice");
            RunResult result;
            try {
                result = run.result(Duration.ofSeconds(120));
            } catch (TimeoutException e) {
                throw new AssertionError("the run did not end after the edit; it is " + run.status(), e);
            }

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(ledger.charges.values()).singleElement().asString().endsWith("for A-9 [REDACTED:api_key]");
            assertThat(eventsCarryingTheKey(server, "run-secret-edit")).isEmpty();
        }
    }

    /**
     * Edited arguments sent around the handle with a secret in them run masked, which is another
     * action than the one decided: the run asks again for the action that would really run, as a
     * local run does (an approval_mismatch), instead of taking the old decision for the new request
     * and running the step again without end.
     */
    @Test
    void anEditThatRunsAsAnotherActionIsAskedForAgain() throws TimeoutException {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {})).secrets(Secrets.of(Map.of("api_key", KEY))));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-edit-raw");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            String first = run.pendingApprovals().get(0).actionHash();
            server.client().newWorkflowStub(AgentWorkflow.class, "run-edit-raw")
                    .decide(ApprovalSignal.edit(first, dev.rein.json.Json.object().put("id", "A-9 " + KEY), "bob"));

            dev.rein.approval.ApprovalRequest again = awaitAnotherRequest(run, first);
            assertThat(again.arguments().get("id").asText()).isEqualTo("A-9 [REDACTED:api_key]");
            assertThat(ledger.charges).isEmpty();
            run.cancel();

            assertThat(run.result(Duration.ofSeconds(60)).status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(ledger.charges).isEmpty();
        }
    }

    /**
     * A secret that reaches the run from the model (its text, a call's arguments) or from a tool's
     * output is masked in the activities, before their results become payloads: no event of the
     * history carries it, the pending approval included.
     */
    @Test
    void aSecretFromTheModelOrAToolIsNotInTheWorkflowHistory() {
        Orders.Ledger ledger = new Orders.Ledger();
        dev.rein.tool.Tool leaky = dev.rein.tool.Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(dev.rein.tool.Risk.READ).handler((args, ctx) -> "order A-1, token " + KEY).build();
        dev.rein.testkit.ScriptedModel model = dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"A-1 " + KEY + "\"}")),
                dev.rein.testkit.ScriptedModel.text("返金しました (" + KEY + ")"));
        Agent agent = Orders.withApproval(Orders.agent(model, new RecordingListener(), leaky, Orders.refund(ledger, key -> {}))
                .secrets(Secrets.of(Map.of("api_key", KEY))));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-secret-model");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            assertThat(run.pendingApprovals().get(0).arguments().toString()).doesNotContain(KEY);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.answer()).isEqualTo("返金しました ([REDACTED:api_key])");
            assertThat(eventsCarryingTheKey(server, "run-secret-model")).isEmpty();
        }
    }

    /**
     * An application's code that fails with a secret in its message (here a verifier) ends the run FAILED with the
     * message masked, as locally; the activity's failure, which Temporal keeps in the history, and the input of the
     * activity that ends the run carried the secret in clear.
     */
    @Test
    void aSecretInTheMessageOfAFailingActivityIsNotInTheWorkflowHistory() {
        dev.rein.run.Verifier broken = answer -> {
            throw new IllegalStateException("検証が壊れた: token " + KEY);
        };
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).verifier(broken)
                .secrets(Secrets.of(Map.of("api_key", KEY))).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-secret-failure").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("internal_error");
            assertThat(result.message()).contains("検証が壊れた: token [REDACTED:api_key]").doesNotContain(KEY);
            assertThat(eventsCarryingTheKey(server, "run-secret-failure")).isEmpty();
        }
    }

    private static dev.rein.approval.ApprovalRequest awaitAnotherRequest(TemporalRun run, String hash) {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < until) {
            var pending = run.pendingApprovals();
            if (run.status() == RunStatus.WAITING_APPROVAL && pending.size() == 1 && !pending.get(0).actionHash().equals(hash)) {
                return pending.get(0);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("the run did not ask again; it is " + run.status() + " with " + run.pendingApprovals());
    }
}
