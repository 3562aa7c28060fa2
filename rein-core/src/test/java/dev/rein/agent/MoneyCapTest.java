package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A money limit bounds each call's output: max_tokens is lowered to what the money left buys at the
 * model's highest output rate, so the call made while money was left overruns the limit by at most its
 * input's cost, not a whole max_tokens of output; the trace says why, and a replay lowers it where the
 * recorded run did.
 */
class MoneyCapTest {
    // scripted-model: USD 3 input, 15 output per million tokens (0.000015 per output token)
    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(TestTools.echo()).listener(trace)
                .budget(Budget.builder().maxCostUsd(new BigDecimal("0.05")).build());
    }

    /** 1,000 in, 2,000 out: USD 0.003 + 0.03 = 0.033, leaving USD 0.017, which buys 1,133.3 output tokens (1,134). */
    private static ScriptedModel spendingModel() {
        return ScriptedModel.of(
                ScriptedModel.withUsage(Usage.of(1_000, 2_000, 0, 0), toolCalls(call("echo", "{\"text\":\"1\"}"))),
                ScriptedModel.reply(StopReason.MAX_TOKENS, Usage.of(1_000, 1_134, 0, 0), new TextBlock("途中まで"),
                        new ToolUseBlock("cut", "echo", Json.parse("{\"text\":\"2\"}"))),
                text("summary"));
    }

    @Test
    void aStepWritesAtMostWhatTheMoneyLeftBuysAndTheTraceSaysWhy() {
        ScriptedModel model = spendingModel();
        RunResult result = agent(model).build().run("go");

        // USD 0.05 buys 3,333.3 output tokens: the first step may write 3,334 at most
        assertThat(model.requests().get(0).maxTokens()).isEqualTo(3_334);
        assertThat(model.requests().get(1).maxTokens()).isEqualTo(1_134);
        // cut off at what the money left: the money limit ran out (not FAILED/max_tokens), its cut tool call not run
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_cost");
        assertThat(result.answer()).isEqualTo("summary");
        assertThat(model.lastRequest().toolChoice()).isEqualTo(ToolChoice.none());
        // the money is spent: the summary call the budget contract promises keeps the agent's max_tokens
        assertThat(model.lastRequest().maxTokens()).isEqualTo(8192);
        assertThat(trace.events(TraceEvent.ToolCalled.class)).hasSize(1);
        // USD 0.033 + 0.02001 (the second call: its input, USD 0.003, and 1,134 output tokens, USD 0.01701, the money left
        // and less than one token more) + 0.0006 (the summary): past the limit by that input, that part of a token and the summary
        assertThat(result.costUsd()).isEqualByComparingTo("0.05361");

        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(i -> i.kind().equals("max_tokens_lowered"))
                .hasSize(2).last().satisfies(i -> {
                    assertThat(i.step()).isEqualTo(2);
                    assertThat(i.message()).isEqualTo("max_tokens lowered from 8192 to 1134: the 1134 output tokens the USD 0.017"
                            + " the money limit leaves buys at USD 15.00 per million output tokens (the model's highest output rate)");
                    assertThat(i.evidence()).containsEntry("budget", "max_cost").containsEntry("max_tokens", 8192)
                            .containsEntry("lowered_to", 1134L).containsEntry("money_left_usd", "0.017");
                });
    }

    @Test
    void theHighestOutputRateCountsWhenTheModelHasALongContextRate() {
        ScriptedModel model = spendingModel();
        // long-context output at USD 30: the USD 0.017 left buys 567 tokens at most
        agent(model).price(ScriptedModel.DEFAULT_NAME, ModelPrice.of("3", "0.3", "15")
                .withLongContext(200_000, ModelPrice.of("6", "0.6", "30"))).build().run("go");
        assertThat(model.requests().get(1).maxTokens()).isEqualTo(567);
    }

    @Test
    void anOutputTokenLimitThatLeavesFewerStillDecidesAndIsNamed() {
        ScriptedModel model = spendingModel();
        agent(model).budget(Budget.builder().maxCostUsd(new BigDecimal("0.05")).maxOutputTokens(2_100L).build()).build().run("go");
        assertThat(model.requests().get(1).maxTokens()).isEqualTo(100);
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(i -> i.kind().equals("max_tokens_lowered"))
                .extracting(TraceEvent.Intervention::message)
                .contains("max_tokens lowered from 8192 to 100: the 100 output tokens the output token limit leaves");
    }

    @Test
    void aReplayWithTheModelPricedAtZeroLowersMaxTokensWhereTheRecordedRunDid(@TempDir Path dir) {
        Path file = dir.resolve("run.jsonl");
        RunResult recorded = agent(spendingModel()).listener(JsonlTraceListener.to(file)).build().run("go");
        assertThat(recorded.reason()).isEqualTo("max_cost");
        // the agent's max_tokens, not the first call's lowered one, is what a replaying agent is built with
        assertThat(Replay.from(file).recorded().maxTokens()).isEqualTo(8192);

        // a replay with stand-in prices (rein-eval's RecordedAgentFactory.standIns prices the model at zero)
        Agent free = Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo())
                .price(ScriptedModel.DEFAULT_NAME, ModelPrice.of("0", "0", "0")).build();
        ReplayReport report = Replay.from(file).replay(free);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().reason()).isEqualTo("max_cost");
        assertThat(report.result().costUsd()).isEqualByComparingTo(recorded.costUsd());
    }

    /**
     * The conversation's limits are in run_started's limits (conversation_limits), and a replay applies them: a
     * conversation whose reply turn a conversation money limit lowered replays without divergence, where the
     * replay had no conversation budget and asked for the agent's 8,192 at the first call.
     */
    @Test
    void aReplayOfAConversationLowersMaxTokensWhereItsMoneyLimitDid(@TempDir Path dir) {
        Path file = dir.resolve("conversation.jsonl");
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(Usage.of(1_000, 2_000, 0, 0), text("一つ目")), text("二つ目"));
        Agent agent = Agent.builder().model(model).listener(JsonlTraceListener.to(file))
                .budget(Budget.builder().maxCostUsd((BigDecimal) null).build())
                .conversationBudget(Budget.builder().maxCostUsd(new BigDecimal("0.05")).maxOutputTokens(50_000L).build()).build();
        RunResult first = agent.run("go");
        agent.reply(first.runId(), "次");
        assertThat(model.requests().get(1).maxTokens()).isEqualTo(1_134);

        Agent free = Agent.builder().model(ScriptedModel.of())
                .price(ScriptedModel.DEFAULT_NAME, ModelPrice.of("0", "0", "0")).build();
        ReplayReport report = Replay.from(file).replay(free);
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.modelCalls()).isEqualTo(2);
    }

    @Test
    void aTraceFromBeforeReinLoweredMaxTokensForMoneyStillReplays(@TempDir Path dir) throws Exception {
        // a run whose money ran low, recorded before Rein lowered max_tokens for it: no model_price in run_started's
        // limits, no max_tokens_lowered intervention, every call sent with the agent's max_tokens
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(Usage.of(1_000, 2_000, 0, 0),
                toolCalls(call("echo", "{\"text\":\"1\"}"))), text("終わり"));
        Path recorded = dir.resolve("new.jsonl");
        agent(model).listener(JsonlTraceListener.to(recorded)).build().run("go");
        Path old = dir.resolve("old.jsonl");
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(recorded)) {
            com.fasterxml.jackson.databind.node.ObjectNode event = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(line);
            if (event.path("kind").asText().equals("max_tokens_lowered")) {
                continue;
            }
            if (event.path("limits").isObject()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) event.get("limits")).remove("model_price");
            }
            if (event.path("request").isObject()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) event.get("request")).put("max_tokens", 8192);
            }
            lines.add(Json.write(event));
        }
        java.nio.file.Files.write(old, lines);
        assertThat(java.nio.file.Files.readString(old)).doesNotContain("model_price").doesNotContain("max_tokens_lowered")
                .doesNotContain("\"max_tokens\":3334");

        ReplayReport report = Replay.from(old).replay(Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo()).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    /**
     * With capOutputToMoneyLeft(false) every call keeps the agent's max_tokens (the limit checked after each call), the
     * trace says so, and its replay keeps them too.
     */
    @Test
    void anAgentThatTurnsTheCapOffKeepsItsMaxTokensAndItsTraceReplays(@TempDir Path dir) throws Exception {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(Usage.of(1_000, 2_000, 0, 0),
                toolCalls(call("echo", "{\"text\":\"1\"}"))), text("終わり"));
        Path recorded = dir.resolve("off.jsonl");
        agent(model).capOutputToMoneyLeft(false).listener(JsonlTraceListener.to(recorded)).build().run("go");
        assertThat(model.requests()).extracting(dev.rein.model.ModelRequest::maxTokens).containsOnly(8192);
        assertThat(java.nio.file.Files.readString(recorded)).contains("\"money_caps_output\":false").doesNotContain("max_tokens_lowered");

        ReplayReport report = Replay.from(recorded).replay(Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo()).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    /** Probe: a reply turn's calls are lowered to what the conversation's money limit still leaves across turns. */
    @Test
    void aReplyTurnWritesAtMostWhatTheConversationsMoneyLeftBuys() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.withUsage(Usage.of(1_000, 2_000, 0, 0), text("一つ目")), text("二つ目"));
        Agent agent = Agent.builder().model(model).listener(trace).budget(Budget.builder().maxCostUsd((BigDecimal) null).build())
                .conversationBudget(Budget.builder().maxCostUsd(new BigDecimal("0.05")).build()).build();
        RunResult first = agent.run("go");
        // the first turn spent USD 0.033 of the conversation's 0.05: the reply may write 1,134 tokens at most
        agent.reply(first.runId(), "次");
        assertThat(model.requests().get(0).maxTokens()).isEqualTo(3_334);
        assertThat(model.requests().get(1).maxTokens()).isEqualTo(1_134);
    }
}
