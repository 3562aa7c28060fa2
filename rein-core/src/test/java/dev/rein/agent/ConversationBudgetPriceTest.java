package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetMeter;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Usage;
import dev.rein.reflection.Reflection;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** A conversation budget's money limit is refused, like the run budget's, when the model has no price. */
class ConversationBudgetPriceTest {
    /** A per-turn budget without a money limit, so only the conversation budget's limit is in question. */
    private static final Budget NO_MONEY = Budget.builder().maxCostUsd((BigDecimal) null).build();

    private static Agent.Builder unpriced(ScriptedModel model) {
        return Agent.builder().model(model).modelName("mystery-model").prices(PriceTable.empty()).budget(NO_MONEY);
    }

    @Test
    void aMoneyLimitInTheConversationBudgetOnAnUnpricedModelFailsAtBuild() {
        Agent.Builder builder = unpriced(ScriptedModel.of(text("hi")))
                .conversationBudget(Budget.builder().maxCostUsd("0.50").build());
        assertThatThrownBy(builder::build).isInstanceOf(ReinException.class)
                .hasMessageContaining("no price is known for model 'mystery-model'")
                .hasMessageContaining("the conversation budget's USD 0.50 limit cannot be enforced")
                .hasMessageContaining("price(\"mystery-model\", ModelPrice.of(")
                .hasMessageContaining("conversationBudget(...)");
    }

    @Test
    void theSameLimitBuildsWithAPriceOrWithoutTheMoneyLimit() {
        Budget withMoney = Budget.builder().maxCostUsd("0.50").build();
        assertThatCode(() -> unpriced(ScriptedModel.of(text("hi"))).conversationBudget(withMoney)
                .price("mystery-model", ModelPrice.of("0", "0", "0")).build()).doesNotThrowAnyException();
        Agent agent = unpriced(ScriptedModel.of(text("one"), text("two"))).store(new InMemoryRunStore())
                .conversationBudget(Budget.builder().maxCostUsd((BigDecimal) null).maxSteps(5).build()).build();
        RunResult first = agent.run("go");
        assertThat(agent.reply(first.runId(), "again").status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /**
     * The same refusal the meter makes inside a run (a fallback's model without a price) is a ConfigurationException;
     * build()'s was a plain ReinException, so a caller telling a setting that cannot work from other errors missed it.
     */
    @Test
    void theBuildTimeRefusalOfAnUnpricedModelIsAConfigurationException() {
        assertThatThrownBy(() -> unpriced(ScriptedModel.of(text("hi"))).budget(Budget.defaults()).build())
                .isInstanceOf(dev.rein.ConfigurationException.class);
        assertThatThrownBy(() -> unpriced(ScriptedModel.of(text("hi")))
                .conversationBudget(Budget.builder().maxCostUsd("0.50").build()).build())
                .isInstanceOf(dev.rein.ConfigurationException.class);
    }

    @Test
    void theRunBudgetOnAnUnpricedModelIsStillRefusedAsBefore() {
        assertThatThrownBy(() -> unpriced(ScriptedModel.of(text("hi"))).budget(Budget.defaults()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("no price is known for model 'mystery-model'")
                .hasMessageContaining("the USD 1.00 budget cannot be enforced").hasMessageContaining("remove the money budget");
    }

    @Test
    void anUnpricedCriticModelIsRefusedUnderAConversationMoneyLimitToo() {
        Agent.Builder builder = Agent.builder().model(ScriptedModel.of(text("hi"))).budget(NO_MONEY)
                .reflection(Reflection.critic(ScriptedModel.of(text("ok")), "mystery-critic"))
                .conversationBudget(Budget.builder().maxCostUsd("2").build());
        assertThatThrownBy(builder::build).isInstanceOf(ReinException.class)
                .hasMessageContaining("no price is known for the critic's model 'mystery-critic'")
                .hasMessageContaining("the conversation budget's USD 2 limit");
    }

    @Test
    void aMeterRefusesAConversationMoneyLimitItCannotPrice() {
        Clock clock = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);
        BudgetMeter meter = new BudgetMeter(NO_MONEY, PriceTable.empty(), "mystery-model", clock, Instant.EPOCH);
        assertThatThrownBy(() -> meter.startTurn(0, Usage.ZERO, BigDecimal.ZERO, 0,
                Budget.builder().maxCostUsd("0.50").build())).isInstanceOf(ReinException.class)
                .hasMessageContaining("mystery-model").hasMessageContaining("conversation budget's USD 0.50 limit");
        meter.startTurn(0, Usage.ZERO, BigDecimal.ZERO, 0, NO_MONEY);
        assertThat(meter.check()).isEmpty();
    }
}
