package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.model.ToolResultBlock;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.SnapshotCodec;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunStore;
import dev.rein.state.RunSummary;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every path ends in a result: absurdly nested tool arguments get a clear refusal while every JSON
 * path (trace file, store) keeps working, and neither a failing final save nor a stage that throws
 * an Error leaves the caller waiting.
 */
class RunAlwaysEndsTest {
    private final RecordingListener trace = new RecordingListener();

    static String nested(int depth) {
        return "{\"x\":" + "[".repeat(depth) + "1" + "]".repeat(depth) + "}";
    }

    private static Tool probe() {
        return Tool.builder("probe").description("Takes anything.").inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> "ok").build();
    }

    @Test
    void deeplyNestedArgumentsAreRefusedAndTheRunStillEnds(@TempDir Path dir) throws Exception {
        InMemoryRunStore store = new InMemoryRunStore();
        Path jsonl = dir.resolve("trace.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("probe", nested(998))), text("gave up"));
        RunHandle handle = Agent.builder().model(model).tools(probe()).store(store).listener(trace)
                .listener(JsonlTraceListener.to(jsonl)).build().start("go");
        RunResult result = handle.await(Duration.ofSeconds(20));

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        ToolResultBlock refusal = (ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("nested", "levels deep", "probe");
        RunSnapshot saved = store.load(result.runId()).orElseThrow();
        assertThat(SnapshotCodec.readSnapshot(SnapshotCodec.write(saved)).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.RunFinished.class)).hasSize(1);
        assertThat(Files.readAllLines(jsonl)).as("every event reached the trace file").hasSize(trace.events().size());
    }

    @Test
    void aStageThatThrowsAnErrorStillEndsTheRunWithAResult() throws Exception {
        InMemoryRunStore store = new InMemoryRunStore();
        RunHandle handle = Agent.builder().model(ScriptedModel.of(text("done"))).store(store).listener(trace)
                .verifier(answer -> {
                    throw new AssertionError("a verifier bug");
                })
                .build().start("go");
        RunResult result = handle.await(Duration.ofSeconds(20));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.INTERNAL_ERROR);
        assertThat(result.message()).contains("a verifier bug");
        assertThat(store.load(result.runId()).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(trace.events(TraceEvent.RunFinished.class)).hasSize(1);
    }

    @Test
    void aFinalSaveThatFailsStillEndsTheRunWithAResult() throws Exception {
        InMemoryRunStore memory = new InMemoryRunStore();
        RunStore failing = new RunStore() {
            @Override
            public void save(RunSnapshot snapshot) {
                if (snapshot.status().terminal()) {
                    throw new IllegalStateException("disk on fire");
                }
                memory.save(snapshot);
            }

            @Override
            public Optional<RunSnapshot> load(String runId) {
                return memory.load(runId);
            }

            @Override
            public List<RunSummary> list() {
                return memory.list();
            }

            @Override
            public Optional<IdempotencyRecord> idempotency(String key) {
                return memory.idempotency(key);
            }

            @Override
            public void putIdempotency(IdempotencyRecord record) {
                memory.putIdempotency(record);
            }
        };
        RunHandle handle = Agent.builder().model(ScriptedModel.of(text("done"))).store(failing).build().start("go");
        RunResult result = handle.await(Duration.ofSeconds(20));

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.message()).contains("could not be saved", "disk on fire");
    }
}
