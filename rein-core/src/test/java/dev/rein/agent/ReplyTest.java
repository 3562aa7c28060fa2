package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.Conversation;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplyTest {
    private final RecordingListener trace = new RecordingListener();
    private final InMemoryRunStore store = new InMemoryRunStore();

    private static Tool lookup() {
        return Tool.builder("lookup_order").description("Looks an order up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> ToolOutput.text("order " + args.get("id").asText() + " ships on 2026-12-03")
                        .withSource("orders-db:" + args.get("id").asText()))
                .build();
    }

    private Agent agent(ScriptedModel model, Budget budget) {
        return Agent.builder().model(model).tools(lookup()).finishTool(true).listener(trace).store(store)
                .budget(budget).build();
    }

    @Test
    void aRunThatAskedForInputIsAnsweredAndFinishesWithFactsFromBefore() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("lookup_order", "{\"id\":\"A-104\"}")),
                toolCalls(call("finish", "{\"status\":\"needs_user_input\",\"summary\":\"which address?\","
                        + "\"result\":\"A-104 ships on 2026-12-03. Which address should it go to?\"}")),
                toolCalls(call("finish", "{\"status\":\"completed\",\"summary\":\"done\","
                        + "\"result\":\"A-104 ships on 2026-12-03 to 東京都千代田区.\"}")));
        Agent agent = agent(model, Budget.defaults());
        RunResult asked = agent.run("When does A-104 ship, and where to?");
        assertThat(asked.reason()).isEqualTo("needs_user_input");

        RunResult answered = agent.reply(asked.runId(), "住所は東京都千代田区です");
        assertThat(answered.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(answered.runId()).isEqualTo(asked.runId());
        assertThat(answered.answer()).contains("2026-12-03").contains("東京都千代田区");
        // the third request carries the earlier observation, an answer for the finish call, and the reply
        List<Message> seen = model.requests().get(2).messages();
        assertThat(seen.get(2).content().get(0)).isInstanceOf(ToolResultBlock.class);
        assertThat(((ToolResultBlock) seen.get(2).content().get(0)).content()).contains("ships on 2026-12-03");
        Message replyTurn = seen.get(seen.size() - 1);
        assertThat(replyTurn.content().get(0)).isInstanceOf(ToolResultBlock.class);
        assertThat(replyTurn.text()).contains("住所は東京都千代田区です");
        // the fact and its source survive into the new turn's state
        assertThat(answered.state().facts()).anySatisfy(f -> assertThat(f.source()).isEqualTo("orders-db:A-104"));
        RunSnapshot stored = store.load(asked.runId()).orElseThrow();
        assertThat(stored.conversation().turn()).isEqualTo(2);
        assertThat(stored.steps()).isEqualTo(3);
        List<TraceEvent.TurnStarted> turns = trace.events(TraceEvent.TurnStarted.class);
        assertThat(turns).singleElement().satisfies(t -> {
            assertThat(t.turn()).isEqualTo(2);
            assertThat(t.text()).isEqualTo("住所は東京都千代田区です");
        });
    }

    @Test
    void aFollowUpAfterAnAnswerContinuesTheConversation() {
        ScriptedModel model = ScriptedModel.of(text("It ships on 2026-12-03."), text("Yes, by courier."));
        Agent agent = Agent.builder().model(model).listener(trace).store(store).build();
        RunResult first = agent.run("When does A-104 ship?");
        RunResult next = agent.reply(first.runId(), "By courier?");
        assertThat(next.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(next.answer()).isEqualTo("Yes, by courier.");
        assertThat(model.requests().get(1).messages()).extracting(Message::text)
                .containsExactly("When does A-104 ship?", "It ships on 2026-12-03.", "By courier?");
    }

    @Test
    void theBudgetAppliesPerTurnAndTheConversationBudgetToAllTurns() {
        ScriptedModel model = ScriptedModel.of(text("one"), text("two"), text("three"), text("never"));
        Agent agent = Agent.builder().model(model).store(store).budget(Budget.builder().maxSteps(1).build())
                .conversationBudget(Budget.builder().maxSteps(2).build()).build();
        RunResult first = agent.run("go");
        RunResult second = agent.reply(first.runId(), "again");
        assertThat(second.status()).isEqualTo(RunStatus.SUCCEEDED); // one step per turn is within the turn's limit
        RunResult third = agent.reply(first.runId(), "once more");
        assertThat(third.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(third.message()).contains("conversation").contains("across all turns");
    }

    @Test
    void aPerToolCapOfTheConversationBudgetHoldsAcrossTurns() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("lookup_order", "{\"id\":\"A-104\"}")), text("It ships on 2026-12-03."),
                toolCalls(call("lookup_order", "{\"id\":\"B-7\"}")), text("B-7 as well."),
                toolCalls(call("lookup_order", "{\"id\":\"C-9\"}")), text("C-9 could not be looked up."));
        Agent agent = Agent.builder().model(model).tools(lookup()).store(store)
                .conversationBudget(Budget.builder().toolCallLimit("lookup_order", 2).build()).build();
        RunResult first = agent.run("When does A-104 ship?");
        agent.reply(first.runId(), "And B-7?");
        agent.reply(first.runId(), "And C-9?");
        // the third lookup, in the third turn, is over the conversation's cap of two: refused, not run
        List<Message> last = model.requests().get(5).messages();
        assertThat(((ToolResultBlock) last.get(last.size() - 1).content().get(0)).content())
                .contains("reached its limit of 2 calls");
        assertThat(model.requests().get(3).messages().toString()).contains("B-7 ships on 2026-12-03");
    }

    /**
     * A goal or a reply of only invisible characters (a no-break space, a zero-width space, a BOM:
     * text pasted from a web page or a Windows file) shows nothing, as an answer of them does
     * (d1d500eb): it is refused as empty, where isBlank() took it for text and the model was asked
     * to act on nothing.
     */
    @Test
    void aGoalOrAReplyOfOnlyInvisibleCharactersIsEmpty() {
        ScriptedModel model = ScriptedModel.of(text("done"));
        Agent agent = Agent.builder().model(model).store(store).build();
        for (String invisible : new String[] {"\u200B", "\u00A0\u200B", "\uFEFF", " \u2060 "}) {
            assertThatThrownBy(() -> agent.run(invisible)).isInstanceOf(ReinException.class).hasMessageContaining("the goal is empty");
        }
        RunResult done = agent.run("go");
        for (String invisible : new String[] {"\u200B", "\u00A0\u200B", "\uFEFF"}) {
            assertThatThrownBy(() -> agent.reply(done.runId(), invisible)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("the reply is empty");
        }
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void onlyARunThatAnsweredOrAskedCanBeRepliedTo() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("done"))).store(store).build();
        assertThatThrownBy(() -> agent.reply("run_missing", "hi")).isInstanceOf(ReinException.class)
                .hasMessageContaining("no run 'run_missing'");
        RunResult done = agent.run("go");
        assertThatThrownBy(() -> agent.reply(done.runId(), " ")).isInstanceOf(ReinException.class)
                .hasMessageContaining("the reply is empty");
        Agent failing = Agent.builder().model(ScriptedModel.of(toolCalls(call("finish",
                "{\"status\":\"failed\",\"summary\":\"no\",\"result\":\"no\"}")))).finishTool(true).store(store).build();
        RunResult failed = failing.run("go");
        assertThatThrownBy(() -> failing.reply(failed.runId(), "try again")).isInstanceOf(ReinException.class)
                .hasMessageContaining("only a run that answered");
    }

    @Test
    void theRepliesAreKeptInTheStoredRunWithTheirTurnsAndSecretsMasked() {
        ScriptedModel model = ScriptedModel.of(text("It ships on 2026-12-03."), text("Yes, by courier."), text("Noted."));
        Agent agent = Agent.builder().model(model).store(store)
                .secrets(dev.rein.tool.Secrets.of(java.util.Map.of("api_key", "sk-live-0123456789"))).build();
        RunResult first = agent.run("When does A-104 ship?");
        assertThat(store.load(first.runId()).orElseThrow().conversation().replies()).isEmpty();
        agent.reply(first.runId(), "By courier?");
        agent.reply(first.runId(), "my key is sk-live-0123456789, 住所は東京都です");
        RunSnapshot stored = store.load(first.runId()).orElseThrow();
        assertThat(stored.conversation().turn()).isEqualTo(3);
        assertThat(stored.conversation().replies()).containsExactly(new Conversation.Reply(2, "By courier?"),
                new Conversation.Reply(3, "my key is [REDACTED:api_key], 住所は東京都です"));
        assertThat(stored.conversation().currentReply()).isEqualTo("my key is [REDACTED:api_key], 住所は東京都です");
    }
}
