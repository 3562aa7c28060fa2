package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Who a run span is about: the agent's name, id, description and version, as the application gives them. */
class AgentIdentityTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static void run(ReinTelemetry telemetry) {
        telemetry.install(Agent.builder().model(ScriptedModel.of(text("Hello."))).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES)).build().run("say hello");
    }

    private static SpanData runSpan() {
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent ")).findFirst().orElseThrow();
    }

    /**
     * Invoke agent internal span: gen_ai.agent.description and gen_ai.agent.version "Conditionally Required when
     * available". gen_ai.agent.id was "Conditionally Required if applicable" up to semantic-conventions v1.41.0;
     * semantic-conventions-genai #242 removes it from internal agent spans (it names a hosted agent on the client
     * span). Rein's run span, INTERNAL, carried it; the id the application gives is now rein.agent.id.
     */
    @Test
    void theRunSpanCarriesTheAgentsIdDescriptionAndVersionWhenGiven() {
        run(ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").agentName("support-agent")
                .agentId("asst_5j66UpCpwteGg4YSxUnt7lPY").agentDescription("Answers questions about orders")
                .agentVersion("1.4.0").build());

        SpanData run = runSpan();
        assertThat(run.getName()).isEqualTo("invoke_agent support-agent");
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.name"))).isEqualTo("support-agent");
        assertThat(run.getKind()).isEqualTo(io.opentelemetry.api.trace.SpanKind.INTERNAL);
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.id"))).isNull();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("rein.agent.id"))).isEqualTo("asst_5j66UpCpwteGg4YSxUnt7lPY");
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.description"))).isEqualTo("Answers questions about orders");
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.version"))).isEqualTo("1.4.0");
    }

    @Test
    void unsetIdentityAttributesAreLeftOutAndBlankOnesRefused() {
        run(ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build());
        SpanData run = runSpan();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.id"))).isNull();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("rein.agent.id"))).isNull();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.description"))).isNull();
        assertThat(run.getAttributes().get(AttributeKey.stringKey("gen_ai.agent.version"))).isNull();

        assertThatThrownBy(() -> ReinTelemetry.builder(OTEL.getOpenTelemetry()).agentId(" ").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("agent id").hasMessageContaining("leave it unset");
        assertThatThrownBy(() -> ReinTelemetry.builder(OTEL.getOpenTelemetry()).agentDescription("").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("agent description");
    }
}
