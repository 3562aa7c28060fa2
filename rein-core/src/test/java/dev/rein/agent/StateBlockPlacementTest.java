package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.context.StateInPrompt;
import dev.rein.internal.collect.GrowingList;
import dev.rein.memory.MemoryEntry;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.state.AgentState;
import dev.rein.state.Conversation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the state block goes in a request, and what building it costs. */
class StateBlockPlacementTest {
    private static final AgentState STATE = AgentState.of("find it");

    private static MemoryEntry entry(String text) {
        return new MemoryEntry("mem_1", new dev.rein.memory.MemoryScope("t", "u"), text,
                dev.rein.memory.MemorySource.application("crm"), "crm", java.time.Instant.EPOCH, null);
    }

    private static GrowingList<Message> history(int pairs, Message last) {
        GrowingList<Message> history = GrowingList.<Message>empty().with(Message.user("find it"));
        for (int i = 0; i < pairs; i++) {
            history = history.with(Message.assistant(List.of(new ToolUseBlock("t" + i, "lookup",
                    dev.rein.json.Json.object())))).with(Message.user(List.of(new ToolResultBlock("t" + i, "ok " + i, false))));
        }
        return history.with(Message.assistant(List.of(new ToolUseBlock("last", "lookup", dev.rein.json.Json.object()))))
                .with(last);
    }

    /**
     * Anthropic's "Handling stop reasons" names a text block right after tool results as a cause of empty end_turn
     * responses (Claude learns to expect the user's text after every tool result) and says to send the results
     * without text after them: the state goes into the last tool result, after its content, not in a block of its own.
     */
    @Test
    void afterToolResultsTheStateGoesIntoTheLastResultNotATextBlockAfterIt() {
        Message results = Message.user(List.of(new ToolResultBlock("a", "在庫は42", false), new ToolResultBlock("last", "値: 7", false)));
        List<Message> sent = StateBlock.withMemory(StateBlock.messages(history(1, results), STATE, Conversation.FIRST,
                StateInPrompt.STATE_ONLY, 15, null), List.of(entry("remembered 東京")));
        List<ContentBlock> blocks = sent.get(sent.size() - 1).content();
        assertThat(blocks).hasSize(2).allSatisfy(b -> assertThat(b).isInstanceOf(ToolResultBlock.class));
        assertThat(blocks.get(0)).isEqualTo(new ToolResultBlock("a", "在庫は42", false));
        ToolResultBlock last = (ToolResultBlock) blocks.get(1);
        assertThat(last.toolUseId()).isEqualTo("last");
        assertThat(last.isError()).isFalse();
        assertThat(last.content()).startsWith("値: 7\n\n<rein_state").contains("goal: find it")
                .contains("</rein_state>\n\n<rein_memory").contains("remembered 東京").endsWith("</rein_memory>");
    }

    /** A user turn that ends in text (the goal, a reply) still gets the block as a text block after it. */
    @Test
    void afterTextTheStateIsATextBlockOfItsOwn() {
        List<Message> sent = StateBlock.messages(GrowingList.<Message>empty().with(Message.user("find it")), STATE,
                Conversation.FIRST, StateInPrompt.STATE_ONLY, 15, null);
        assertThat(sent).hasSize(1);
        assertThat(sent.get(0).content()).hasSize(2);
        assertThat(sent.get(0).content().get(0)).isEqualTo(new TextBlock("find it"));
        assertThat(((TextBlock) sent.get(0).content().get(1)).text()).startsWith("<rein_state");
    }

    /**
     * The block is added to each request without copying the run's history: the request's messages are the history's
     * own array with its last message replaced, however long it is (before, two copies of it per request, and two more
     * with recalled memory).
     */
    @Test
    void addingTheBlockCopiesNothingOfTheHistory() throws Exception {
        GrowingList<Message> history = history(1_000, Message.user(List.of(new ToolResultBlock("last", "7", false))));
        List<Message> sent = StateBlock.withMemory(StateBlock.messages(history, STATE, Conversation.FIRST,
                StateInPrompt.STATE_ONLY, 15, null), List.of(entry("v")));
        ModelRequest request = ModelRequest.builder("m").messages(sent).build();
        assertThat(request.messages()).hasSize(history.size()).startsWith(history.subList(0, history.size() - 1)
                .toArray(Message[]::new));
        assertThat(request.messages().get(history.size() - 1).toString()).contains("<rein_state").contains("<rein_memory");
        java.lang.reflect.Field elements = GrowingList.class.getDeclaredField("elements");
        elements.setAccessible(true);
        assertThat(elements.get(request.messages())).as("the history's array, not a copy").isSameAs(elements.get(history));
    }
}
