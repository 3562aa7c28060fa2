package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A conversation recorded into one trace (the run, then its reply turns) replays turn by turn. */
class ReplayConversationTest {
    private final AtomicInteger ran = new AtomicInteger();

    private Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "結果 " + ran.incrementAndGet() + ": " + args.get("q").asText() + " 🦊").build();
    }

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).systemPrompt("You research.").tools(search());
    }

    @Test
    void aRunAndItsReplyTurnsRecordedIntoOneTraceReplayAsOneConversation(@TempDir Path dir) {
        Path trace = dir.resolve("conversation.jsonl");
        Agent recording = agent(ScriptedModel.of(
                toolCalls(call("search", "{\"q\":\"東京\"}")), text("東京は晴れです"),
                toolCalls(call("search", "{\"q\":\"大阪\"}")), text("大阪は雨です ☔"),
                text("どういたしまして")))
                .listener(JsonlTraceListener.to(trace)).build();
        RunResult first = recording.run("東京の天気は?");
        recording.reply(first.runId(), "大阪は?");
        RunResult last = recording.reply(first.runId(), "ありがとう");
        assertThat(last.answer()).isEqualTo("どういたしまして");
        int toolRuns = ran.get();

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.modelCalls()).isEqualTo(5);
        assertThat(report.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(report.result().answer()).isEqualTo("どういたしまして");
        assertThat(report.result().steps()).isEqualTo(last.steps());
        assertThat(report.reproduced()).isTrue();
        assertThat(ran.get()).isEqualTo(toolRuns);
    }

    @Test
    void aReplyTurnThatNowGoesOtherwiseIsTheDivergenceAtItsStep(@TempDir Path dir) {
        Path trace = dir.resolve("conversation.jsonl");
        Agent recording = agent(ScriptedModel.of(text("東京は晴れです"), toolCalls(call("search", "{\"q\":\"大阪\"}")),
                text("大阪は雨です"))).listener(JsonlTraceListener.to(trace)).build();
        RunResult first = recording.run("東京の天気は?");
        recording.reply(first.runId(), "大阪は?");

        // The system prompt changed today: the first request of the first turn already differs
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).systemPrompt("You research carefully.").build());

        assertThat(report.firstDivergence()).isPresent();
        assertThat(report.firstDivergence().orElseThrow().description()).startsWith("step 1:");
        assertThat(report.modelCalls()).isEqualTo(3);
        assertThat(report.result().answer()).isEqualTo("大阪は雨です");
    }

    @Test
    void aTraceOfTheReplyTurnsAloneIsRefusedSayingTheTurnsBeforeThemAreMissing(@TempDir Path dir) {
        ScriptedModel model = ScriptedModel.of(text("東京は晴れです"), text("大阪は雨です"));
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        RunResult asked = agent(model).store(store).build().run("東京の天気は?");
        Path trace = dir.resolve("reply.jsonl");
        agent(model).store(store).listener(JsonlTraceListener.to(trace)).build().reply(asked.runId(), "大阪は?");

        assertThatThrownBy(() -> Replay.from(trace).replay(agent(ScriptedModel.of()).build()))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("has no run_started event")
                .hasMessageContaining("it holds only later turns of the run (turn_started)")
                .hasMessageContaining("'rein reply RUN TEXT --trace FILE' appends");
    }
}
