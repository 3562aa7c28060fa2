package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.context.ContextPolicy;
import dev.rein.context.OutputStore;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.worker.Worker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tool outputs far beyond Temporal's payload limit: every payload stays small, the full outputs are in the shared store. */
class TemporalPayloadTest {
    /** One tool output: 300,000 characters. */
    static final int OUTPUT = 300_000;
    /** The bound stated in docs/temporal.md for this run: no history event (its payloads included) reaches 4 KiB. */
    static final int BOUND = 4 * 1024;

    @Test
    void aRunWhoseToolOutputsAddUpToMegabytesKeepsEveryPayloadSmall(@TempDir Path dir) {
        OutputStore outputs = OutputStore.directory(dir.resolve("outputs"));
        OutputStore runStore = OutputStore.directory(dir.resolve("runs"));
        RecordingListener trace = new RecordingListener();
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int step = 0; step < 4; step++) {
            turns.add(ScriptedModel.toolCalls(part(step * 3 + 1), part(step * 3 + 2), part(step * 3 + 3)));
        }
        turns.add(ScriptedModel.text("12 parts read."));
        Agent agent = Orders.agent(ScriptedModel.of(turns), trace, readLog())
                .contextPolicy(ContextPolicy.builder().outputStore(outputs).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.worker(worker, agent, runStore);
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent, runStore)
                    .start("read the log", "run-large");
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            // 12 outputs of 300,000 characters: 3.6 MB, beyond Temporal's 2 MB payload limit
            List<TraceEvent.OutputTruncated> truncated = trace.events(TraceEvent.OutputTruncated.class);
            assertThat(truncated).hasSize(12).allSatisfy(t -> {
                assertThat(t.stored()).isTrue();
                assertThat(outputs.get(t.sha256())).get().asString().hasSize(OUTPUT);
            });
            List<HistoryEvent> events = server.client().fetchHistory("run-large").getEvents();
            HistoryEvent largest = events.stream().max(java.util.Comparator.comparingInt(HistoryEvent::getSerializedSize)).orElseThrow();
            assertThat(largest.getSerializedSize()).as("the largest history event, in bytes: %s", describe(largest, events))
                    .isLessThan(BOUND);
            // the workflow's own result names the history by hash; the client with the run store reads it back in full
            assertThat(result.history()).hasSize(10);
            assertThat(TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent, OutputStore.inMemory())
                    .attach("run-large").result().history()).singleElement().satisfies(m -> assertThat(m.text())
                    .startsWith("[rein] The run's history is kept in the run store as sha256:"));
            assertThat(events.stream().filter(e -> e.hasActivityTaskScheduledEventAttributes()
                    && e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals("ReinCallTool"))).hasSize(12);
        }
    }

    /** The event's type, and for a completed activity the activity's. */
    private static String describe(HistoryEvent event, List<HistoryEvent> events) {
        if (!event.hasActivityTaskCompletedEventAttributes()) {
            return event.getEventType().name();
        }
        long scheduled = event.getActivityTaskCompletedEventAttributes().getScheduledEventId();
        return "completed " + events.stream().filter(e -> e.getEventId() == scheduled).findFirst()
                .map(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName()).orElse("?");
    }

    private static ScriptedModel.Call part(int n) {
        return ScriptedModel.call("read_log", "{\"part\":" + n + "}");
    }

    private static Tool readLog() {
        return Tool.builder("read_log").description("Reads one part of the log")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"part\":{\"type\":\"integer\"}},\"required\":[\"part\"]}")
                .risk(Risk.READ).handler((args, ctx) -> {
                    String line = "part " + args.get("part").asInt() + ": ok\n";
                    return line.repeat(OUTPUT / line.length() + 1).substring(0, OUTPUT);
                }).build();
    }
}
