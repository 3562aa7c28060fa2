package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.openai.OpenAiModel;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordedRequest;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A run over the OpenAI-compatible provider: the HTTP request it sends carries the chat span's traceparent. */
class OpenAiTraceparentTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void theChatCompletionsRequestCarriesTheChatSpansTraceparent() {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).apiKey("test-key").build()) {
            server.enqueue(ChatReply.text("こんにちは。"));
            Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("openai").build()
                    .install(Agent.builder().model(model).modelName("gpt-test")
                            .prices(PriceTable.empty().with("gpt-test", ModelPrice.of("1", "0.1", "4")))).build();
            RunResult result = agent.run("挨拶して");
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);

            SpanData chat = OTEL.getSpans().stream().filter(s -> s.getName().equals("chat gpt-test")).findFirst().orElseThrow();
            RecordedRequest sent = server.lastRequest();
            assertThat(sent.header("traceparent")).isEqualTo("00-" + chat.getTraceId() + "-" + chat.getSpanId()
                    + "-" + chat.getSpanContext().getTraceFlags().asHex());
            assertThat(sent.body().toString()).doesNotContain("traceparent");
        }
    }
}
