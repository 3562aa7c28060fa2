package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One ReinTelemetry installed twice on an agent (install on a builder that has it already, such as a copy
 * of an installed agent's, {@code agent.config().toBuilder()}) traces each run once: two invoke_agent and
 * chat spans per run, and every metric point counted twice, would double the tokens and calls a backend shows.
 */
class InstallTwiceTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static long count(String metric) {
        return OTEL.getMetrics().stream().filter(m -> m.getName().equals(metric))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).mapToLong(HistogramPointData::getCount).sum();
    }

    @Test
    void aTelemetryInstalledTwiceTracesEachRunOnce() {
        ReinTelemetry telemetry = ReinTelemetry.create(OTEL.getOpenTelemetry());
        Tool lookup = Tool.builder("lookup").description("Looks up.").handler((args, ctx) -> "found").build();
        // the tool call streams two chunks (its start and its input): one time-per-output-chunk point
        ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup", "{}")), ScriptedModel.text("Done."));
        Agent installed = telemetry.install(Agent.builder().model(script).modelName("test-model").tools(lookup)
                .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))).build();
        Agent again = telemetry.install(installed.config().toBuilder()).build();

        assertThat(again.run("look it up").status()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(OTEL.getSpans()).extracting(SpanData::getName)
                .containsExactlyInAnyOrder("invoke_agent rein", "chat test-model", "execute_tool lookup", "chat test-model");
        assertThat(count(GenAiConventions.METRIC_INVOKE_AGENT_DURATION)).isEqualTo(1);
        assertThat(count(GenAiConventions.METRIC_OPERATION_DURATION)).isEqualTo(2);
        assertThat(count(GenAiConventions.METRIC_TOKEN_USAGE)).isEqualTo(4); // input and output of two calls
        assertThat(count(GenAiConventions.METRIC_EXECUTE_TOOL_DURATION)).isEqualTo(1);
        assertThat(count(GenAiConventions.METRIC_TIME_TO_FIRST_CHUNK)).isEqualTo(2);
        assertThat(count(GenAiConventions.METRIC_TIME_PER_OUTPUT_CHUNK)).isEqualTo(1);
        List<SpanData> tools = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("execute_tool")).toList();
        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
        assertThat(tools).singleElement().satisfies(tool -> assertThat(tool.getParentSpanId()).isEqualTo(run.getSpanId()));
    }
}
