package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunEvent;
import dev.rein.agent.RunStream;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** agent.stream(goal) over the Messages API wire (fake server): the text arrives in pieces, joins to the answer, and the result comes last. */
class RunStreamOverTheWireTest extends FakeApi {
    public record Verdict(String decision, List<String> reasons) {}

    @Test
    void streamedTextJoinsToTheAnswerAndTheToolStepAndResultArriveInOrder() {
        String answer = "東京の天気は晴れです 🌞。𠮷野家は近くにあります。".repeat(5);
        server.enqueue(FakeReply.toolUse("toolu_1", "lookup", "{\"q\":\"東京 🗼\"}"), FakeReply.text(answer));
        Tool lookup = Tool.builder("lookup").description("Looks up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "晴れ 🌞").build();
        List<RunEvent> events;
        try (RunStream stream = Agent.builder().model(model).modelName("claude-test").price("claude-test",
                dev.rein.budget.ModelPrice.of("1", "0", "1", "1")).tools(lookup).build().stream("天気は?")) {
            events = stream.stream().toList();
        }
        RunEvent.Finished finished = (RunEvent.Finished) events.get(events.size() - 1);
        assertThat(finished.result().status()).as(finished.result().message()).isEqualTo(RunStatus.SUCCEEDED);
        List<String> deltas = events.stream().filter(e -> e instanceof RunEvent.TextDelta).map(e -> ((RunEvent.TextDelta) e).text())
                .toList();
        assertThat(String.join("", deltas)).isEqualTo(answer);
        List<String> types = events.stream().map(RunEvent::type).toList();
        assertThat(types).containsSubsequence("run_started", "model_request", "model_response", "tool_call", "tool_result",
                "model_request", "text_delta", "model_response", "run_finished", "result");
        assertThat(types).doesNotContain("events_dropped");
    }

    @Test
    void aTypedAnswerStreamsAndIsReadFromTheResult() {
        server.enqueue(FakeReply.text("{\"decision\":\"返金\",\"reasons\":[\"遅延 🚚\"]}"));
        try (RunStream stream = Agent.builder().model(model).modelName("claude-test").price("claude-test",
                dev.rein.budget.ModelPrice.of("1", "0", "1", "1")).outputType(Verdict.class).build().stream("判定して")) {
            String text = stream.stream().filter(e -> e instanceof RunEvent.TextDelta).map(e -> ((RunEvent.TextDelta) e).text())
                    .collect(Collectors.joining());
            assertThat(text).isEqualTo("{\"decision\":\"返金\",\"reasons\":[\"遅延 🚚\"]}");
            assertThat(stream.result().join().output(Verdict.class)).isEqualTo(new Verdict("返金", List.of("遅延 🚚")));
        }
    }
}
