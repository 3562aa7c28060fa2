package dev.rein.state;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A decision made through {@link Runs} is in the run's stored trace when it is made, not only once the run resumes:
 * before, a run cancelled after a decision never showed the decision in its trace (rein show, a replay of the store).
 */
class DecisionTraceTest {
    private static Tool refund() {
        return Tool.builder("refund").description("Refunds.").risk(Risk.WRITE).handler((args, ctx) -> "refunded").build();
    }

    private static List<JsonNode> decided(InMemoryRunStore store, String runId) {
        return store.events(runId).stream().filter(e -> e.type().equals("approval_decided")).map(e -> Json.parse(e.json()))
                .toList();
    }

    @Test
    void aDecisionIsInTheStoredTraceWhenMadeAndStaysThereWhenTheRunIsCancelled() {
        InMemoryRunStore store = new InMemoryRunStore();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-104\"}")), text("done")))
                .tools(refund()).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).store(store).build();
        RunResult paused = agent.run("A-104 を返金して");
        String hash = paused.pendingApprovals().get(0).actionHash();

        agent.runs().reject(paused.runId(), hash, "上限を超えています", "佐藤");
        assertThat(decided(store, paused.runId())).singleElement().satisfies(d -> {
            assertThat(d.path("decision").asText()).isEqualTo("reject");
            assertThat(d.path("reason").asText()).isEqualTo("上限を超えています");
            assertThat(d.path("decided_by").asText()).isEqualTo("佐藤");
            assertThat(d.path("action_hash").asText()).isEqualTo(hash);
            assertThat(d.path("step").asInt()).isEqualTo(paused.steps());
        });

        agent.runs().cancel(paused.runId(), "もう不要です");
        assertThat(decided(store, paused.runId())).hasSize(1);
        assertThat(agent.runs().show(paused.runId()).trace()).anyMatch(line -> line.contains("reject refund by 佐藤"));
    }

    @Test
    void aResumedRunTellsItsListenersOfTheDecisionButDoesNotStoreItTwice() {
        InMemoryRunStore store = new InMemoryRunStore();
        RecordingListener listener = new RecordingListener();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-104\"}")), text("done")))
                .tools(refund()).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).store(store).listener(listener).build();
        RunResult paused = agent.run("A-104 を返金して");
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "佐藤");

        RunResult ended = agent.resume(paused.runId());

        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(decided(store, paused.runId())).singleElement()
                .satisfies(d -> assertThat(d.path("decision").asText()).isEqualTo("approve"));
        assertThat(listener.events(TraceEvent.ApprovalDecided.class)).singleElement()
                .satisfies(d -> assertThat(d.decidedBy()).isEqualTo("佐藤"));
    }
}
