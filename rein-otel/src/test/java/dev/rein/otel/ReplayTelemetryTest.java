package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay (a run re-executed from its trace: the model answers from the recording, no provider is called, the tools
 * answer from the recording) with telemetry installed: its spans are kept and marked {@code rein.replay}, and it records
 * no metric, so no latency of a call never made and no token, cost or run already counted when the run was recorded.
 */
class ReplayTelemetryTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final PriceTable PRICES = PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15"));

    private static Tool lookup() {
        return Tool.builder("lookup").description("Looks up.").handler((args, ctx) -> "found").build();
    }

    @Test
    void aReplayedRunsSpansAreMarkedAndItRecordsNoMetric(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        // recorded without telemetry: whatever the replay records is the replay's
        assertThat(Agent.builder().model(ScriptedModel.of(toolCalls("Looking.", call("lookup", "{}")), text("Done.")))
                .modelName("test-model").prices(PRICES).tools(lookup()).listener(JsonlTraceListener.to(trace)).build()
                .run("look it up").status()).isEqualTo(RunStatus.SUCCEEDED);

        ReinTelemetry telemetry = ReinTelemetry.create(OTEL.getOpenTelemetry());
        Agent underTest = telemetry.install(Agent.builder().model(ScriptedModel.of()).modelName("test-model").prices(PRICES)
                .tools(lookup())).build();
        ReplayReport report = Replay.from(trace).replay(underTest);
        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.result().status()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(OTEL.getSpans()).extracting(SpanData::getName)
                .containsExactlyInAnyOrder("invoke_agent rein", "chat test-model", "execute_tool lookup", "chat test-model");
        assertThat(OTEL.getSpans()).allSatisfy(span ->
                assertThat(span.getAttributes().get(ReinConventions.REPLAY)).as(span.getName()).isTrue());
        // the recorded response's text came from the trace, not a stream: no time to first chunk of a call never made
        assertThat(OTEL.getSpans()).filteredOn(s -> s.getName().startsWith("chat")).allSatisfy(chat -> {
            assertThat(chat.getAttributes().get(GenAiConventions.RESPONSE_TIME_TO_FIRST_CHUNK)).isNull();
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_STREAM)).isNull();
        });
        assertThat(OTEL.getMetrics()).extracting(MetricData::getName).isEmpty();
    }

    /**
     * A replay keeps the recorded run id, so its span was remembered as that run's latest: the recorded run, paused for
     * approval and resumed after the replay, linked its resumed span to the replay's instead of its own first one.
     */
    @Test
    void aReplayLeavesTheRecordedRunsSpanLinkAlone(@TempDir Path dir) {
        Tool refund = Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE).handler((args, ctx) -> "refunded").build();
        Path trace = dir.resolve("run.jsonl");
        ReinTelemetry telemetry = ReinTelemetry.create(OTEL.getOpenTelemetry());
        Agent agent = telemetry.install(Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{}")), text("Refunded.")))
                .modelName("test-model").prices(PRICES).tools(refund).listener(JsonlTraceListener.to(trace))).build();
        RunResult paused = agent.run("refund it");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        ReplayReport report = Replay.from(trace).replay(telemetry.install(Agent.builder().model(ScriptedModel.of())
                .modelName("test-model").prices(PRICES).tools(refund)).build());
        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);

        List<SpanData> runs = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).toList();
        SpanData first = runs.stream().filter(r -> r.getAttributes().get(ReinConventions.REPLAY) == null
                && "WAITING_APPROVAL".equals(r.getAttributes().get(ReinConventions.RUN_STATUS))).findFirst().orElseThrow();
        SpanData resumed = runs.stream().filter(r -> "SUCCEEDED".equals(r.getAttributes().get(ReinConventions.RUN_STATUS)))
                .findFirst().orElseThrow();
        assertThat(resumed.getLinks()).singleElement().satisfies(link ->
                assertThat(link.getSpanContext().getSpanId()).as("the recorded run's own first span").isEqualTo(first.getSpanId()));
    }
}
