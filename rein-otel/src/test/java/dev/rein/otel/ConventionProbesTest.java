package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.reply;
import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Details of the GenAI conventions that are easy to get subtly wrong: attribute types, conditional attributes, part types. */
class ConventionProbesTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static SpanData chat() {
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow();
    }

    /**
     * The GenAI conventions typed gen_ai.request.top_k as a double up to semantic-conventions v1.41.0; the
     * semantic-conventions-genai registry makes it an int (#217: "Change gen_ai.request.top_k type from double to int"),
     * the type every provider takes. Rein recorded 40.0, a double attribute a backend keeps apart from an int one.
     */
    @Test
    void topKIsRecordedAsAnInt() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build()
                .listener().create("run-1");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        ModelRequest request = ModelRequest.builder("m").messages(List.of(Message.user("hi"))).topK(40).build();
        listener.onEvent(new TraceEvent.RunStarted("run-1", 0, t, "hi", "m", List.of(), Map.of()));
        listener.onEvent(new TraceEvent.ModelRequested("run-1", 1, t, "step", request));
        listener.onEvent(new TraceEvent.ModelResponded("run-1", 1, t.plusMillis(5),
                new ModelResponse("r", "m", List.of(new TextBlock("ok")), StopReason.END_TURN, null, Usage.of(1, 1, 0, 0)),
                Usage.of(1, 1, 0, 0), null, null, 5));
        listener.onEvent(new TraceEvent.RunFinished("run-1", 1, t.plusMillis(6), RunStatus.SUCCEEDED, "completed", null, "ok",
                Usage.of(1, 1, 0, 0), null));
        listener.close();
        assertThat(chat().getAttributes().get(AttributeKey.longKey("gen_ai.request.top_k"))).isEqualTo(40L);
        assertThat(chat().getAttributes().get(AttributeKey.doubleKey("gen_ai.request.top_k"))).isNull();
    }

    /**
     * A call a custom stall detector blocks, whose response Rein's listener did not see and whose evidence names no
     * "tool", has a span named by the operation alone, with no gen_ai.tool.name: it was named "execute_tool null", with
     * gen_ai.tool.name "null", as if a tool were called so. A "tool" in the evidence still names it.
     */
    @Test
    void aBlockedCallOfNoKnownToolIsNotNamedNull() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build().listener().create("run-9");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        listener.onEvent(new TraceEvent.RunStarted("run-9", 0, t, "hi", "m", List.of(), Map.of()));
        listener.onEvent(new TraceEvent.StallDetected("run-9", 1, t, "custom", "blocked", "c1", "stop that", Map.of("seen", 3),
                1, null));
        listener.onEvent(new TraceEvent.StallDetected("run-9", 1, t, "custom", "blocked", "c2", "stop that",
                Map.of("tool", "lookup"), 1, null));
        listener.onEvent(new TraceEvent.RunFinished("run-9", 1, t.plusMillis(6), RunStatus.FAILED, "stalled", null, "x",
                Usage.of(0, 0, 0, 0), null));
        listener.close();
        List<SpanData> tools = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("execute_tool")).toList();
        assertThat(tools).extracting(SpanData::getName).containsExactlyInAnyOrder("execute_tool", "execute_tool lookup");
        assertThat(tools).filteredOn(s -> s.getName().equals("execute_tool")).singleElement().satisfies(s -> {
            assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name"))).isNull();
            assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.call.id"))).isEqualTo("c1");
        });
    }

    @Test
    void anIpv6ServerAddressHasNoBrackets() {
        // Semantic conventions (server.address): an IPv6 address is given without brackets ("::1", not "[::1]").
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("openai")
                .server(java.net.URI.create("http://[::1]:8080/v1")).build().listener().create("run-6");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        ModelRequest request = ModelRequest.builder("m").messages(List.of(Message.user("hi"))).build();
        listener.onEvent(new TraceEvent.RunStarted("run-6", 0, t, "hi", "m", List.of(), Map.of()));
        listener.onEvent(new TraceEvent.ModelRequested("run-6", 1, t, "step", request));
        listener.onEvent(new TraceEvent.ModelResponded("run-6", 1, t.plusMillis(5),
                new ModelResponse("r", "m", List.of(new TextBlock("ok")), StopReason.END_TURN, null, Usage.of(1, 1, 0, 0)),
                Usage.of(1, 1, 0, 0), null, null, 5));
        listener.onEvent(new TraceEvent.RunFinished("run-6", 1, t.plusMillis(6), RunStatus.SUCCEEDED, "completed", null, "ok",
                Usage.of(1, 1, 0, 0), null));
        listener.close();

        assertThat(chat().getAttributes().get(AttributeKey.stringKey("server.address"))).isEqualTo("::1");
        assertThat(chat().getAttributes().get(AttributeKey.longKey("server.port"))).isEqualTo(8080L);
        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("server.address"))).isEqualTo("::1");
    }

    @Test
    void samplingParametersAndResponseAttributesHaveTheRegistrysTypes() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").server("api.example.com", 443)
                .build().listener().create("run-2");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        ModelRequest request = ModelRequest.builder("m").messages(List.of(Message.user("こんにちは"))).temperature(0.0).topP(0.9)
                .stopSequences(List.of("END", "終わり")).build();
        listener.onEvent(new TraceEvent.RunStarted("run-2", 0, t, "こんにちは", "m", List.of(), Map.of()));
        listener.onEvent(new TraceEvent.ModelRequested("run-2", 1, t, "step", request));
        listener.onEvent(new TraceEvent.ModelResponded("run-2", 1, t.plusMillis(5),
                new ModelResponse("msg_1", "m-2026", List.of(new TextBlock("ok")), StopReason.STOP_SEQUENCE, "終わり", Usage.of(7, 3, 0, 0)),
                Usage.of(7, 3, 0, 0), null, null, 5));
        listener.onEvent(new TraceEvent.RunFinished("run-2", 1, t.plusMillis(6), RunStatus.SUCCEEDED, "completed", null, "ok",
                Usage.of(7, 3, 0, 0), null));
        listener.close();

        var attributes = chat().getAttributes();
        // A temperature of 0 is set, so it is recorded (doubles, as the registry types them).
        assertThat(attributes.get(AttributeKey.doubleKey("gen_ai.request.temperature"))).isEqualTo(0.0);
        assertThat(attributes.get(AttributeKey.doubleKey("gen_ai.request.top_p"))).isEqualTo(0.9);
        assertThat(attributes.get(AttributeKey.stringArrayKey("gen_ai.request.stop_sequences"))).containsExactly("END", "終わり");
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.request.max_tokens"))).isPositive();
        assertThat(attributes.get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons"))).containsExactly("stop_sequence");
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.response.id"))).isEqualTo("msg_1");
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.response.model"))).isEqualTo("m-2026");
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.usage.input_tokens"))).isEqualTo(7L);
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.usage.output_tokens"))).isEqualTo(3L);
        assertThat(attributes.get(AttributeKey.longKey("server.port"))).isEqualTo(443L);
    }

    /** The run and tool span events docs/observability.md lists that no other test holds. */
    @Test
    void theDocumentedRunAndToolEventsLandOnTheirSpans() {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build()
                .listener().create("run-3");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        listener.onEvent(new TraceEvent.RunStarted("run-3", 0, t, "goal", "m", List.of("lookup"), Map.of()));
        listener.onEvent(new TraceEvent.ToolCalled("run-3", 1, t.plusMillis(1), "call_1", "lookup",
                Json.parse("{\"id\":\"A-1\"}")));
        listener.onEvent(new TraceEvent.ToolRetry("run-3", 1, t.plusMillis(2), "call_1", "lookup", 1, "TRANSIENT",
                "connection reset", 50));
        listener.onEvent(new TraceEvent.Audit("run-3", 1, t.plusMillis(3), "secret_used", "lookup", "call_1", null, null, null));
        listener.onEvent(new TraceEvent.ToolCompleted("run-3", 1, t.plusMillis(4), "call_1", "lookup", "shipped", false, "NONE",
                null, 3, false, "READ"));
        listener.onEvent(new TraceEvent.Audit("run-3", 1, t.plusMillis(5), "policy_loaded", null, null, null, null, null));
        listener.onEvent(new TraceEvent.Intervention("run-3", 2, t.plusMillis(6), "verifier", "the answer cites no source", Map.of()));
        listener.onEvent(new TraceEvent.ContextEdited("run-3", 2, t.plusMillis(7), "compaction", 9000, 3000, Map.of()));
        listener.onEvent(new TraceEvent.RunFinished("run-3", 2, t.plusMillis(8), RunStatus.SUCCEEDED, "completed", null, "ok",
                Usage.of(1, 1, 0, 0), null));
        listener.close();

        SpanData tool = OTEL.getSpans().stream().filter(s -> s.getName().equals("execute_tool lookup")).findFirst().orElseThrow();
        assertThat(tool.getEvents()).extracting(e -> e.getName()).containsExactly("rein.tool.retry", "rein.audit");
        var retry = tool.getEvents().get(0).getAttributes();
        assertThat(retry.get(ReinConventions.ATTEMPT)).isEqualTo(1L);
        assertThat(retry.get(ReinConventions.ERROR_CLASS)).isEqualTo("TRANSIENT");
        assertThat(retry.get(ReinConventions.DELAY_MS)).isEqualTo(50L);
        assertThat(tool.getEvents().get(1).getAttributes().get(ReinConventions.AUDIT_KIND)).isEqualTo("secret_used");

        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().equals("invoke_agent rein")).findFirst().orElseThrow();
        assertThat(run.getEvents()).extracting(e -> e.getName())
                .containsExactly("rein.audit", "rein.intervention", "rein.context.edited");
        assertThat(run.getEvents().get(0).getAttributes().get(ReinConventions.AUDIT_KIND)).isEqualTo("policy_loaded");
        var intervention = run.getEvents().get(1).getAttributes();
        assertThat(intervention.get(ReinConventions.INTERVENTION_KIND)).isEqualTo("verifier");
        assertThat(intervention.asMap().values()).as("the verifier's words may quote the answer: not without the opt-in")
                .doesNotContain("the answer cites no source");
        var edited = run.getEvents().get(2).getAttributes();
        assertThat(edited.get(ReinConventions.CONTEXT_EDIT)).isEqualTo("compaction");
        assertThat(edited.get(ReinConventions.TOKENS_BEFORE)).isEqualTo(9000L);
        assertThat(edited.get(ReinConventions.TOKENS_AFTER)).isEqualTo(3000L);
    }

    record Answer(String value) {}

    @Test
    void aRequestForJsonOutputCarriesTheOutputType() {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build();
        Agent agent = telemetry.install(Agent.builder().model(ScriptedModel.of(text("{\"value\":\"x\"}"))).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .outputType(Answer.class)).build();
        agent.run("answer");
        assertThat(chat().getAttributes().get(AttributeKey.stringKey("gen_ai.output.type"))).isEqualTo("json");
        SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent ")).findFirst().orElseThrow();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.output.type"))).isEqualTo("json");
    }

    @Test
    void thinkingIsAReasoningPart() throws Exception {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").captureContent(true).build();
        Agent agent = telemetry.install(Agent.builder().model(ScriptedModel.of(reply(StopReason.END_TURN, Usage.of(1, 1, 0, 0),
                new ThinkingBlock("let me think", "sig"), new TextBlock("done")))).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build();
        agent.run("go");
        JsonNode out = Json.mapper().readTree(chat().getAttributes().get(GenAiConventions.OUTPUT_MESSAGES));
        JsonNode part = out.get(0).get("parts").get(0);
        assertThat(part.get("type").asText()).isEqualTo("reasoning");
        assertThat(part.get("content").asText()).isEqualTo("let me think");
    }

    /**
     * Readable reasoning a provider sends outside its content, as DeepSeek's thinking mode and the
     * OpenAI-compatible servers that follow it do ({@code reasoning_content}, kept by rein-openai as a
     * block of its own to echo back), is a {@code reasoning} part with its text, as Anthropic's thinking is:
     * not a part named by the provider's block type.
     */
    @Test
    void reasoningContentKeptByAProviderIsAReasoningPartWithItsText() throws Exception {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("deepseek").captureContent(true).build();
        // the block as rein-openai keeps a response's reasoning_content
        com.fasterxml.jackson.databind.node.ObjectNode kept = Json.object().put("type", "openai_reasoning_content")
                .put("reasoning_content", "天気を調べる。").put("origin", "https://api.deepseek.com:443").put("family", "deepseek");
        Agent agent = telemetry.install(Agent.builder().model(ScriptedModel.of(reply(StopReason.END_TURN, Usage.of(1, 1, 0, 0),
                new dev.rein.model.OpaqueBlock("openai_reasoning_content", kept), new TextBlock("晴れです"))))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build();
        agent.run("天気は?");
        JsonNode parts = Json.mapper().readTree(chat().getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).get(0).get("parts");
        assertThat(parts).extracting(part -> part.get("type").asText()).containsExactly("reasoning", "text");
        assertThat(parts.get(0).get("content").asText()).isEqualTo("天気を調べる。");
        assertThat(parts.get(0).size()).as("the text only, not the block's origin").isEqualTo(2);
    }

    /**
     * Provider items Rein keeps without reading them (redacted thinking, a compaction block) are parts
     * named by their kind, as the messages schemas' generic part asks (a type), with nothing of their
     * content: not by the Java class that holds them.
     */
    @Test
    void providerItemsArePartsNamedByTheirKindWithoutTheirContent() throws Exception {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").captureContent(true).build();
        com.fasterxml.jackson.databind.node.ObjectNode compaction = Json.object().put("type", "compaction").put("content", "要約");
        Agent agent = telemetry.install(Agent.builder().model(ScriptedModel.of(reply(StopReason.END_TURN, Usage.of(1, 1, 0, 0),
                new dev.rein.model.RedactedThinkingBlock("EncryptedBlob=="), new dev.rein.model.OpaqueBlock("compaction", compaction),
                new TextBlock("晴れです"))))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build();
        agent.run("天気は?");
        JsonNode parts = Json.mapper().readTree(chat().getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).get(0).get("parts");
        assertThat(parts).extracting(part -> part.get("type").asText()).containsExactly("redacted_thinking", "compaction", "text");
        assertThat(parts.get(0).size()).as("the kind only").isEqualTo(1);
        assertThat(parts.get(1).size()).isEqualTo(1);
        assertThat(parts.get(2).get("content").asText()).isEqualTo("晴れです");
    }

    /**
     * A tool the provider runs (the Messages API's web search, code execution, MCP connector) is a
     * server_tool_call part and its result a server_tool_call_response part, the parts the v1.41.0
     * messages schemas define for built-in tools: the call's id, tool name and input, the result's
     * call id and content typed by the tool, as the conventions' code interpreter example has them.
     * Fields only the provider can read (a search result's encrypted_content) are left out.
     */
    @Test
    void serverToolCallsAndResultsAreTheSchemasServerToolParts() throws Exception {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").captureContent(true).build();
        com.fasterxml.jackson.databind.node.ObjectNode search = Json.object().put("type", "server_tool_use").put("id", "srvtoolu_01")
                .put("name", "web_search");
        search.putObject("input").put("query", "東京の天気");
        com.fasterxml.jackson.databind.node.ObjectNode result = Json.object().put("type", "web_search_tool_result")
                .put("tool_use_id", "srvtoolu_01");
        result.putArray("content").addObject().put("type", "web_search_result").put("url", "https://tenki.example/tokyo")
                .put("title", "東京の天気").put("encrypted_content", "EqgfCioIARgB...").put("page_age", "2026-12-05");
        com.fasterxml.jackson.databind.node.ObjectNode mcp = Json.object().put("type", "mcp_tool_use").put("id", "mcptoolu_01")
                .put("name", "get_order").put("server_name", "shop");
        mcp.putObject("input").put("order_id", "A-104");
        com.fasterxml.jackson.databind.node.ObjectNode mcpResult = Json.object().put("type", "mcp_tool_result")
                .put("tool_use_id", "mcptoolu_01").put("is_error", false);
        mcpResult.putArray("content").addObject().put("type", "text").put("text", "発送済み");
        Agent agent = telemetry.install(Agent.builder().model(ScriptedModel.of(reply(StopReason.END_TURN, Usage.of(1, 1, 0, 0),
                new dev.rein.model.OpaqueBlock("server_tool_use", search), new dev.rein.model.OpaqueBlock("web_search_tool_result", result),
                new dev.rein.model.OpaqueBlock("mcp_tool_use", mcp), new dev.rein.model.OpaqueBlock("mcp_tool_result", mcpResult),
                new TextBlock("晴れです"))))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build();
        agent.run("天気は?");
        JsonNode parts = Json.mapper().readTree(chat().getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).get(0).get("parts");
        assertThat(parts).extracting(part -> part.get("type").asText()).containsExactly("server_tool_call", "server_tool_call_response",
                "server_tool_call", "server_tool_call_response", "text");
        assertThat(parts.get(0)).isEqualTo(Json.mapper().readTree("""
                {"type":"server_tool_call","id":"srvtoolu_01","name":"web_search",
                 "server_tool_call":{"type":"web_search","input":{"query":"東京の天気"}}}"""));
        assertThat(parts.get(1)).isEqualTo(Json.mapper().readTree("""
                {"type":"server_tool_call_response","id":"srvtoolu_01",
                 "server_tool_call_response":{"type":"web_search","content":[{"type":"web_search_result",
                   "url":"https://tenki.example/tokyo","title":"東京の天気","page_age":"2026-12-05"}]}}"""));
        assertThat(parts.get(2)).isEqualTo(Json.mapper().readTree("""
                {"type":"server_tool_call","id":"mcptoolu_01","name":"get_order",
                 "server_tool_call":{"type":"mcp","server_name":"shop","input":{"order_id":"A-104"}}}"""));
        assertThat(parts.get(3)).isEqualTo(Json.mapper().readTree("""
                {"type":"server_tool_call_response","id":"mcptoolu_01",
                 "server_tool_call_response":{"type":"mcp","is_error":false,"content":[{"type":"text","text":"発送済み"}]}}"""));
    }
}
