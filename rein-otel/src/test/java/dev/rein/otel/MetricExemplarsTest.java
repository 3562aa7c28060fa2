package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.metrics.data.ExemplarData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Metric exemplars name the span of the operation measured (the chat, tool or agent span), whatever span is current on
 * the thread that records: the default {@code trace_based} exemplar filter samples only what a sampled span context
 * goes with.
 */
class MetricExemplarsTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private Agent agent() {
        Tool status = Tool.builder("order_status").description("The status of an order.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "shipped").build();
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build();
        return telemetry.install(Agent.builder().model(ScriptedModel.of(toolCalls(call("order_status", "{\"id\":\"A-1\"}")),
                text("shipped"))).modelName("test-model").tools(status)
                .prices(dev.rein.budget.PriceTable.empty().with("test-model", dev.rein.budget.ModelPrice.of("3", "0.3", "15")))).build();
    }

    /**
     * The exemplars of a histogram's or a counter's points, from the metrics collected once after the run: a collection
     * takes the exemplars sampled since the one before, so a second would have none.
     */
    private List<MetricData> metrics;

    private List<ExemplarData> exemplars(String metric) {
        if (metrics == null) {
            metrics = OTEL.getMetrics();
        }
        MetricData data = metrics.stream().filter(m -> m.getName().equals(metric)).findFirst().orElseThrow();
        return data.getData().getPoints().stream().flatMap(p -> p.getExemplars().stream()).map(ExemplarData.class::cast)
                .toList();
    }

    private static List<String> spanIds(String namePrefix) {
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith(namePrefix)).map(SpanData::getSpanId).toList();
    }

    /** The CLI without TRACEPARENT, or a library run started outside any span: the durations still get exemplars, of Rein's own spans. */
    @Test
    void aRunStartedAtTheRootGivesItsDurationsExemplarsOfItsSpans() {
        assertThat(agent().run("where is A-1?").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(exemplars(GenAiConventions.METRIC_OPERATION_DURATION)).as("chat duration exemplars").isNotEmpty();
        assertThat(exemplars(GenAiConventions.METRIC_INVOKE_AGENT_DURATION)).as("agent duration exemplars").isNotEmpty();
        assertThat(exemplars(GenAiConventions.METRIC_EXECUTE_TOOL_DURATION)).as("tool duration exemplars").isNotEmpty();
    }

    /** A run started while handling a request (sampled): the exemplars name the spans they measure (Rein's), not the request's. */
    @Test
    void aRunInARequestGivesExemplarsOfTheMeasuredSpansNotOfTheRequest() {
        Span request = OTEL.getOpenTelemetry().getTracer("app").spanBuilder("GET /orders").startSpan();
        try (Scope ignored = request.makeCurrent()) {
            assertThat(agent().run("where is A-1?").status()).isEqualTo(RunStatus.SUCCEEDED);
        } finally {
            request.end();
        }
        String requestId = request.getSpanContext().getSpanId();
        List<String> chat = spanIds("chat ");
        List<String> tool = spanIds("execute_tool ");
        List<String> run = spanIds("invoke_agent ");
        assertThat(exemplars(GenAiConventions.METRIC_OPERATION_DURATION)).isNotEmpty()
                .allSatisfy(e -> assertThat(chat).contains(e.getSpanContext().getSpanId()));
        assertThat(exemplars(GenAiConventions.METRIC_TOKEN_USAGE)).isNotEmpty()
                .allSatisfy(e -> assertThat(chat).contains(e.getSpanContext().getSpanId()));
        assertThat(exemplars(GenAiConventions.METRIC_EXECUTE_TOOL_DURATION)).isNotEmpty()
                .allSatisfy(e -> assertThat(tool).contains(e.getSpanContext().getSpanId()));
        assertThat(exemplars(GenAiConventions.METRIC_INVOKE_AGENT_DURATION)).isNotEmpty()
                .allSatisfy(e -> assertThat(run).contains(e.getSpanContext().getSpanId()));
        // Rein's run metrics measure the run: its (the agent's) span
        for (String metric : List.of(ReinConventions.METRIC_RUN_STEPS, ReinConventions.METRIC_RUN_COST,
                ReinConventions.METRIC_RUN_STOPS)) {
            assertThat(exemplars(metric)).as(metric).isNotEmpty()
                    .allSatisfy(e -> assertThat(run).contains(e.getSpanContext().getSpanId()));
        }
    }
}
