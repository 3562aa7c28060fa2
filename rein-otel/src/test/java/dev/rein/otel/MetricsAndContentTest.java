package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.json.Json;
import dev.rein.model.Usage;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The metrics a run records, and opt-in content masked exactly as in the JSONL trace. */
class MetricsAndContentTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final String SECRET = "sk-live-51HxQ2eZvKYlo2C0000000000";
    private static final String GOAL = "注文 A-1 の状況を教えて";

    @TempDir
    Path dir;

    private Tool status() {
        return Tool.builder("order_status").description("The status of an order.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "発送済み (checked with key " + ctx.secrets().get("api_token").orElseThrow() + ")")
                .build();
    }

    private Agent agent(ScriptedModel model, boolean capture) {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic")
                .captureContent(capture).build();
        return telemetry.install(Agent.builder().model(model).modelName("test-model").tools(status())
                        .systemPrompt("You answer order questions.")
                        .secrets(Secrets.of(Map.of("api_token", SECRET)))
                        .prices(PriceTable.empty().with("test-model", ModelPrice.of("3", "0.3", "15")))
                        .listener(JsonlTraceListener.to(dir.resolve("trace.jsonl"))))
                .build();
    }

    private static ScriptedModel twoSteps() {
        return ScriptedModel.of(
                ScriptedModel.withUsage(Usage.of(120, 30, 1000, 50), toolCalls(call("order_status", "{\"id\":\"A-1\"}"))),
                text("A-1 は発送済みです。"));
    }

    private static MetricData metric(String name) {
        return OTEL.getMetrics().stream().filter(m -> m.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + OTEL.getMetrics()));
    }

    @Test
    void aRunRecordsTheGenAiClientMetricsAndItsOwn() {
        RunResult result = agent(twoSteps(), false).run(GOAL);
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        MetricData tokens = metric(GenAiConventions.METRIC_TOKEN_USAGE);
        assertThat(tokens.getUnit()).isEqualTo("{token}");
        List<HistogramPointData> points = List.copyOf(tokens.getHistogramData().getPoints());
        assertThat(points).hasSize(2).allSatisfy(p -> {
            assertThat(p.getBoundaries()).containsExactlyElementsOf(
                    GenAiConventions.TOKEN_USAGE_BUCKETS.stream().map(Long::doubleValue).toList());
            assertThat(p.getAttributes().get(GenAiConventions.OPERATION_NAME)).isEqualTo("chat");
            assertThat(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("anthropic");
            assertThat(p.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("test-model");
            assertThat(p.getCount()).isEqualTo(2);
        });
        HistogramPointData input = points.stream()
                .filter(p -> "input".equals(p.getAttributes().get(GenAiConventions.TOKEN_TYPE))).findFirst().orElseThrow();
        // Input tokens include cache reads and writes, as the conventions ask: (120 + 1000 + 50) + 100.
        assertThat(input.getSum()).isEqualTo(1270.0);

        MetricData duration = metric(GenAiConventions.METRIC_OPERATION_DURATION);
        assertThat(duration.getUnit()).isEqualTo("s");
        assertThat(duration.getHistogramData().getPoints()).singleElement().satisfies(p -> {
            assertThat(p.getBoundaries()).containsExactlyElementsOf(GenAiConventions.OPERATION_DURATION_BUCKETS);
            assertThat(p.getCount()).isEqualTo(2);
        });

        assertThat(metric(ReinConventions.METRIC_RUN_STEPS).getHistogramData().getPoints()).singleElement()
                .satisfies(p -> assertThat(p.getSum()).isEqualTo(2.0));
        assertThat(metric(ReinConventions.METRIC_RUN_COST).getUnit()).isEqualTo("USD");
        assertThat(metric(ReinConventions.METRIC_RUN_COST).getHistogramData().getPoints()).singleElement()
                .satisfies(p -> assertThat(p.getSum()).isEqualTo(result.costUsd().doubleValue()));
        LongPointData stop = metric(ReinConventions.METRIC_RUN_STOPS).getLongSumData().getPoints().iterator().next();
        assertThat(stop.getValue()).isEqualTo(1);
        assertThat(stop.getAttributes().get(ReinConventions.RUN_STATUS)).isEqualTo("SUCCEEDED");
        assertThat(stop.getAttributes().get(ReinConventions.RUN_REASON)).isEqualTo("completed");
    }

    /**
     * Semconv gen-ai-metrics, gen_ai.invoke_agent.duration: "required when the instrumented component
     * implements agent invocation operations" (Rein makes an invoke_agent span of every run segment),
     * a histogram in s with the buckets 0.1 ... 409.6, gen_ai.agent.name, gen_ai.request.model and
     * error.type when the invocation ended in an error, its value "the same as the span duration".
     * No run recorded it.
     */
    @Test
    void aRunRecordsTheInvokeAgentDurationAsItsSpanLasted() {
        assertThat(agent(twoSteps(), false).run(GOAL).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(agent(ScriptedModel.of(ScriptedModel.fail(new dev.rein.model.ModelException(
                dev.rein.model.ModelException.Kind.AUTHENTICATION, 401, "invalid x-api-key"))), false).run(GOAL).status())
                .isEqualTo(RunStatus.FAILED);

        MetricData duration = metric(GenAiConventions.METRIC_INVOKE_AGENT_DURATION);
        assertThat(duration.getUnit()).isEqualTo("s");
        List<SpanData> runs = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).toList();
        assertThat(runs).hasSize(2);
        SpanData succeeded = runs.stream().filter(s -> s.getAttributes().get(GenAiConventions.ERROR_TYPE) == null).findFirst().orElseThrow();
        SpanData failed = runs.stream().filter(s -> s.getAttributes().get(GenAiConventions.ERROR_TYPE) != null).findFirst().orElseThrow();
        List<HistogramPointData> points = List.copyOf(duration.getHistogramData().getPoints());
        assertThat(points).hasSize(2).allSatisfy(p -> {
            assertThat(p.getBoundaries()).containsExactly(0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6);
            assertThat(p.getCount()).isEqualTo(1);
            assertThat(p.getAttributes().get(GenAiConventions.AGENT_NAME)).isEqualTo("rein");
            assertThat(p.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("test-model");
        });
        HistogramPointData ok = points.stream().filter(p -> p.getAttributes().get(GenAiConventions.ERROR_TYPE) == null)
                .findFirst().orElseThrow();
        assertThat(ok.getSum()).isCloseTo((succeeded.getEndEpochNanos() - succeeded.getStartEpochNanos()) / 1e9,
                org.assertj.core.data.Offset.offset(1e-6));
        HistogramPointData error = points.stream().filter(p -> p.getAttributes().get(GenAiConventions.ERROR_TYPE) != null)
                .findFirst().orElseThrow();
        assertThat(error.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo(failed.getAttributes().get(GenAiConventions.ERROR_TYPE));
        assertThat(error.getSum()).isCloseTo((failed.getEndEpochNanos() - failed.getStartEpochNanos()) / 1e9,
                org.assertj.core.data.Offset.offset(1e-6));
    }

    /**
     * Semconv gen-ai-metrics, gen_ai.execute_tool.duration: recommended; an instrumentation that can
     * bound a single tool call "SHOULD record this metric for every tool execution", its value the
     * execute_tool span's duration, with gen_ai.tool.name, error.type when the call ended in an error,
     * gen_ai.agent.name and gen_ai.tool.type. No tool call recorded it.
     */
    @Test
    void eachToolCallRecordsTheExecuteToolDurationAsItsSpanLasted() {
        RunResult result = agent(ScriptedModel.of(toolCalls(call("order_status", "{\"id\":\"A-1\"}"), call("no_such_tool", "{}")),
                text("A-1 は発送済みです。")), false).run(GOAL);
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        MetricData duration = metric(GenAiConventions.METRIC_EXECUTE_TOOL_DURATION);
        assertThat(duration.getUnit()).isEqualTo("s");
        List<HistogramPointData> points = List.copyOf(duration.getHistogramData().getPoints());
        assertThat(points).hasSize(2).allSatisfy(p -> {
            assertThat(p.getBoundaries()).containsExactlyElementsOf(GenAiConventions.OPERATION_DURATION_BUCKETS);
            assertThat(p.getCount()).isEqualTo(1);
            assertThat(p.getAttributes().get(GenAiConventions.AGENT_NAME)).isEqualTo("rein");
            assertThat(p.getAttributes().get(GenAiConventions.TOOL_TYPE)).isEqualTo("function");
        });
        SpanData status = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool order_status")).findFirst().orElseThrow();
        HistogramPointData ok = points.stream()
                .filter(p -> "order_status".equals(p.getAttributes().get(GenAiConventions.TOOL_NAME))).findFirst().orElseThrow();
        assertThat(ok.getAttributes().get(GenAiConventions.ERROR_TYPE)).isNull();
        assertThat(ok.getSum()).isCloseTo((status.getEndEpochNanos() - status.getStartEpochNanos()) / 1e9,
                org.assertj.core.data.Offset.offset(1e-6));
        SpanData unknown = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool no_such_tool")).findFirst().orElseThrow();
        HistogramPointData refused = points.stream()
                .filter(p -> "no_such_tool".equals(p.getAttributes().get(GenAiConventions.TOOL_NAME))).findFirst().orElseThrow();
        assertThat(refused.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("unknown_tool")
                .isEqualTo(unknown.getAttributes().get(GenAiConventions.ERROR_TYPE));
    }

    @Test
    void theRunCostHistogramTellsACheapRunFromADearOne() {
        // A run costs fractions of a dollar: with the SDK's default buckets (0, 5, 10, 25, ...) a $0.001
        // run and a $0.40 one fall in the same bucket, and the histogram says nothing about cost.
        RunResult cheap = agent(twoSteps(), false).run(GOAL);
        RunResult dear = agent(ScriptedModel.of(ScriptedModel.withUsage(Usage.of(100_000, 5_000, 0, 0), text("高い答え"))), false).run(GOAL);
        assertThat(dear.costUsd().doubleValue()).isGreaterThan(100 * cheap.costUsd().doubleValue());

        HistogramPointData cost = metric(ReinConventions.METRIC_RUN_COST).getHistogramData().getPoints().iterator().next();
        assertThat(cost.getCount()).isEqualTo(2);
        assertThat(cost.getCounts()).as("buckets %s", cost.getBoundaries()).filteredOn(n -> n > 0).hasSize(2);
    }

    @Test
    void withoutOptInNoContentIsRecorded() {
        agent(twoSteps(), false).run(GOAL);
        for (SpanData span : OTEL.getSpans()) {
            assertThat(span.getAttributes().asMap().keySet()).extracting(k -> k.getKey()).doesNotContain(
                    "gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions",
                    "gen_ai.tool.definitions", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result");
            assertThat(span.getAttributes().toString()).doesNotContain("発送済み", GOAL, SECRET);
        }
    }

    @Test
    void optedInContentIsRecordedWithSecretsMaskedAsInTheJsonlTrace() throws Exception {
        agent(twoSteps(), true).run(GOAL);

        SpanData tool = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool order_status")).findFirst().orElseThrow();
        String result = tool.getAttributes().get(GenAiConventions.TOOL_CALL_RESULT);
        JsonNode traced = Files.readAllLines(dir.resolve("trace.jsonl")).stream().map(Json::parse)
                .filter(e -> e.get("type").asText().equals("tool_result")).findFirst().orElseThrow();
        assertThat(result).isEqualTo(traced.get("content").asText()).contains("発送済み").doesNotContain(SECRET);
        assertThat(Json.parse(tool.getAttributes().get(GenAiConventions.TOOL_CALL_ARGUMENTS)).get("id").asText()).isEqualTo("A-1");

        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().equals("invoke_agent rein")).findFirst().orElseThrow();
        assertThat(Json.parse(run.getAttributes().get(GenAiConventions.INPUT_MESSAGES)).at("/0/parts/0/content").asText()).isEqualTo(GOAL);
        assertThat(run.getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).contains("A-1 は発送済みです。");

        List<SpanData> chats = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("chat ")).toList();
        SpanData second = chats.stream().filter(c -> c.getAttributes().get(GenAiConventions.INPUT_MESSAGES).contains("tool_call_response"))
                .findFirst().orElseThrow();
        JsonNode messages = Json.parse(second.getAttributes().get(GenAiConventions.INPUT_MESSAGES));
        assertThat(messages.get(0).get("role").asText()).isEqualTo("user");
        assertThat(messages.get(1).at("/parts/0/type").asText()).isEqualTo("tool_call");
        assertThat(messages.get(2).get("role").asText()).isEqualTo("tool");
        JsonNode response = messages.get(2).at("/parts/0");
        assertThat(response.get("type").asText()).isEqualTo("tool_call_response");
        assertThat(response.get("response").asText()).contains("発送済み"); // required by the JSON schema
        assertThat(response.get("result").asText()).isEqualTo(response.get("response").asText()); // as in the examples
        assertThat(second.getAttributes().get(GenAiConventions.SYSTEM_INSTRUCTIONS)).contains("You answer order questions.");
        assertThat(Json.parse(second.getAttributes().get(GenAiConventions.TOOL_DEFINITIONS)).at("/0/name").asText()).isEqualTo("order_status");
        for (SpanData span : OTEL.getSpans()) {
            assertThat(span.getAttributes().toString()).doesNotContain(SECRET);
        }
    }

    /**
     * A server tool's result is a server_tool_call_response part with the block's content: a secret a
     * tool obtained, quoted in it (a fetched page that shows the key), is masked there as in the JSONL trace.
     */
    @Test
    void optedInAServerToolResultQuotingASecretIsMasked() throws Exception {
        com.fasterxml.jackson.databind.node.ObjectNode fetched = Json.object().put("type", "web_fetch_tool_result")
                .put("tool_use_id", "srvtoolu_02");
        fetched.putObject("content").put("type", "web_fetch_result").put("url", "https://status.example/A-1")
                .putObject("content").put("type", "document").putObject("source").put("type", "text")
                .put("data", "発送済み; key " + SECRET);
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.withUsage(Usage.of(120, 30, 0, 0), toolCalls(call("order_status", "{\"id\":\"A-1\"}"))),
                ScriptedModel.reply(dev.rein.model.StopReason.END_TURN, Usage.of(10, 5, 0, 0),
                        new dev.rein.model.OpaqueBlock("web_fetch_tool_result", fetched), new dev.rein.model.TextBlock("発送済みです。")));
        assertThat(agent(model, true).run(GOAL).status()).isEqualTo(RunStatus.SUCCEEDED);

        SpanData last = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("chat ")).reduce((a, b) -> b).orElseThrow();
        JsonNode part = Json.parse(last.getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).at("/0/parts/0");
        assertThat(part.get("type").asText()).isEqualTo("server_tool_call_response");
        assertThat(part.at("/server_tool_call_response/content/content/source/data").asText()).startsWith("発送済み; key ")
                .doesNotContain(SECRET);
        for (SpanData span : OTEL.getSpans()) {
            assertThat(span.getAttributes().toString()).doesNotContain(SECRET);
        }
    }

    /**
     * gen-ai-agent-spans (v1.41.0), the internal invoke_agent span: gen_ai.system_instructions and
     * gen_ai.tool.definitions are opt-in attributes of it too, the agent's instructions and the tools
     * it offers; with the content opt-in the run span has them as its chat spans do.
     */
    @Test
    void optedInTheRunSpanHasTheAgentsSystemInstructionsAndToolDefinitions() {
        agent(twoSteps(), true).run(GOAL);

        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().equals("invoke_agent rein")).findFirst().orElseThrow();
        assertThat(Json.parse(run.getAttributes().get(GenAiConventions.SYSTEM_INSTRUCTIONS)))
                .isEqualTo(Json.parse("[{\"type\":\"text\",\"content\":\"You answer order questions.\"}]"));
        assertThat(Json.parse(run.getAttributes().get(GenAiConventions.TOOL_DEFINITIONS)))
                .isEqualTo(Json.parse("[{\"type\":\"function\",\"name\":\"order_status\"}]"));
    }

    /**
     * gen-ai-metrics, gen_ai.client.token.usage: an instrumentation that cannot obtain the token
     * counts "MUST NOT report usage metric" unless the user enabled offline counting. A call whose
     * provider reported no usage has only Rein's estimate (on its span, marked estimated), so the
     * metric leaves it out; the duration is still recorded.
     */
    @Test
    void aCallWhoseProviderReportedNoUsageIsNotCountedInTheTokenUsageMetric() {
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.withUsage(Usage.of(120, 30, 0, 0), toolCalls(call("order_status", "{\"id\":\"A-1\"}"))),
                ScriptedModel.withUsage(null, text("A-1 は発送済みです。")));
        RunResult result = agent(model, false).run(GOAL);
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(metric(GenAiConventions.METRIC_TOKEN_USAGE).getHistogramData().getPoints()).hasSize(2).allSatisfy(p ->
                assertThat(p.getCount()).as("only the reported call: " + p.getAttributes()).isEqualTo(1));
        HistogramPointData output = metric(GenAiConventions.METRIC_TOKEN_USAGE).getHistogramData().getPoints().stream()
                .filter(p -> "output".equals(p.getAttributes().get(GenAiConventions.TOKEN_TYPE))).findFirst().orElseThrow();
        assertThat(output.getSum()).isEqualTo(30.0);
        assertThat(metric(GenAiConventions.METRIC_OPERATION_DURATION).getHistogramData().getPoints()).singleElement()
                .satisfies(p -> assertThat(p.getCount()).isEqualTo(2));
    }
}
