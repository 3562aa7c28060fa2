package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.json.Json;
import dev.rein.openai.OpenAiModel;
import dev.rein.openai.OpenAiSeed;
import dev.rein.testkit.ScriptedModel;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordedRequest;
import dev.rein.tool.Tool;
import dev.rein.tool.builtin.BuiltinTools;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run over the OpenAI-compatible provider: the HTTP request it sends carries the chat span's
 * traceparent, and the finish reasons are in Chat Completions' own words.
 */
class OpenAiTraceparentTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void theChatCompletionsRequestCarriesTheChatSpansTraceparent() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("openai").build()
                    .install(priced(model)).build();
            RunResult result = agent.run("挨拶して");
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

            SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            RecordedRequest sent = server.lastRequest();
            assertThat(sent.header("traceparent")).isEqualTo("00-" + chat.getTraceId() + "-" + chat.getSpanId()
                    + "-" + chat.getSpanContext().getTraceFlags().asHex());
            assertThat(sent.body().toString()).doesNotContain("traceparent");
        }
    }

    @Test
    void finishReasonsAreChatCompletionsOwnAndTheOutputMessagesUseTheWellKnownValues() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.toolCall("call_1", "get_current_time", "{}"));
            server.enqueue(ChatReply.text("今は昼です。"));
            // No provider name configured: it is learned from the model.
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).captureContent(true).build()
                    .install(priced(model).tools(BuiltinTools.currentTime(java.time.Clock.systemUTC()))).build();
            assertThat(agent.run("今何時？").status()).isEqualTo(RunStatus.SUCCEEDED);

            List<SpanData> chats = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).toList();
            assertThat(chats).extracting(c -> c.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS))
                    .containsExactly(List.of("tool_calls"), List.of("stop"));
            assertThat(chats).extracting(c -> Json.parse(c.getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).at("/0/finish_reason").asText())
                    .containsExactly("tool_call", "stop");
            SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
            assertThat(Json.parse(run.getAttributes().get(GenAiConventions.OUTPUT_MESSAGES)).at("/0/finish_reason").asText()).isEqualTo("stop");
        }
    }

    /**
     * A provider name given for an OpenAI-compatible server (Groq, Azure OpenAI: "groq",
     * "azure.ai.openai") names the provider; the finish reasons are still those the server spoke,
     * Chat Completions' words, not the Messages API's.
     */
    @Test
    void aConfiguredProviderNameForAChatCompletionsServerKeepsChatCompletionsFinishReasons() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.toolCall("call_1", "get_current_time", "{}"));
            server.enqueue(ChatReply.text("今は昼です。"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("groq").build()
                    .install(priced(model).tools(BuiltinTools.currentTime(java.time.Clock.systemUTC()))).build();
            assertThat(agent.run("今何時？").status()).isEqualTo(RunStatus.SUCCEEDED);

            List<SpanData> chats = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).toList();
            assertThat(chats).allSatisfy(c -> assertThat(c.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("groq"));
            assertThat(chats).extracting(c -> c.getAttributes().get(GenAiConventions.RESPONSE_FINISH_REASONS))
                    .containsExactly(List.of("tool_calls"), List.of("stop"));
        }
    }

    @Test
    void aStreamedCallIsMarkedAsStreamingAndRecordsItsTimeToFirstChunk() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build().install(priced(model)).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);

            SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_STREAM)).isTrue();
            Double first = chat.getAttributes().get(GenAiConventions.RESPONSE_TIME_TO_FIRST_CHUNK);
            assertThat(first).isNotNull().isBetween(0.0, (chat.getEndEpochNanos() - chat.getStartEpochNanos()) / 1e9);

            var metric = OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_TIME_TO_FIRST_CHUNK))
                    .findFirst().orElseThrow(() -> new AssertionError("no time_to_first_chunk metric in " + OTEL.getMetrics()));
            assertThat(metric.getUnit()).isEqualTo("s");
            assertThat(metric.getHistogramData().getPoints()).singleElement().satisfies(p -> {
                assertThat(p.getCount()).isEqualTo(1);
                assertThat(p.getBoundaries()).containsExactlyElementsOf(GenAiConventions.OPERATION_DURATION_BUCKETS);
                assertThat(p.getAttributes().get(GenAiConventions.OPERATION_NAME)).isEqualTo("chat");
                assertThat(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
                assertThat(p.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("gpt-test");
            });
        }
    }

    @Test
    void eachChunkAfterTheFirstRecordsTheTimeSinceTheOneBeforeIt() {
        // the fake streams text in pieces of up to 8 code points: 24 code points are 3 chunks, so 2 later chunks
        String text = "こんにちは、今日はいい天気ですね。お元気ですか？";
        assertThat(text.codePointCount(0, text.length())).isEqualTo(24);
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text(text));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build().install(priced(model)).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);

            SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            var metric = OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_TIME_PER_OUTPUT_CHUNK))
                    .findFirst().orElseThrow(() -> new AssertionError("no time_per_output_chunk metric in " + OTEL.getMetrics()));
            assertThat(metric.getUnit()).isEqualTo("s");
            assertThat(metric.getHistogramData().getPoints()).singleElement().satisfies(p -> {
                assertThat(p.getCount()).isEqualTo(2);
                assertThat(p.getSum()).isBetween(0.0, (chat.getEndEpochNanos() - chat.getStartEpochNanos()) / 1e9);
                assertThat(p.getBoundaries()).containsExactlyElementsOf(GenAiConventions.OPERATION_DURATION_BUCKETS);
                assertThat(p.getAttributes().get(GenAiConventions.OPERATION_NAME)).isEqualTo("chat");
                assertThat(p.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
                assertThat(p.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo("gpt-test");
            });
        }
    }

    /**
     * Chat Completions streams a tool call as its id and name, then its arguments in fragments; rein-openai tells
     * the call's start and its first fragment from that one chunk. Two fragments are two chunks, so one time per
     * output chunk, not two (the start and the first fragment, the same chunk, were counted apart).
     */
    @Test
    void aToolCallsStartAndItsFirstArgumentsAreOneChunk() {
        String arguments = "{\"city\":\"Paris\"}"; // 16 code points: the fake sends them as 2 fragments of 8
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.toolCall("call_1", "lookup", arguments));
            server.enqueue(ChatReply.text("Sunny."));
            Tool lookup = Tool.builder("lookup").description("Looks up the weather.").handler((args, ctx) -> "sunny").build();
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build().install(priced(model).tools(lookup)).build();
            assertThat(agent.run("天気は？").status()).isEqualTo(RunStatus.SUCCEEDED);

            var metric = OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_TIME_PER_OUTPUT_CHUNK))
                    .findFirst().orElseThrow(() -> new AssertionError("no time_per_output_chunk metric in " + OTEL.getMetrics()));
            // the second call's text is one chunk: no point of its own
            assertThat(metric.getHistogramData().getPoints()).singleElement()
                    .satisfies(p -> assertThat(p.getCount()).as("points of the tool call's chunks").isEqualTo(1));
        }
    }

    /**
     * gen-ai-spans: gen_ai.request.seed is conditionally required "if applicable and if the request includes a seed",
     * on the inference span and on the invoke_agent span. A request carries one as rein-openai's OpenAiSeed option.
     */
    @Test
    void aRequestsSeedIsRecordedOnTheChatAndRunSpans() {
        AttributeKey<Long> seed = AttributeKey.longKey("gen_ai.request.seed");
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build()
                    .install(priced(model).modelOption(OpenAiSeed.of(42))).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(server.lastRequest().body().get("seed").asLong()).isEqualTo(42);

            SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            SpanData run = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent")).findFirst().orElseThrow();
            assertThat(chat.getAttributes().get(seed)).isEqualTo(42L);
            assertThat(run.getAttributes().get(seed)).isEqualTo(42L);
        }
    }

    /** A request without a seed has none: the provider's default is not Rein's to report. */
    @Test
    void aRequestWithoutASeedHasNone() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build().install(priced(model)).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(OTEL.getSpans()).allSatisfy(s -> assertThat(s.getAttributes().get(AttributeKey.longKey("gen_ai.request.seed"))).isNull());
        }
    }

    /**
     * A seed option is sent only by its own provider's models (ModelOption: a provider ignores the options it does not
     * know), so a model of another provider (here a scripted one, which names none) sends no seed and none is recorded.
     */
    @Test
    void aSeedTheCalledModelDoesNotSendIsNotRecorded() {
        Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build()
                .install(Agent.builder().model(ScriptedModel.of(ScriptedModel.text("Hello."))).modelName(ScriptedModel.DEFAULT_NAME)
                        .modelOption(OpenAiSeed.of(42))).build();
        assertThat(agent.run("hi").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(OTEL.getSpans()).isNotEmpty()
                .allSatisfy(s -> assertThat(s.getAttributes().get(AttributeKey.longKey("gen_ai.request.seed"))).isNull());
    }

    /** The agent over {@code model} as "gpt-test", with a price so that its money budget can be kept. */
    /**
     * gen-ai-spans: gen_ai.request.stream is conditionally required "if and only if the request is
     * streaming". rein-openai sends every request with "stream": true, so a call the server refused
     * before any chunk (HTTP 400) is a streamed request too and its span says so, not only a call
     * whose first chunk came.
     */
    @Test
    void aStreamedRequestRefusedBeforeAnyChunkIsStillMarkedStreamed() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.error(400, "invalid_request_error", "messages: 不正なリクエスト"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build().install(priced(model)).build();
            RunResult result = agent.run("挨拶して");
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(server.lastRequest().body().get("stream").asBoolean()).isTrue();

            SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            assertThat(chat.getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("invalid_request");
            assertThat(chat.getAttributes().get(GenAiConventions.REQUEST_STREAM)).isTrue();
            assertThat(chat.getAttributes().get(GenAiConventions.RESPONSE_TIME_TO_FIRST_CHUNK)).as("no chunk came").isNull();
        }
    }

    private static Agent.Builder priced(OpenAiModel model) {
        return Agent.builder().model(model).modelName("gpt-test")
                .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4")));
    }
}
