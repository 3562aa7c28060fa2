package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.openai.OpenAiModel;
import dev.rein.run.RunStatus;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenAI attributes of the conventions (their OpenAI page) on a call through the real OpenAI provider to the
 * testkit's Chat Completions server: {@code openai.response.system_fingerprint} and {@code openai.api.type} on the chat
 * span, the fingerprint (not the API type) on the token and duration metrics, and neither when the provider is not
 * {@code openai}, as {@code openai.response.service_tier} is decided.
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
            server.enqueue(ChatReply.text("こんにちは。"));
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
}
