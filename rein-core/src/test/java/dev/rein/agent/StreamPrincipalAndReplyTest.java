package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Principal;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** agent.stream(goal, principal) streams a run on a principal's behalf; agent.streamReply streams a conversation's next turn. */
class StreamPrincipalAndReplyTest {
    private static Tool orders() {
        return Tool.builder("orders").description("Reads orders.").requiredScopes("orders:read")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "注文 " + args.get("id").asText() + " (" + ctx.principal().user() + ")").build();
    }

    @Test
    void aStreamedRunActsForThePrincipalItWasGiven() {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("orders", "{\"id\":\"A-104\"}")), text("発送済みです")))
                .tools(orders()).build();
        try (RunStream stream = agent.stream("A-104 は?", new Principal("佐藤", "acme", Set.of("orders:read")))) {
            List<RunEvent> events = stream.stream().toList();
            RunResult result = ((RunEvent.Finished) events.get(events.size() - 1)).result();
            assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(events).filteredOn(e -> e.type().equals("tool_result")).singleElement()
                    .extracting(e -> ((dev.rein.trace.TraceEvent.ToolCompleted) ((RunEvent.Trace) e).event()).content())
                    .asString().contains("注文 A-104 (佐藤)");
        }
        assertThatThrownBy(() -> agent.stream("A-104 は?", (Principal) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no principal");
    }

    @Test
    void aReplyTurnStreamsItsEventsFromTurnStartedToItsResult() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("どの会議室ですか?"), text("会議室Bを予約しました 🗓"))).build();
        RunResult first = agent.run("会議室を予約して");

        try (RunStream stream = agent.streamReply(first.runId(), "会議室Bでお願いします")) {
            assertThat(stream.runId()).isEqualTo(first.runId());
            List<RunEvent> events = stream.stream().toList();
            List<String> types = events.stream().map(RunEvent::type).toList();
            assertThat(types).containsSubsequence("turn_started", "model_request", "text_delta", "model_response", "run_finished",
                    "result");
            assertThat(types.get(types.size() - 1)).isEqualTo("result");
            assertThat(events).filteredOn(e -> e instanceof RunEvent.TextDelta).extracting(e -> ((RunEvent.TextDelta) e).text())
                    .containsExactly("会議室Bを予約しました 🗓");
            RunResult result = ((RunEvent.Finished) events.get(events.size() - 1)).result();
            assertThat(result.answer()).isEqualTo("会議室Bを予約しました 🗓");
        }
        assertThatThrownBy(() -> agent.streamReply(first.runId(), " ")).isInstanceOf(ReinException.class)
                .hasMessageContaining("the reply is empty");
    }

    @Test
    void aResumedRunStreamsItsEventsFromRunResumedToItsResult() {
        Tool book = Tool.builder("book").description("Books a room.").risk(dev.rein.tool.Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"room\":{\"type\":\"string\"}},\"required\":[\"room\"]}")
                .handler((args, ctx) -> "予約しました: " + args.get("room").asText()).build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("book", "{\"room\":\"会議室B\"}")), text("会議室Bを予約しました")))
                .tools(book).build();
        RunResult paused = agent.run("会議室Bを予約して");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().approve(paused.runId(), agent.runs().pending(paused.runId()).get(0).actionHash(), "佐藤");

        try (RunStream stream = agent.streamResume(paused.runId())) {
            List<RunEvent> events = stream.stream().toList();
            List<String> types = events.stream().map(RunEvent::type).toList();
            assertThat(types).containsSubsequence("run_resumed", "tool_call", "tool_result", "model_request", "text_delta",
                    "run_finished", "result");
            assertThat(((RunEvent.Finished) events.get(events.size() - 1)).result().answer()).isEqualTo("会議室Bを予約しました");
        }
        assertThatThrownBy(() -> agent.streamResume("run_nope")).isInstanceOf(ReinException.class).hasMessageContaining("run_nope");
    }
}
