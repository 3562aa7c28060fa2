package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * A model with no price, under no money limit (the default USD 1.00 one refuses it at build), has its calls counted as USD 0: the run's
 * first model_response says so in {@code pricing}, once, whether its name is a gateway's ({@code openai/gpt-5.1}, no
 * row of OpenAI's) or any other. Before, nothing said so: the run's cost was silently zero.
 */
class UnpricedModelNoteTest {
    private static final PriceTable OPENAI = PriceTable.empty().with("gpt-5", ModelPrice.of("1.25", "0.125", "10.00"))
            .ofVendor("openai");

    private static RecordingListener run(String modelName) {
        RecordingListener trace = new RecordingListener();
        Tool lookup = Tool.builder("lookup").description("Looks an order up.").handler((a, c) -> "delivered").build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup", "{}")),
                ScriptedModel.text("A-1 is delivered"));
        Agent.builder().model(model).modelName(modelName).prices(OPENAI).tools(lookup)
                .budget(Budget.builder().maxCostUsd((java.math.BigDecimal) null).build()).listener(trace)
                .build().run("where is A-1?");
        return trace;
    }

    @Test
    void aGatewaysNameWithNoRowIsNotedOnTheRunsFirstResponse() {
        assertThat(run("openai/gpt-5.1").events(TraceEvent.ModelResponded.class)).extracting(TraceEvent.ModelResponded::pricing)
                .containsExactly("no price is known for model 'openai/gpt-5.1': its calls are counted as USD 0 in the run's"
                        + " cost. Add it with price(\"openai/gpt-5.1\", ModelPrice.of(input, cacheRead, output)) on the agent"
                        + " builder (ModelPrice.of(\"0\", \"0\", \"0\") for a model that costs nothing, such as a local one)", null);
    }

    @Test
    void anyOtherUnpricedModelIsNotedAlike() {
        assertThat(run("my-local-llm").events(TraceEvent.ModelResponded.class)).extracting(TraceEvent.ModelResponded::pricing)
                .first().asString().startsWith("no price is known for model 'my-local-llm': its calls are counted as USD 0");
        assertThat(run("my-local-llm").events(TraceEvent.ModelResponded.class)).extracting(TraceEvent.ModelResponded::pricing)
                .last().isNull();
    }

    @Test
    void aPricedModelHasNoNote() {
        assertThat(run("openai/gpt-5").events(TraceEvent.ModelResponded.class)).extracting(TraceEvent.ModelResponded::pricing)
                .containsOnlyNulls();
    }
    /**
     * The run's first call went to a priced backup (a stage's choice) and the unpriced agent model answers only later: it
     * is noted at its own first call, though the run has counted usage by then. Before, it was never noted.
     */
    @Test
    void theAgentsModelIsNotedAtItsFirstCallWhenAPricedBackupAnsweredFirst() {
        RecordingListener trace = new RecordingListener();
        Tool lookup = Tool.builder("lookup").description("Looks an order up.").handler((a, c) -> "delivered").build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup", "{}")),
                ScriptedModel.text("A-1 is delivered"));
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.rein.model.ModelInterceptor firstToBackup = (call, chain) -> calls.getAndIncrement() == 0
                ? chain.proceed(call.withRequest(call.request().withModel("gpt-5"))) : chain.proceed(call);
        Agent.builder().model(model).modelName("my-local-llm").prices(OPENAI).tools(lookup)
                .budget(Budget.builder().maxCostUsd((java.math.BigDecimal) null).build()).listener(trace)
                .modelInterceptor(firstToBackup).build().run("where is A-1?");
        assertThat(trace.events(TraceEvent.ModelResponded.class)).extracting(TraceEvent.ModelResponded::pricing)
                .element(0).isNull();
        assertThat(trace.events(TraceEvent.ModelResponded.class)).extracting(TraceEvent.ModelResponded::pricing)
                .element(1).asString().startsWith("no price is known for model 'my-local-llm': its calls are counted as USD 0");
    }
    /**
     * A meter restored with usage (a resumed run, a later step on Temporal) does not name the agent's own model again; a
     * fallback is named again at its first call there, as the run keeps no record of the models it named (what
     * docs/openai.md says). Pins that wording: it held on the old code too.
     */
    @Test
    void aRestoredMetersNotesAreWhatTheDocsSay() {
        dev.rein.budget.BudgetMeter meter = new dev.rein.budget.BudgetMeter(Budget.builder().maxCostUsd((java.math.BigDecimal) null)
                .build(), OPENAI, "my-local-llm", java.time.Clock.systemUTC(), java.time.Instant.now());
        meter.restore(1, dev.rein.model.Usage.of(10, 5, 0, 0), java.math.BigDecimal.ZERO);
        meter.record(dev.rein.model.Usage.of(10, 5, 0, 0), null, null, "my-local-llm");
        meter.record(dev.rein.model.Usage.of(10, 5, 0, 0), null, null, "backup-llm");
        meter.record(dev.rein.model.Usage.of(10, 5, 0, 0), null, null, "backup-llm");
        assertThat(meter.takeUnpricedModels()).containsExactly("backup-llm");
    }
}
