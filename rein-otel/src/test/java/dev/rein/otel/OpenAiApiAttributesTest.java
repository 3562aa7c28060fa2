package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.openai.OpenAiModel;
import dev.rein.provider.ModelDefaults;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FallbackStage;
import dev.rein.testkit.ScriptedModel;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import dev.rein.tool.Tool;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OpenAI attributes of the conventions (their OpenAI page) on a call through the real OpenAI provider to the
 * testkit's Chat Completions server: {@code openai.response.system_fingerprint} and {@code openai.api.type} on the chat
 * span, the fingerprint (not the API type) on the token and duration metrics, and neither when the provider is not
 * {@code openai}, as {@code openai.response.service_tier} is decided. The API type is the one the model the call reached
 * says it speaks ({@link ModelDefaults#apiType()}): none for a model that does not say, whatever it names its provider.
 */
class OpenAiApiAttributesTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final AttributeKey<String> FINGERPRINT = AttributeKey.stringKey("openai.response.system_fingerprint");
    private static final AttributeKey<String> API_TYPE = AttributeKey.stringKey("openai.api.type");

    private static Attributes chatSpan() {
        return OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow().getAttributes();
    }

    /** The attributes of every point of the metric named {@code metric}. */
    private static List<Attributes> points(String metric) {
        return OTEL.getMetrics().stream().filter(m -> m.getName().equals(metric))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).map(p -> p.getAttributes()).toList();
    }

    private static Agent agent(ReinTelemetry.Builder telemetry, OpenAiModel model) {
        return telemetry.build().install(Agent.builder().model(model).modelName("gpt-test")
                .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4")))).build();
    }

    @Test
    void anOpenAiCallHasTheFingerprintAndTheApiTypeOnItsSpanAndTheFingerprintOnItsTokenAndDurationPoints() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            // the fake streams text in pieces of up to 8 code points: 17 are 3 chunks, so time_per_output_chunk has points
            server.enqueue(ChatReply.text("こんにちは、今日はいい天気ですね。"));
            // no provider name configured: the model's own, openai
            assertThat(agent(ReinTelemetry.builder(OTEL.getOpenTelemetry()), model).run("挨拶して").status())
                    .isEqualTo(RunStatus.SUCCEEDED);

            Attributes chat = chatSpan();
            assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
            assertThat(chat.get(FINGERPRINT)).isEqualTo(FakeChatCompletionsServer.SYSTEM_FINGERPRINT);
            assertThat(chat.get(API_TYPE)).isEqualTo("chat_completions");
            // the conventions' OpenAI metrics add the fingerprint (recommended) to these two, and not the API type
            assertThat(points(GenAiConventions.METRIC_TOKEN_USAGE)).hasSize(2).allSatisfy(p -> {
                assertThat(p.get(FINGERPRINT)).isEqualTo(FakeChatCompletionsServer.SYSTEM_FINGERPRINT);
                assertThat(p.get(API_TYPE)).isNull();
            });
            assertThat(points(GenAiConventions.METRIC_OPERATION_DURATION)).singleElement().satisfies(p -> {
                assertThat(p.get(FINGERPRINT)).isEqualTo(FakeChatCompletionsServer.SYSTEM_FINGERPRINT);
                assertThat(p.get(API_TYPE)).isNull();
            });
            // the streaming metrics take neither (the conventions list them for those two only)
            assertThat(points(GenAiConventions.METRIC_TIME_TO_FIRST_CHUNK)).isNotEmpty()
                    .allSatisfy(p -> assertThat(p.get(FINGERPRINT)).isNull());
            assertThat(points(GenAiConventions.METRIC_TIME_PER_OUTPUT_CHUNK)).isNotEmpty()
                    .allSatisfy(p -> assertThat(p.get(FINGERPRINT)).isNull());
        }
    }

    /** A failed call has no response to name a fingerprint, but it was made to the Chat Completions API all the same. */
    @Test
    void aFailedOpenAiCallHasTheApiTypeButNoFingerprint() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.error(400, "invalid_request_error", "messages: 不正なリクエスト"));
            assertThat(agent(ReinTelemetry.builder(OTEL.getOpenTelemetry()), model).run("挨拶して").status())
                    .isEqualTo(RunStatus.FAILED);

            Attributes chat = chatSpan();
            assertThat(chat.get(GenAiConventions.ERROR_TYPE)).isEqualTo("invalid_request");
            assertThat(chat.get(API_TYPE)).isEqualTo("chat_completions");
            assertThat(chat.get(FINGERPRINT)).isNull();
            assertThat(points(GenAiConventions.METRIC_OPERATION_DURATION)).singleElement()
                    .satisfies(p -> assertThat(p.get(FINGERPRINT)).isNull());
        }
    }

    /** A provider name given for a compatible server (Groq's) is not OpenAI: the OpenAI attributes are left out. */
    @Test
    void anotherProvidersCallHasNeitherOnItsSpanNorOnItsPoints() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            assertThat(agent(ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("groq"), model).run("挨拶して")
                    .status()).isEqualTo(RunStatus.SUCCEEDED);

            Attributes chat = chatSpan();
            assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("groq");
            assertThat(chat.get(FINGERPRINT)).isNull();
            assertThat(chat.get(API_TYPE)).isNull();
            assertThat(points(GenAiConventions.METRIC_TOKEN_USAGE)).hasSize(2).allSatisfy(p -> assertThat(p.get(FINGERPRINT)).isNull());
            assertThat(points(GenAiConventions.METRIC_OPERATION_DURATION)).singleElement()
                    .satisfies(p -> assertThat(p.get(FINGERPRINT)).isNull());
        }
    }

    /**
     * A model of the application's own that names its provider {@code openai} and says it calls API {@code apiType} (its
     * accessor is {@link ModelDefaults#apiType()}; null: it says nothing of the API it calls).
     */
    private record OwnOpenAiModel(ScriptedModel script, String apiType) implements Model, ModelDefaults {
        OwnOpenAiModel(ScriptedModel script) {
            this(script, null);
        }

        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
            return script.call(request, context);
        }

        @Override
        public String defaultModelName() {
            return "gpt-test";
        }

        @Override
        public PriceTable prices() {
            return PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4"));
        }

        @Override
        public String providerName() {
            return "openai";
        }
    }

    /**
     * A model of one's own naming provider {@code openai} may call the Responses API, or another: it says no API type, so
     * the span has none rather than rein-openai's, answered or failed (the OpenAI attributes its response names it keeps).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aModelOfOnesOwnNamingProviderOpenAiThatSaysNoApiTypeGetsNone(boolean answers) {
        ScriptedModel script = ScriptedModel.of(answers ? ScriptedModel.text("Hi.")
                : ScriptedModel.fail(new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "bad request")));
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(new OwnOpenAiModel(script))).build();
        assertThat(agent.run("say hi").status()).isEqualTo(answers ? RunStatus.SUCCEEDED : RunStatus.FAILED);

        Attributes chat = chatSpan();
        assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
        assertThat(chat.get(API_TYPE)).isNull();
    }

    /** A model of one's own naming provider {@code openai} that says it calls the Responses API has that API type. */
    @Test
    void aModelOfOnesOwnNamingProviderOpenAiThatSaysResponsesGetsResponses() {
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(new OwnOpenAiModel(ScriptedModel.of(ScriptedModel.text("Hi.")), "responses"))).build();
        assertThat(agent.run("say hi").status()).isEqualTo(RunStatus.SUCCEEDED);

        Attributes chat = chatSpan();
        assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
        assertThat(chat.get(API_TYPE)).isEqualTo("responses");
    }

    /**
     * Whether a tool call's start and its first arguments are one chunk is the API's way of streaming, not the provider's
     * name: a model naming provider {@code openai} that says no API type (it may call the Responses API, whose
     * {@code response.output_item.added} is an event of its own) has them counted as two chunks, as the testkit's model
     * streams them (one time per output chunk); one that says {@code chat_completions} has them counted as one (none).
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "chat_completions"})
    void aToolCallsStartAndFirstArgumentsAreOneChunkOnlyForAModelThatSaysChatCompletions(String apiType) {
        ScriptedModel script = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup", "{}")), ScriptedModel.text("Done."));
        Tool lookup = Tool.builder("lookup").description("Looks up.").handler((args, ctx) -> "found").build();
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(new OwnOpenAiModel(script, apiType.isEmpty() ? null : apiType)).tools(lookup)).build();
        assertThat(agent.run("look it up").status()).isEqualTo(RunStatus.SUCCEEDED);

        long laterChunks = OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_TIME_PER_OUTPUT_CHUNK))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).mapToLong(p -> p.getCount()).sum();
        assertThat(laterChunks).isEqualTo(apiType.isEmpty() ? 1 : 0);
    }

    /**
     * A call to rein-openai's model that a stage moves to a model naming no provider keeps the span's provider
     * {@code openai} (the call began there), but its last attempt went to a model that says no API type: none is set.
     */
    @Test
    void aFallbackFromOpenAiToAModelThatSaysNoApiTypeHasNone() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.error(400, "invalid_request_error", "messages: 不正なリクエスト"));
            ScriptedModel backup = ScriptedModel.of(ScriptedModel.text("こんにちは。"));
            Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(model).modelName("gpt-test")
                            .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4"))))
                    .modelInterceptor(FallbackStage.of(call -> call.withModel(backup))).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);

            Attributes chat = chatSpan();
            assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
            assertThat(chat.get(API_TYPE)).isNull();
        }
    }
    /**
     * The OpenAI attributes of an answer are decided by the model that answered, not by the provider the span names: a
     * call rein-openai's model failed and a stage moved to a model naming no provider keeps the span's {@code openai},
     * but the answer is that model's, so its fingerprint and tier (its own words, whatever it means by them) are not
     * reported as OpenAI's, on the span nor on the metrics; Rein's own {@code rein.model.service_tier} still says the tier.
     */
    @Test
    void aFallbackFromOpenAiToAModelNamingNoProviderDoesNotReportItsAnswerAsOpenAis() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.error(400, "invalid_request_error", "messages: 不正なリクエスト"));
            Model backup = (request, context) -> new ModelResponse("r-1", "local-model",
                    List.of(new dev.rein.model.TextBlock("こんにちは。")), dev.rein.model.StopReason.END_TURN, null,
                    dev.rein.model.Usage.of(3, 2, 0, 0), null, "stop", "priority", "priority", "fp_local");
            Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(model).modelName("gpt-test")
                            .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4"))))
                    .modelInterceptor(FallbackStage.of(call -> call.withModel(backup))).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);

            Attributes chat = chatSpan();
            assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
            assertThat(chat.get(FINGERPRINT)).isNull();
            assertThat(chat.get(GenAiConventions.OPENAI_RESPONSE_SERVICE_TIER)).isNull();
            assertThat(chat.get(ReinConventions.MODEL_SERVICE_TIER)).isEqualTo("priority");
            assertThat(points(GenAiConventions.METRIC_OPERATION_DURATION)).allSatisfy(p -> {
                assertThat(p.get(FINGERPRINT)).isNull();
                assertThat(p.get(GenAiConventions.OPENAI_RESPONSE_SERVICE_TIER)).isNull();
            });
        }
    }

    /**
     * The way back: a call a stage moved from a model naming no provider to rein-openai's is answered by OpenAI, so the
     * answer's fingerprint is OpenAI's (the span learns provider {@code openai} from the model the call reached).
     */
    @Test
    void aFallbackToOpenAiReportsItsAnswerAsOpenAis() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            ScriptedModel first = ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "bad request")));
            Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder().model(first).modelName("gpt-test")
                            .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4"))))
                    .modelInterceptor(FallbackStage.of(call -> call.withModel(model))).build();
            assertThat(agent.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);

            Attributes chat = chatSpan();
            assertThat(chat.get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
            assertThat(chat.get(FINGERPRINT)).isEqualTo(FakeChatCompletionsServer.SYSTEM_FINGERPRINT);
            assertThat(chat.get(API_TYPE)).isEqualTo("chat_completions");
        }
    }

    /**
     * A replay of an OpenAI run sends no request, and the JSONL trace keeps no API type (only the responses): its chat
     * spans have no {@code openai.api.type}, while the recorded answer's fingerprint, which the trace keeps as it keeps
     * the usage, is on them as on the recorded run's.
     */
    @Test
    void aReplayedOpenAiCallHasTheRecordedFingerprintButNoApiType(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.nio.file.Path trace = dir.resolve("run.jsonl");
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            Agent recorded = Agent.builder().model(model).modelName("gpt-test")
                    .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4")))
                    .listener(dev.rein.trace.JsonlTraceListener.to(trace)).build();
            assertThat(recorded.run("挨拶して").status()).isEqualTo(RunStatus.SUCCEEDED);

            dev.rein.replay.ReplayReport report = dev.rein.replay.Replay.from(trace)
                    .replay(agent(ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("openai"), model));
            assertThat(report.result().status()).isEqualTo(RunStatus.SUCCEEDED);

            io.opentelemetry.sdk.trace.data.SpanData chat = OTEL.getSpans().stream()
                    .filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            assertThat(chat.getAttributes().get(ReinConventions.REPLAY)).isTrue();
            assertThat(chat.getAttributes().get(GenAiConventions.PROVIDER_NAME)).isEqualTo("openai");
            assertThat(chat.getAttributes().get(FINGERPRINT)).isEqualTo(FakeChatCompletionsServer.SYSTEM_FINGERPRINT);
            assertThat(chat.getAttributes().get(API_TYPE)).isNull();
        }
    }
}
