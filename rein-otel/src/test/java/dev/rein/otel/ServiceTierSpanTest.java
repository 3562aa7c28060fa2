package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The service tier that served a call is on its chat span: as the conventions' openai.response.service_tier for
 * OpenAI, as rein.model.service_tier for any provider, with rein.model.pricing when the tier had no price.
 */
class ServiceTierSpanTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static Attributes chatSpan(String provider, String tier, String pricing) {
        return chatSpan(provider, tier, null, pricing);
    }

    private static Attributes chatSpan(String provider, String tier, String providerTier, String pricing) {
        RunListener listener = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName(provider).build()
                .listener().create("run-t");
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        ModelRequest request = ModelRequest.builder("m").messages(List.of(Message.user("hi"))).build();
        listener.onEvent(new TraceEvent.RunStarted("run-t", 0, t, "hi", "m", List.of(), Map.of()));
        listener.onEvent(new TraceEvent.ModelRequested("run-t", 1, t, "step", request));
        listener.onEvent(new TraceEvent.ModelResponded("run-t", 1, t.plusMillis(5),
                new ModelResponse("r", "m", List.of(new TextBlock("ok")), StopReason.END_TURN, null, Usage.of(1, 1, 0, 0),
                        null, "stop", tier, providerTier),
                Usage.of(1, 1, 0, 0), new BigDecimal("0.01"), new BigDecimal("0.01"), 5, pricing));
        listener.onEvent(new TraceEvent.RunFinished("run-t", 1, t.plusMillis(6), RunStatus.SUCCEEDED, "completed", null, "ok",
                Usage.of(1, 1, 0, 0), null));
        listener.close();
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow().getAttributes();
    }

    @Test
    void anOpenAiCallServedAtFlexHasTheConventionsAttributeAndReinsOwn() {
        Attributes chat = chatSpan("openai", "flex", null);
        assertThat(chat.get(AttributeKey.stringKey("openai.response.service_tier"))).isEqualTo("flex");
        assertThat(chat.get(AttributeKey.stringKey("rein.model.service_tier"))).isEqualTo("flex");
        assertThat(chat.get(AttributeKey.stringKey("rein.model.pricing"))).isNull();
    }

    @Test
    void anotherProvidersTierIsReinsOwnAttributeOnlyWithThePricingNoteWhenUnpriced() {
        Attributes chat = chatSpan("anthropic", "priority", "served at service tier 'priority', which ...");
        assertThat(chat.get(AttributeKey.stringKey("openai.response.service_tier"))).isNull();
        assertThat(chat.get(AttributeKey.stringKey("rein.model.service_tier"))).isEqualTo("priority");
        assertThat(chat.get(AttributeKey.stringKey("rein.model.pricing"))).startsWith("served at service tier 'priority'");
        assertThat(chat.get(GenAiConventions.OPENAI_API_TYPE)).isNull();
    }

    /**
     * The standard tier is no tier for pricing (rein.model.service_tier is absent), but the conventions' attribute is
     * "the service tier used for the response", with "default" among its examples: it says what OpenAI sent.
     */
    @Test
    void aCallAtTheStandardTierHasTheConventionsAttributeAsOpenAiNamedItButNoPricingTier() {
        Attributes chat = chatSpan("openai", null, "default", null);
        assertThat(chat.get(AttributeKey.stringKey("openai.response.service_tier"))).isEqualTo("default");
        assertThat(chat.get(AttributeKey.stringKey("rein.model.service_tier"))).isNull();
    }

    /** The tier the points of the client metrics named {@code metric} have; each point has the same. */
    private static List<String> metricTiers(String metric) {
        return OTEL.getMetrics().stream().filter(m -> m.getName().equals(metric))
                .flatMap(m -> m.getHistogramData().getPoints().stream())
                .map(p -> String.valueOf(p.getAttributes().get(AttributeKey.stringKey("openai.response.service_tier"))))
                .toList();
    }

    /**
     * The conventions' OpenAI metrics add openai.response.service_tier (recommended) to gen_ai.client.token.usage and
     * gen_ai.client.operation.duration: an OpenAI call's points have the tier as OpenAI named it; another provider's none.
     */
    @Test
    void anOpenAiCallsTokenAndDurationPointsHaveTheTierThatServedIt() {
        chatSpan("openai", null, "default", null);
        assertThat(metricTiers(GenAiConventions.METRIC_TOKEN_USAGE)).containsExactly("default", "default");
        assertThat(metricTiers(GenAiConventions.METRIC_OPERATION_DURATION)).containsExactly("default");
    }

    @Test
    void anotherProvidersPointsHaveNoOpenAiTier() {
        chatSpan("anthropic", "priority", null);
        assertThat(metricTiers(GenAiConventions.METRIC_TOKEN_USAGE)).containsExactly("null", "null");
        assertThat(metricTiers(GenAiConventions.METRIC_OPERATION_DURATION)).containsExactly("null");
    }

    @Test
    void aCallThatNamedNoTierHasNoTierAttribute() {
        Attributes chat = chatSpan("openai", null, null);
        assertThat(chat.get(AttributeKey.stringKey("openai.response.service_tier"))).isNull();
        assertThat(chat.get(AttributeKey.stringKey("rein.model.service_tier"))).isNull();
    }

    /** A trace written before providerServiceTier (or a Model that gives only the tier) still shows its tier. */
    @Test
    void aResponseWithOnlyItsPricingTierStillHasTheConventionsAttribute() {
        Attributes chat = chatSpan("openai", "flex", null, null);
        assertThat(chat.get(AttributeKey.stringKey("openai.response.service_tier"))).isEqualTo("flex");
        // nor does such a trace have a system fingerprint: none is set; nor an API type, as no model said which API it
        // calls (these events reach the listener with no call through a model), and the provider's name does not tell
        assertThat(chat.get(GenAiConventions.OPENAI_RESPONSE_SYSTEM_FINGERPRINT)).isNull();
        assertThat(chat.get(GenAiConventions.OPENAI_API_TYPE)).isNull();
    }
}
