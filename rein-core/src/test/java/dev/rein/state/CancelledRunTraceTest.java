package dev.rein.state;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run cancelled through {@link Runs#cancel} (a person, another process) records the transition in the run's stored
 * trace, as every other end of a run does (SPEC M13: every state transition): before, the stored trace ended at the
 * pause (its state_change to WAITING_APPROVAL and run_finished), and rein show / a replay saw no cancellation.
 */
class CancelledRunTraceTest {
    @Test
    void aPausedRunCancelledByAPersonEndsItsStoredTraceWithTheCancellation() {
        InMemoryRunStore store = new InMemoryRunStore();
        Tool refund = Tool.builder("refund").description("Refunds.").risk(Risk.WRITE).handler((args, ctx) -> "refunded").build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{}")), text("done")))
                .tools(refund).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).store(store).build();
        RunResult paused = agent.run("返金して");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        agent.runs().cancel(paused.runId(), "もう不要です");

        List<StoredEvent> events = store.events(paused.runId());
        StoredEvent changed = events.get(events.size() - 2);
        StoredEvent finished = events.get(events.size() - 1);
        assertThat(changed.type()).isEqualTo("state_change");
        assertThat(Json.parse(changed.json()).path("from").asText()).isEqualTo("WAITING_APPROVAL");
        assertThat(Json.parse(changed.json()).path("to").asText()).isEqualTo("CANCELLED");
        assertThat(Json.parse(changed.json()).path("reason").asText()).isEqualTo("cancelled");
        assertThat(finished.type()).isEqualTo("run_finished");
        assertThat(Json.parse(finished.json()).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(Json.parse(finished.json()).path("message").asText()).isEqualTo("もう不要です");
        assertThat(finished.step()).isEqualTo(paused.steps());
    }
}
