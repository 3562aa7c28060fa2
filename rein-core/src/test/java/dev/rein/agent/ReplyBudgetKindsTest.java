package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/**
 * docs/memory.md: the agent's budget applies to each turn, counted from the turn's start (steps,
 * tokens, cost), and the conversation budget to all turns together, for every kind of limit.
 */
class ReplyBudgetKindsTest {
    private final InMemoryRunStore store = new InMemoryRunStore();

    private static ScriptedModel.Turn answer(String text, long in) {
        return ScriptedModel.withUsage(Usage.of(in, 10, 0, 0), text(text));
    }

    private static ScriptedModel.Turn echo(long in) {
        return ScriptedModel.withUsage(Usage.of(in, 10, 0, 0), ScriptedModel.toolCalls(ScriptedModel.call("echo", "{\"text\":\"x\"}")));
    }

    @Test
    void inputTokensArePerTurnAndAcrossTurnsInTheConversationBudget() {
        ScriptedModel model = ScriptedModel.of(answer("one", 80), answer("two", 80), answer("three", 80), answer("four", 80));
        Agent agent = Agent.builder().model(model).modelName("m").price("m", ModelPrice.of("0", "0", "0")).store(store)
                .budget(Budget.builder().maxInputTokens(100L).build())
                .conversationBudget(Budget.builder().maxInputTokens(200L).build()).build();
        RunResult first = agent.run("go");
        assertThat(first.status()).isEqualTo(RunStatus.SUCCEEDED);
        RunResult second = agent.reply(first.runId(), "again");
        assertThat(second.status()).as(second.message()).isEqualTo(RunStatus.SUCCEEDED); // 80 of 100 in this turn
        RunResult third = agent.reply(first.runId(), "once more");
        assertThat(third.status()).as(third.message()).isEqualTo(RunStatus.SUCCEEDED); // 240 of 200 only after its call
        RunResult fourth = agent.reply(first.runId(), "and again");
        assertThat(fourth.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(fourth.message()).contains("conversation").contains("across all turns");
    }

    @Test
    void costIsPerTurnAndAcrossTurnsInTheConversationBudget() {
        // $1 per million input tokens: 400,000 tokens cost $0.40 a turn
        ScriptedModel model = ScriptedModel.of(answer("one", 400_000), answer("two", 400_000), answer("three", 400_000));
        Agent agent = Agent.builder().model(model).modelName("m").price("m", ModelPrice.of("1", "0", "0")).store(store)
                .budget(Budget.builder().maxCostUsd("0.50").build())
                .conversationBudget(Budget.builder().maxCostUsd("0.70").build()).build();
        RunResult first = agent.run("go");
        RunResult second = agent.reply(first.runId(), "again");
        assertThat(second.status()).as(second.message()).isEqualTo(RunStatus.SUCCEEDED);
        RunResult third = agent.reply(first.runId(), "once more");
        assertThat(third.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(third.message()).contains("conversation");
    }

    @Test
    void aTurnsCostLimitSaysWhatThisTurnSpentNotTheWholeConversation() {
        // $1 per million input tokens: 300,000 tokens cost $0.30 a call
        ScriptedModel model = ScriptedModel.of(answer("one", 300_000), echo(300_000), echo(300_000),
                answer("summary", 0));
        Agent agent = Agent.builder().model(model).modelName("m").price("m", ModelPrice.of("1", "0", "0")).store(store)
                .tools(TestTools.echo()).budget(Budget.builder().maxCostUsd("0.50").build()).build();
        RunResult first = agent.run("go");
        RunResult second = agent.reply(first.runId(), "again");
        assertThat(second.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(second.reason()).isEqualTo("max_cost");
        // $0.60 in this turn; $0.90 with the first turn's, which the turn's limit does not count
        assertThat(second.message()).isEqualTo("the cost limit of USD 0.50 was reached (spent USD 0.6 in this turn)");
    }
}
