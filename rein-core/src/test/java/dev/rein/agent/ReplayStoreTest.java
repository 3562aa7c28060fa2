package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replay and the run store of the agent it is given: the recorded run there is left as it is. */
class ReplayStoreTest {
    private static Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "東京: 晴れ 🌞").build();
    }

    @Test
    void aReplayWithTheAgentsOwnStoreReproducesTheRunAndLeavesTheStoredRunAsItIs(@TempDir Path dir) {
        InMemoryRunStore store = new InMemoryRunStore();
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = Agent.builder().model(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"東京\"}")), text("晴れです")))
                .tools(search()).store(store).listener(JsonlTraceListener.to(trace)).build().run("天気は?");
        RunSnapshot before = store.load(recorded.runId()).orElseThrow();
        int eventsBefore = store.events(recorded.runId()).size();

        // The application's agent as configured today: the same store, its trace written elsewhere
        Agent today = Agent.builder().model(ScriptedModel.of()).tools(search()).store(store)
                .listener(JsonlTraceListener.to(dir.resolve("today.jsonl"))).build();
        ReplayReport report = Replay.from(trace).replay(today);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.result().status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(report.reproduced()).isTrue();
        RunSnapshot after = store.load(recorded.runId()).orElseThrow();
        assertThat(after.version()).isEqualTo(before.version());
        assertThat(after.status()).isEqualTo(before.status());
        assertThat(store.events(recorded.runId())).hasSize(eventsBefore);
    }
}
