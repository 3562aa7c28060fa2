package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.RewrittenHistory;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.internal.collect.GrowingList;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The drop_block decision ({@link AnthropicThinking#dropsStaleBlocks}) of a rewritten history on a model with
 * preserved thinking: a request reads only the messages it has not seen before, and decides as the scan of the whole
 * history did (kept below as {@link #reference}).
 */
class DropDecisionTest {
    private static final RewrittenHistory REWRITTEN = new RewrittenHistory(List.of("state_in_prompt"));

    /** The decision as it was made before, reading the history from its newest message back. */
    private static boolean reference(ModelRequest request) {
        if (request.option(RewrittenHistory.class).isEmpty()) {
            return false;
        }
        String model = request.model();
        boolean preserved = AnthropicThinking.PRESERVED_THINKING.contains(model) || AnthropicThinking.PRESERVED_THINKING.stream()
                .anyMatch(m -> model.startsWith(m + "-") && model.substring(m.length()).matches("-\\d{4}[\\d-]*"));
        AnthropicThinking.Type type = request.option(AnthropicThinking.class).map(AnthropicThinking::type)
                .orElse(AnthropicThinking.Type.ADAPTIVE);
        if (!preserved || type != AnthropicThinking.Type.ADAPTIVE) {
            return false;
        }
        List<Message> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            for (ContentBlock block : messages.get(i).content()) {
                if (block instanceof ThinkingBlock || block instanceof RedactedThinkingBlock) {
                    return true;
                }
            }
        }
        return false;
    }

    /** One step of a run: the messages it adds, and how its request is sent. */
    record Step(List<Message> added, boolean stateOnLast, boolean rewritten, String model, int thinking) {}

    @Property(tries = 300)
    void decisionsAreThoseOfTheScanOfTheWholeHistory(@ForAll("runs") List<Step> run) {
        RequestMapper mapper = new RequestMapper();
        GrowingList<Message> history = GrowingList.empty();
        for (Step step : run) {
            history = history.withAll(step.added());
            if (history.isEmpty()) {
                continue;
            }
            List<Message> sent = history;
            if (step.stateOnLast()) { // as StateInPrompt does: a new last message for each request
                sent = new ArrayList<>(history);
                Message last = sent.get(sent.size() - 1);
                List<ContentBlock> blocks = new ArrayList<>(last.content());
                blocks.add(new TextBlock("<rein_state>状態</rein_state>"));
                sent.set(sent.size() - 1, new Message(last.role(), blocks));
            }
            ModelRequest.Builder b = ModelRequest.builder(step.model()).maxTokens(4096).messages(sent);
            if (step.rewritten()) {
                b.option(REWRITTEN);
            }
            switch (step.thinking()) {
                case 1 -> b.option(AnthropicThinking.adaptive());
                case 2 -> b.option(AnthropicThinking.disabled());
                case 3 -> b.option(AnthropicThinking.adaptive().withDisplay(AnthropicThinking.Display.OMITTED));
                default -> { } // no thinking option
            }
            ModelRequest request = b.build();
            assertThat(mapper.dropsStaleBlocks(request)).as("step with %s messages", sent.size()).isEqualTo(reference(request));
        }
    }

    @Provide
    Arbitrary<List<Step>> runs() {
        Arbitrary<ContentBlock> block = Arbitraries.oneOf(
                Arbitraries.of("答え", "text").map(t -> (ContentBlock) new TextBlock(t)),
                Arbitraries.just(new ToolUseBlock("toolu_1", "lookup", Json.object())),
                Arbitraries.just(new ToolResultBlock("toolu_1", "結果", false)),
                Arbitraries.of("考える", "").map(t -> (ContentBlock) new ThinkingBlock(t, "sig")),
                Arbitraries.just(new RedactedThinkingBlock("opaque")));
        // Thinking is rarer than the rest, so long histories without any are common.
        Arbitrary<ContentBlock> weighted = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, block.filter(x -> !(x instanceof ThinkingBlock || x instanceof RedactedThinkingBlock))),
                net.jqwik.api.Tuple.of(1, block));
        Arbitrary<Message> message = Arbitraries.of(true, false).flatMap(user -> weighted.list().ofMinSize(1).ofMaxSize(3)
                .map(blocks -> user ? Message.user(blocks) : Message.assistant(blocks)));
        Arbitrary<Step> step = net.jqwik.api.Combinators.combine(message.list().ofMaxSize(3), Arbitraries.of(true, false),
                Arbitraries.of(true, true, false), Arbitraries.of("claude-opus-5-5", "claude-sonnet-5-5-20261015",
                        "claude-sonnet-4-5", "claude-opus-5-5-v2"), Arbitraries.integers().between(0, 3)).as(Step::new);
        return step.list().ofMaxSize(40);
    }

    @Test
    void eachRequestReadsOnlyTheMessagesItHasNotSeenAsTheHistoryGrows() {
        // A run with state in the prompt on a model with preserved thinking that has not thought yet: each request has
        // one more turn and a new last message (the state block); it reads those, not the whole history again.
        RequestMapper mapper = new RequestMapper();
        GrowingList<Message> history = GrowingList.<Message>empty().with(Message.user("注文を調べて"));
        for (int step = 1; step <= 300; step++) {
            history = history.with(Message.assistant(List.of(new ToolUseBlock("toolu_" + step, "lookup", Json.object()))))
                    .with(Message.user(List.of(new ToolResultBlock("toolu_" + step, "結果 " + step, false))));
            List<Message> sent = new ArrayList<>(history);
            sent.set(sent.size() - 1, Message.user(List.of(new ToolResultBlock("toolu_" + step, "結果 " + step, false),
                    new TextBlock("<rein_state>step " + step + "</rein_state>"))));
            ModelRequest request = ModelRequest.builder("claude-opus-5-5").maxTokens(4096).messages(sent).option(REWRITTEN).build();
            long before = mapper.messagesRead();

            assertThat(mapper.dropsStaleBlocks(request)).isFalse();
            assertThat(mapper.messagesRead() - before).as("messages read by request %s of %s messages", step, sent.size())
                    .isLessThanOrEqualTo(3);
        }
        // and once the model thinks, the next request asks for the drop
        history = history.with(Message.assistant(List.of(new ThinkingBlock("", "sig"), new TextBlock("done"))))
                .with(Message.user("ありがとう"));
        assertThat(mapper.dropsStaleBlocks(ModelRequest.builder("claude-opus-5-5").maxTokens(4096).messages(history)
                .option(REWRITTEN).build())).isTrue();
    }
}
