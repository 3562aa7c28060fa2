package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.StopReason;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.reflection.Reflection;
import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay applies what the recorded run was limited by, not what the agent under test says: the budget's per-tool
 * call caps (toolCallLimit) and the price of a critic's own model, both recorded in run_started's limits.
 */
class ReplayRecordedLimitsTest {
    private final AtomicInteger lookups = new AtomicInteger();

    private Tool lookup() {
        return Tool.builder("lookup").description("Looks a thing up.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> {
                    lookups.incrementAndGet();
                    return "found: " + args.get("q").asText();
                })
                .build();
    }

    private static ScriptedModel twoLookups() {
        return ScriptedModel.of(toolCalls(call("lookup", "{\"q\":\"a\"}")), toolCalls(call("lookup", "{\"q\":\"b\"}")), text("done"));
    }

    @Test
    void aReplayWithLiveReadToolsKeepsTheRecordedPerToolCapsWhateverTheAgentSays(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("capped.jsonl");
        Agent.builder().model(twoLookups()).tools(lookup()).budget(Budget.builder().toolCallLimit("lookup", 1).build())
                .listener(JsonlTraceListener.to(trace)).build().run("look");
        assertThat(lookups).hasValue(1); // the second call was refused for its cap
        assertThat(Files.readString(trace)).contains("\"tool_call_limits\":{\"lookup\":1}");

        lookups.set(0);
        // the agent under test has no cap (or another one): the recorded run's cap still refuses the second call
        for (Budget budget : List.of(Budget.builder().build(), Budget.builder().toolCallLimit("lookup", 5).build())) {
            ReplayReport report = Replay.from(trace).liveReadTools(true)
                    .replay(Agent.builder().model(ScriptedModel.of()).tools(lookup()).budget(budget).build());
            assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
            assertThat(report.reproduced()).isTrue();
        }
        assertThat(lookups).hasValue(2); // one live call per replay
    }

    @Test
    void aTraceWithoutToolCallLimitsKeepsTheAgentsOwnAndARecordedCapOnAToolTheAgentLacksIsNoError(@TempDir Path dir)
            throws Exception {
        Path trace = dir.resolve("capped.jsonl");
        Agent.builder().model(twoLookups()).tools(lookup()).budget(Budget.builder().toolCallLimit("lookup", 1).build())
                .listener(JsonlTraceListener.to(trace)).build().run("look");
        Path old = dir.resolve("old.jsonl");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(trace)) {
            ObjectNode event = (ObjectNode) Json.parse(line);
            if (event.path("limits").isObject()) {
                ((ObjectNode) event.get("limits")).remove("tool_call_limits");
            }
            lines.add(Json.write(event));
        }
        Files.write(old, lines);

        // a trace from before Rein recorded the caps: the agent's own, as before
        ReplayReport report = Replay.from(old).liveReadTools(true).replay(Agent.builder().model(ScriptedModel.of()).tools(lookup())
                .budget(Budget.builder().toolCallLimit("lookup", 1).build()).build());
        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();

        // the agent under test no longer has the capped tool: it diverges at the tools offered, never refused at build
        ReplayReport without = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo()).build());
        assertThat(without.firstDivergence().orElseThrow().description()).contains("`lookup`");
    }

    /**
     * The critic's calls to its own model are charged at that model's price and its review's max_tokens is lowered to
     * what the money left buys at it: the replay uses the recorded price, not the agent's (zero for a stand-in, or a
     * newer price table's).
     */
    @Test
    void aReplayChargesTheCriticModelAtItsRecordedPrice(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("critic.jsonl");
        ScriptedModel worker = ScriptedModel.of(ScriptedModel.withUsage(Usage.of(1_000, 2_000, 0, 0), text("42")));
        ScriptedModel critic = ScriptedModel.of(ScriptedModel.reply(StopReason.TOOL_USE, Usage.of(500, 50, 0, 0),
                new ToolUseBlock("toolu_v", "verdict", Json.parse("{\"approved\":true,\"problems\":[]}"))));
        RunResult recorded = Agent.builder().model(worker).budget(Budget.builder().maxCostUsd(new BigDecimal("0.05")).build())
                .price("critic-x", ModelPrice.of("1.00", "0.10", "5.00"))
                .reflection(Reflection.critic(critic, "critic-x")).listener(JsonlTraceListener.to(trace)).build().run("go");
        assertThat(Files.readString(trace)).contains("\"model_prices\":{\"critic-x\":");

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .price("critic-x", ModelPrice.of("2.00", "0.20", "10.00"))
                .reflection(Reflection.critic(ScriptedModel.of(), "critic-x")).build());

        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.result().costUsd()).isEqualByComparingTo(recorded.costUsd());
    }

    @Test
    void anEditedTraceWithCapsOrPricesNoRunCanHaveIsRefusedNamingThem(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("edited.jsonl");
        Agent.builder().model(twoLookups()).tools(lookup()).budget(Budget.builder().toolCallLimit("lookup", 1).build())
                .listener(JsonlTraceListener.to(trace)).build().run("look");
        String text = Files.readString(trace);
        Files.writeString(trace, text.replace("\"tool_call_limits\":{\"lookup\":1}", "\"tool_call_limits\":{\"lookup\":0}"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(trace).replay(Agent.builder()
                        .model(ScriptedModel.of()).tools(lookup()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("records tool_call_limits as {\"lookup\":0} in run_started, which are not per-tool caps");
        Files.writeString(trace, text.replace("\"tool_call_limits\"", "\"model_prices\":{\"critic-x\":{\"input_per_m_tok\":-1}},"
                + "\"tool_call_limits\""));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(trace).replay(Agent.builder()
                        .model(ScriptedModel.of()).tools(lookup()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("records the model_prices.critic-x {\"input_per_m_tok\":-1} in run_started's limits, which is"
                        + " not a model's price");
    }

    @Test
    void anEditedTraceWithATimeLimitBelowAMillisecondIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("edited.jsonl");
        Agent.builder().model(twoLookups()).tools(lookup()).listener(JsonlTraceListener.to(trace)).build().run("look");
        String text = Files.readString(trace);
        assertThat(text).contains("\"max_seconds\":300");
        // a run's time limit is at least 1 ms: 0.0004 s would be replayed as no time at all
        Files.writeString(trace, text.replace("\"max_seconds\":300", "\"max_seconds\":0.0004"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(trace).replay(Agent.builder()
                        .model(ScriptedModel.of()).tools(lookup()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("records the limit max_seconds as 0.0004 in run_started, which no run can have"
                        + " (a number of seconds from 0.001 to 9223372036854775.807, to the nanosecond at most, or null for none)");
    }

    @Test
    void aTimeLimitFinerThanAMillisecondIsTracedAndReplayedAsGiven(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("fine.jsonl");
        // 1.0005 s (and a conversation's 2.000000001 s): the trace wrote 1 and 2, and the replay ran on 1 s and 2 s
        java.time.Duration limit = java.time.Duration.ofNanos(1_000_500_000);
        java.time.Duration conversation = java.time.Duration.ofNanos(2_000_000_001);
        Agent.builder().model(twoLookups()).tools(lookup()).budget(Budget.builder().maxDuration(limit).build())
                .conversationBudget(Budget.builder().maxDuration(conversation).build())
                .listener(JsonlTraceListener.to(trace)).build().run("look");
        String text = Files.readString(trace);
        assertThat(text).contains("\"max_seconds\":1.0005").contains("\"max_seconds\":2.000000001");

        Agent replaying = Replay.from(trace).session().agent(Agent.builder().model(ScriptedModel.of()).tools(lookup()).build());

        assertThat(replaying.config().budget().maxDuration()).isEqualTo(limit);
        assertThat(replaying.config().conversationBudget().maxDuration()).isEqualTo(conversation);
    }

    @Test
    void anEditedTraceWithATimeLimitFinerThanANanosecondIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("edited.jsonl");
        Agent.builder().model(twoLookups()).tools(lookup()).listener(JsonlTraceListener.to(trace)).build().run("look");
        String text = Files.readString(trace);
        // no Duration holds 1.0000000005 s: the replay would run on another limit than the trace says
        Files.writeString(trace, text.replace("\"max_seconds\":300", "\"max_seconds\":1.0000000005"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(trace).replay(Agent.builder()
                        .model(ScriptedModel.of()).tools(lookup()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("records the limit max_seconds as 1.0000000005 in run_started, which no run can have"
                        + " (a number of seconds from 0.001 to 9223372036854775.807, to the nanosecond at most, or null for none)");
    }
}
