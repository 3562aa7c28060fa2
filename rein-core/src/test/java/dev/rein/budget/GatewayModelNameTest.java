package dev.rein.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/**
 * A gateway's name for a vendor's model ({@code openai/gpt-5}, {@code anthropic/claude-sonnet-4.5}, as OpenRouter names
 * them) finds the vendor's row only in a table whose rows say they are that vendor's ({@link PriceTable#ofVendor}); any
 * other prefix, or a table of no vendor, leaves it unpriced rather than priced at a row of another maker's model.
 */
class GatewayModelNameTest {
    private static final ModelPrice GPT = ModelPrice.of("1.25", "0.125", "10.00");
    private static final ModelPrice SONNET = ModelPrice.of("3.00", "0.30", "15.00");
    private static final ModelPrice GPT41 = ModelPrice.of("2.00", "0.50", "8.00");

    private static final PriceTable OPENAI = PriceTable.empty().with("gpt-5", GPT).with("gpt-4.1", GPT41).ofVendor("openai");
    private static final PriceTable ANTHROPIC = PriceTable.empty().with("claude-sonnet-4-5", SONNET).ofVendor("anthropic");

    @Test
    void aGatewaysNameForAVendorsModelFindsThatVendorsRow() {
        PriceTable all = OPENAI.withAll(ANTHROPIC);
        assertThat(all.find("openai/gpt-5")).contains(GPT);
        assertThat(all.find("openai/gpt-4.1")).contains(GPT41);
        // a dated id behind the prefix, as without it
        assertThat(all.find("openai/gpt-5-2025-08-07")).contains(GPT);
        // OpenRouter writes Anthropic's version with a dot: claude-sonnet-4.5 is the row claude-sonnet-4-5
        assertThat(all.find("anthropic/claude-sonnet-4.5")).contains(SONNET);
        assertThat(all.find("anthropic/claude-sonnet-4-5")).contains(SONNET);
    }

    @Test
    void anotherVendorsPrefixOrATableOfNoVendorLeavesItUnpriced() {
        PriceTable all = OPENAI.withAll(ANTHROPIC);
        assertThat(all.find("anthropic/gpt-5")).isEmpty();
        assertThat(all.find("azure/gpt-5")).isEmpty();
        assertThat(all.find("openai/gpt-5-pro")).isEmpty(); // another model, as without the prefix
        assertThat(all.find("openai/gpt-4-1")).isEmpty(); // a dot read as a hyphen only where the row has none
        assertThat(all.find("x/openai/gpt-5")).isEmpty();
        // a dot read as a hyphen only between digits, where a version has it: not a name that merely holds a dot
        assertThat(all.find("openai/gpt.5")).isEmpty();
        assertThat(all.find("anthropic/claude-sonnet.4.5")).isEmpty();
        assertThat(PriceTable.empty().with("gpt-5", GPT).find("openai/gpt-5")).isEmpty();
        // an exact row of the gateway's own name wins
        ModelPrice own = ModelPrice.of("2", "0.2", "20");
        assertThat(all.with("openai/gpt-5", own).find("openai/gpt-5")).contains(own);
    }

    @Test
    void aRepricedRowKeepsItsVendor() {
        ModelPrice cheaper = ModelPrice.of("1", "0.1", "8");
        assertThat(OPENAI.with("gpt-5", cheaper).find("openai/gpt-5")).contains(cheaper);
        assertThat(PriceTable.empty().with("gpt-5", cheaper).withAll(OPENAI).find("openai/gpt-5")).contains(GPT);
    }

    @Test
    void aVendorNameThatCannotBeAPrefixIsRefused() {
        assertThatThrownBy(() -> PriceTable.empty().ofVendor(" ")).isInstanceOf(ReinException.class)
                .hasMessageContaining("vendor");
        assertThatThrownBy(() -> PriceTable.empty().ofVendor("open/ai")).isInstanceOf(ReinException.class)
                .hasMessageContaining("'/'");
    }

    /**
     * An agent named with a gateway's name is priced by the vendor's row; its table is the one given, with no row added
     * under that name (rein-temporal sends the workflow the agent's model's price under its name itself:
     * TemporalBudgetTest.aGatewaysModelNamePricedAtItsVendorsRowIsPricedInTheWorkflowAsLocally).
     */
    @Test
    void anAgentNamedWithAGatewaysNameIsPricedByItsVendorsRow() {
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.text("hi"))).modelName("openai/gpt-5")
                .prices(OPENAI).budget(Budget.builder().maxCostUsd("1.00").build()).build();
        assertThat(agent.config().prices().entries()).doesNotContainKey("openai/gpt-5");
        assertThat(agent.config().prices().find("openai/gpt-5")).contains(GPT);
        RunResult result = agent.run("go");
        // ScriptedModel's usage: 100 input, 20 output tokens at 1.25 and 10.00 per million
        assertThat(result.costUsd()).isEqualByComparingTo("0.000325");
    }
}
