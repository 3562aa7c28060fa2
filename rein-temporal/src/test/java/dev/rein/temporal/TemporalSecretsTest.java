package dev.rein.temporal;

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
}
