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
}
