package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** agent.stream(goal) against the trace it mirrors, and consumers that fail. */
class RunStreamEdgesTest {
    @Test
    void aStreamReadInTimeHoldsEveryTraceEventInTheTracesOrderThenTheResult(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls("東京を調べます 🗼", call("echo", "{\"text\":\"𠮷野家 🦊\"}")),
                toolCalls(call("echo", "{\"text\":\"二回目\"}")), text("答え: 𠮷野家 🦊"));
        List<RunEvent> events;
        try (RunStream stream = Agent.builder().model(model).tools(TestTools.echo()).listener(JsonlTraceListener.to(trace))
                .build().stream("調べて 🦊")) {
            events = stream.stream().toList();
        }
        List<String> traced = Files.readAllLines(trace).stream().map(l -> Json.parse(l).path("type").asText()).toList();
        List<String> streamed = events.stream().filter(e -> e instanceof RunEvent.Trace).map(RunEvent::type).toList();
        assertThat(streamed).isEqualTo(traced);
        assertThat(events.get(events.size() - 1)).isInstanceOf(RunEvent.Finished.class);
        assertThat(events).filteredOn(e -> e instanceof RunEvent.TextDelta).extracting(e -> ((RunEvent.TextDelta) e).text())
                .contains("東京を調べます 🗼", "答え: 𠮷野家 🦊");
    }
}
