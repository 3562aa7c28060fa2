package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalRequest;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An agent built without .store(...) keeps its runs in a store of its own; the runs it starts through
 * stream(goal), run(goal, Type) and withListener are kept there too, so the agent can decide, resume and reply to them.
 */
class VariantStoreTest {
    public record Room(String name, int seats) {}

    private static Tool book() {
        return Tool.builder("book").description("Books a room.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"room\":{\"type\":\"string\"}},\"required\":[\"room\"]}")
                .handler((args, ctx) -> "予約しました: " + args.get("room").asText()).build();
    }

    @Test
    void aStreamedRunThatPausedIsDecidedAndResumedByTheAgentThatStreamedIt() {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("book", "{\"room\":\"会議室B\"}")), text("予約しました")))
                .tools(book()).build();
        RunResult paused;
        try (RunStream stream = agent.stream("会議室Bを予約して")) {
            List<RunEvent> events = stream.stream().toList();
            paused = ((RunEvent.Finished) events.get(events.size() - 1)).result();
        }
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);

        List<ApprovalRequest> pending = agent.runs().pending(paused.runId());
        assertThat(pending).hasSize(1);
        agent.runs().approve(paused.runId(), pending.get(0).actionHash(), "佐藤");
        assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aTypedRunAndARunWithAListenerCanBeRepliedToByTheAgent() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("{\"name\":\"会議室B\",\"seats\":8}"),
                text("{\"name\":\"会議室C\",\"seats\":12}"), text("はい"), text("いいえ"))).build();
        RunResult typed = agent.run("会議室は?", Room.class);
        assertThat(typed.output(Room.class)).isEqualTo(new Room("会議室B", 8));
        assertThat(agent.reply(typed.runId(), "もっと大きい部屋は?").status()).isEqualTo(RunStatus.SUCCEEDED);

        RunResult listened = agent.withListener(id -> new dev.rein.trace.RunListener() { }).run("空いていますか?");
        assertThat(agent.reply(listened.runId(), "明日は?").answer()).isEqualTo("いいえ");
    }

    @Test
    void aTypedRunThatPausedIsResumedTypedByTheAgentWithItsType() {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("book", "{\"room\":\"会議室B\"}")), text("予約しました"),
                text("{\"name\":\"会議室B\",\"seats\":8}"))).tools(book()).build();
        RunResult paused = agent.run("会議室Bを予約して", Room.class);
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.runs().approve(paused.runId(), agent.runs().pending(paused.runId()).get(0).actionHash(), "佐藤");

        // run(goal, Type) types that call's run; its continuation is typed by an agent that has the type
        RunResult done = agent.config().toBuilder().outputType(Room.class).build().resume(paused.runId());

        assertThat(done.status()).as(done.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.output(Room.class)).isEqualTo(new Room("会議室B", 8));
    }
}
