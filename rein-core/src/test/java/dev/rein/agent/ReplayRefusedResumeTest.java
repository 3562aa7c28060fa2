package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ConfigurationException;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A durable engine's run whose resume was refused (the worker's agent had another output schema) ended FAILED
 * configuration_error from its pause, the decisions taken on it not applied. Its replay stops at that pause, as the
 * recorded run did, and the report says the recorded run was refused at its resume (refused or failed, for a resume
 * that ended it internal_error).
 */
class ReplayRefusedResumeTest {
    public record Refund(String orderId, int amount) {}

    public record Invoice(String invoiceId, int total) {}

    private static Agent.Builder agent(ScriptedModel model, RunStore store) {
        Tool refund = Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\"}},\"required\":[\"order_id\"]}")
                .handler((args, ctx) -> "refunded " + args.get("order_id").asText()).build();
        return Agent.builder().model(model).tools(refund).store(store);
    }

    /**
     * Before, the replay resumed the pause with the recorded decisions and diverged at step 2 ("the run now makes a step
     * model call the recording does not have"), which did not say that the recorded run had been refused (core45).
     */
    @Test
    void aRunRefusedAtItsResumeReplaysToItsPauseAndTheReportSaysSo(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunStore store = new InMemoryRunStore();
        Agent first = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order_id\":\"A-104\"}"))), store)
                .outputType(Refund.class).listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = first.run("refund order A-104");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        first.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");
        RunSnapshot typed = store.load(paused.runId()).orElseThrow();
        DrivenRun worker = new DrivenRun(agent(ScriptedModel.of(), store).outputType(Invoice.class)
                .listener(JsonlTraceListener.to(trace)).build(), store);
        AtomicReference<String> refusal = new AtomicReference<>();
        assertThatThrownBy(() -> worker.resumed(typed)).isInstanceOf(ConfigurationException.class)
                .satisfies(e -> refusal.set(e.getMessage()));
        worker.end(typed, RunStatus.FAILED, "configuration_error", refusal.get(), null, null);

        ScriptedModel unused = ScriptedModel.of();
        ReplayReport report = Replay.from(trace).replay(agent(unused, new InMemoryRunStore()).outputType(Refund.class).build());

        assertThat(report.modelCalls()).isEqualTo(1);
        assertThat(report.result().status()).as("stopped at the pause, as the recorded run did").isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.recordedReason()).isEqualTo("configuration_error");
        assertThat(report.firstDivergence().orElseThrow().description())
                .startsWith("step 1: the recorded run was refused at its resume from this pause and ended FAILED/configuration_error")
                .contains("'Refund'").contains("'Invoice'")
                .doesNotContain("the recording does not have");
    }

    /**
     * A resume that failed otherwise on the engine (the application's listener factory threw) ends the run FAILED
     * internal_error from its pause, its decisions not applied, as a refused one does: the replay stops there too. Before,
     * only configuration_error was recognised, and the replay resumed with the recorded decision.
     */
    @Test
    void aRunWhoseResumeFailedWithAnInternalErrorReplaysToItsPauseAndTheReportSaysSo(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunStore store = new InMemoryRunStore();
        Agent first = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order_id\":\"A-104\"}"))), store)
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = first.run("refund order A-104");
        first.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");
        RunSnapshot snapshot = store.load(paused.runId()).orElseThrow();
        AtomicReference<RuntimeException> armed = new AtomicReference<>(new IllegalStateException("the exporter lost its connection"));
        Agent failing = agent(ScriptedModel.of(), store).listener(JsonlTraceListener.to(trace)).build().withListener(id -> {
            RuntimeException thrown = armed.getAndSet(null);
            if (thrown != null) {
                throw thrown;
            }
            return null;
        });
        DrivenRun worker = new DrivenRun(failing, store);
        AtomicReference<String> failure = new AtomicReference<>();
        assertThatThrownBy(() -> worker.resumed(snapshot)).satisfies(e -> failure.set(e.getMessage()));
        worker.end(snapshot, RunStatus.FAILED, "internal_error", failure.get(), null, null);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), new InMemoryRunStore()).build());

        assertThat(report.modelCalls()).isEqualTo(1);
        assertThat(report.result().status()).as("stopped at the pause, as the recorded run did").isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.recordedReason()).isEqualTo("internal_error");
        assertThat(report.firstDivergence().orElseThrow().description())
                .startsWith("step 1: the recorded run was refused or failed at its resume from this pause and ended FAILED/internal_error")
                .contains("the exporter lost its connection").doesNotContain("the recording does not have");
    }
}
