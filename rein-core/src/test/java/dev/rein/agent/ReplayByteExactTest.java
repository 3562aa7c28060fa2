package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay of a run in Japanese (emoji, a combining accent, half-width kana, U+2028) on the recorded
 * clock writes the very trace it replays: the text passes through the trace and back unchanged.
 */
class ReplayByteExactTest {
    private static final String JA = "注文 A-104 の返金 🦊 は「30 日以内」です\u2028次の行 e\u0301 ｶﾀｶﾅ";

    private static Tool lookup() {
        return Tool.builder("lookup").description("注文を調べる")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((a, c) -> "結果: " + a.get("q").asText() + " " + JA).build();
    }

    private static ScriptedModel model() {
        return ScriptedModel.of(toolCalls("調べます 🦊", call("lookup", "{\"q\":\"返金 🦊\"}")), text(JA));
    }

    @Test
    void aRunInJapaneseWithEmojiReplaysToATraceIdenticalToItsRecordingByteForByte(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        Clock clock = Clock.fixed(Instant.parse("2026-12-04T09:00:00Z"), ZoneOffset.UTC);
        RunResult recorded = Agent.builder().model(model()).tools(lookup()).clock(clock).listener(JsonlTraceListener.to(trace))
                .build().run("返金 🦊 の期限は? " + JA);
        Path again = dir.resolve("again.jsonl");
        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(lookup()).clock(clock)
                .listener(JsonlTraceListener.to(again)).build());
        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.result().answer()).isEqualTo(recorded.answer()).isEqualTo(JA);
        // Before: identical but for the run_started line, where the recorded "max_cost_usd":1.00 came back as 1.0
        assertThat(Files.readAllBytes(again)).isEqualTo(Files.readAllBytes(trace));
    }
}
