package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replay whose agent offers other tools than the recorded run says so in words, naming the step and the tools. */
class ReplayToolSetTest {
    private static final String JA = "注文 A-104 の返金 🦊 は「30 日以内」です\u2028次の行 e\u0301 ｶﾀｶﾅ";

    private static Tool lookup() {
        return Tool.builder("lookup").description("注文を調べる")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((a, c) -> "結果: " + a.get("q").asText() + " " + JA).build();
    }

    private static Tool extra() {
        return Tool.builder("cancel").description("注文を取り消す")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((a, c) -> "x").build();
    }

    private static ScriptedModel model() {
        return ScriptedModel.of(toolCalls("調べます 🦊", call("lookup", "{\"q\":\"" + "返金 🦊" + "\"}")), text(JA));
    }

    @Test
    void aChangedToolSetIsTheDivergenceSaidInWordsNamingTheStepAndTheTools(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        Agent.builder().model(model()).tools(lookup()).listener(JsonlTraceListener.to(trace)).build().run("返金の期限は?");
        // Before: 'step 1: the step request differs at tools[1]: recorded (nothing) / now {...}', which left the reader to
        // work out from JSON that a tool was added, removed or redefined
        ReplayReport more = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(lookup(), extra()).build());
        assertThat(more.firstDivergence().orElseThrow().description()).startsWith("step 1: the agent now offers the tool `cancel`,"
                + " which the recorded run did not have, so the step request differs at tools[1]: recorded (nothing) / now");
        ReplayReport fewer = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).build());
        assertThat(fewer.firstDivergence().orElseThrow().description()).startsWith("step 1: the agent no longer offers the tool"
                + " `lookup`, which the recorded run had, so the step request differs at tools[0]");
        ReplayReport changed = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(
                Tool.builder("lookup").description("注文を調べる (新)")
                        .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                        .handler((a, c) -> "x").build()).build());
        assertThat(changed.firstDivergence().orElseThrow().description()).isEqualTo("step 1: the tool `lookup` is now defined"
                + " otherwise, so the step request differs at tools[0].description: recorded \"注文を調べる\" / now \"注文を調べる (新)\"");
        ReplayReport swapped = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(extra(), lookup()).build());
        assertThat(swapped.firstDivergence().orElseThrow().description()).startsWith("step 1: the agent now offers the tool `cancel`");
    }

    private static Tool search() {
        return Tool.builder("search").description("注文を探す")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((a, c) -> "y").build();
    }

    private static Tool changedLookup() {
        return Tool.builder("lookup").description("注文を調べる (新)")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((a, c) -> "x").build();
    }

    /**
     * The words name the first difference the JSON shows, at its place in the list. Before: a tool redefined at
     * tools[0] was told as "the agent offers its tools in another order" when the others had been swapped further on,
     * and as "the agent now offers the tool `search`" when one had been added further on.
     */
    @Test
    void theWordsNameTheFirstDifferenceInTheToolList(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        Agent.builder().model(model()).tools(lookup(), extra(), search()).listener(JsonlTraceListener.to(trace)).build()
                .run("返金の期限は?");

        ReplayReport redefinedThenSwapped = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .tools(changedLookup(), search(), extra()).build());
        assertThat(redefinedThenSwapped.firstDivergence().orElseThrow().description()).startsWith("step 1: the tool `lookup` is"
                + " now defined otherwise, so the step request differs at tools[0].description: recorded \"注文を調べる\"");

        Path two = dir.resolve("two.jsonl");
        Agent.builder().model(model()).tools(lookup(), extra()).listener(JsonlTraceListener.to(two)).build().run("返金の期限は?");
        ReplayReport redefinedThenAdded = Replay.from(two).replay(Agent.builder().model(ScriptedModel.of())
                .tools(changedLookup(), extra(), search()).build());
        assertThat(redefinedThenAdded.firstDivergence().orElseThrow().description()).startsWith("step 1: the tool `lookup` is"
                + " now defined otherwise, so the step request differs at tools[0].description");

        ReplayReport swapped = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of())
                .tools(lookup(), search(), extra()).build());
        assertThat(swapped.firstDivergence().orElseThrow().description()).startsWith("step 1: the agent offers its tools in"
                + " another order: `search` is now where the recorded run had `cancel`, so the step request differs at tools[1]");
    }
}
