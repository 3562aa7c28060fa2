package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reply continues an ended run as a new segment (agent.reply, rein reply). docs/observability.md:
 * "invoke_agent {agent} — INTERNAL, one per run segment"; gen_ai.request.model "on every segment";
 * a segment that continues a run has "a link to the previous segment's span".
 */
class ReplySegmentTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void aReplysRunSpanHasTheModelAndLinksToThePreviousSegment() {
        Agent agent = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").captureContent(true).build()
                .install(Agent.builder().model(ScriptedModel.of(text("A-1 has shipped."), text("B-2 ships tomorrow.")))
                        .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build();
        RunResult first = agent.run("where is A-1?");
        RunResult second = agent.reply(first.runId(), "and B-2?");
        assertThat(second.status()).isEqualTo(RunStatus.SUCCEEDED);

        List<SpanData> runs = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent "))
                .sorted(Comparator.comparing(SpanData::getStartEpochNanos)).toList();
        assertThat(runs).hasSize(2);
        SpanData reply = runs.get(1);
        assertThat(reply.getAttributes().get(GenAiConventions.CONVERSATION_ID)).isEqualTo(first.runId());
        assertThat(reply.getAttributes().get(GenAiConventions.REQUEST_MODEL)).as("the model, on every segment")
                .isEqualTo(ScriptedModel.DEFAULT_NAME);
        assertThat(reply.getLinks()).as("the link to the segment it continues").singleElement()
                .satisfies(link -> assertThat(link.getSpanContext().getSpanId()).isEqualTo(runs.get(0).getSpanId()));
        assertThat(reply.getAttributes().get(ReinConventions.RUN_RESUMED_FROM)).isEqualTo("SUCCEEDED");
        assertThat(reply.getAttributes().get(GenAiConventions.INPUT_MESSAGES)).as("opted in: the reply is the segment's input")
                .contains("and B-2?");
    }

    /**
     * docs/observability.md: the budget limits "on every segment". A reply's segment had none: its turn_started did
     * not carry them; it does now (the replying agent's limits, which may differ from the first segment's).
     */
    @Test
    void aReplysRunSpanHasTheBudgetLimitsOfTheAgentThatReplied() {
        Agent.Builder builder = Agent.builder().model(ScriptedModel.of(text("A-1 has shipped."), text("B-2 ships tomorrow.")))
                .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).store(new dev.rein.state.InMemoryRunStore());
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).build();
        Agent first = telemetry.install(builder.budget(dev.rein.budget.Budget.builder().maxSteps(5).build())).build();
        RunResult run = first.run("where is A-1?");
        Agent replying = telemetry.install(builder.budget(dev.rein.budget.Budget.builder().maxSteps(7)
                .maxCostUsd(new java.math.BigDecimal("0.25")).build())).build();
        assertThat(replying.reply(run.runId(), "and B-2?").status()).isEqualTo(RunStatus.SUCCEEDED);

        List<SpanData> runs = OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent "))
                .sorted(Comparator.comparing(SpanData::getStartEpochNanos)).toList();
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).getAttributes().get(ReinConventions.BUDGET_MAX_STEPS)).isEqualTo(5L);
        SpanData reply = runs.get(1);
        assertThat(reply.getAttributes().get(ReinConventions.BUDGET_MAX_STEPS)).as("the replying agent's limits").isEqualTo(7L);
        assertThat(reply.getAttributes().get(ReinConventions.BUDGET_MAX_COST_USD)).isEqualTo(0.25);
        assertThat(reply.getAttributes().get(GenAiConventions.REQUEST_MODEL)).isEqualTo(ScriptedModel.DEFAULT_NAME);
    }
}
