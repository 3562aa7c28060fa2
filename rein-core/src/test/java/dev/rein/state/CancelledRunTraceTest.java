package dev.rein.state;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import dev.rein.ReinException;
import java.util.ArrayList;
import java.util.Collections;
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

    /**
     * The agent's listeners (a trace file, OpenTelemetry) are told the cancellation as a run's own end: before, only
     * the store was, so a trace file or a dashboard saw the paused run never end. A listener that fails does not stop
     * the others from being told, nor the cancellation.
     */
    @Test
    void agentRunsTellsTheAgentsListenersOfTheCancellation() {
        List<String> heard = Collections.synchronizedList(new ArrayList<>());
        RunListenerFactory recording = runId -> new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                heard.add(event.getClass().getSimpleName() + (event instanceof TraceEvent.RunFinished f ? " " + f.status() + " " + f.message() : ""));
            }

            @Override
            public void close() {
                heard.add("closed");
            }
        };
        RunListenerFactory failing = runId -> { throw new IllegalStateException("exporter down"); };
        Tool refund = Tool.builder("refund").description("Refunds.").risk(Risk.WRITE).handler((args, ctx) -> "refunded").build();
        InMemoryRunStore store = new InMemoryRunStore();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{}")), text("done")))
                .tools(refund).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).store(store).listener(recording).build();
        RunResult paused = agent.run("返金して");
        heard.clear();
        // another process's agent on the same store, whose first listener fails
        Agent other = Agent.builder().model(ScriptedModel.of(text("unused"))).tools(refund).store(store)
                .listener(failing).listener(recording).build();

        RunSnapshot cancelled = other.runs().cancel(paused.runId(), "もう不要です");

        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(heard).containsExactly("StateChanged", "RunFinished CANCELLED もう不要です", "closed");
    }

    @Test
    void runsInAStoreAloneTellNoListenerAndRefuseANullOne() {
        InMemoryRunStore store = new InMemoryRunStore();
        assertThatThrownBy(() -> Runs.in(store).withListeners(null, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("withListeners(...) was given no list (null)");
        List<RunListenerFactory> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> Runs.in(store).withListeners(null, withNull)).isInstanceOf(ReinException.class)
                .hasMessageContaining("a null listener factory");
    }
}
