package dev.rein.internal.context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.context.ClearToolResults;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.context.InMemoryOutputStore;
import dev.rein.context.RecordingTracer;
import dev.rein.context.TokenCounting;
import dev.rein.context.TokenEstimator;
import dev.rein.json.Hashing;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelGateway;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.Role;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ContextManagerTest {
    private final RecordingTracer tracer = new RecordingTracer();
    private final InMemoryOutputStore store = new InMemoryOutputStore();
    private final List<ModelRequest> summaryRequests = new ArrayList<>();
    private final Model model = (request, context) -> {
        throw new AssertionError("the manager calls the model only through the gateway");
    };
    private final ModelGateway summariser = (m, request, purpose) -> {
        summaryRequests.add(request);
        assertThat(purpose).isEqualTo("compaction");
        return new ModelResponse("msg", request.model(), List.of(new TextBlock("SUMMARY " + summaryRequests.size())),
                StopReason.END_TURN, null, Usage.ZERO);
    };

    /** goal, then {@code steps} tool steps (assistant tool_use, user tool_result of {@code size} chars). */
    private static List<Message> history(int steps, int size) {
        List<Message> history = new ArrayList<>(List.of(Message.user("find the answer")));
        for (int i = 1; i <= steps; i++) {
            String tool = i % 2 == 0 ? "notes" : "search";
            history.add(Message.assistant(List.of(new TextBlock("step " + i), new ToolUseBlock("t" + i, tool, Json.parse("{\"q\":\"" + i + "\"}")))));
            history.add(Message.user(List.of(new ToolResultBlock("t" + i, ("result " + i + " ").repeat(size / 9), false))));
        }
        return history;
    }

    private static ModelRequest request(List<Message> history) {
        ToolDefinition search = new ToolDefinition("search", "searches", Json.object().put("type", "object"));
        return ModelRequest.builder("m").system("sys").tools(List.of(search)).messages(history).build();
    }

    private ContextManager manager(ContextPolicy policy) {
        return new ContextManager(policy, model, store, tracer);
    }

    private static List<ToolResultBlock> results(List<Message> history) {
        List<ToolResultBlock> results = new ArrayList<>();
        history.forEach(m -> m.content().stream().filter(ToolResultBlock.class::isInstance).map(ToolResultBlock.class::cast).forEach(results::add));
        return results;
    }

    @Test
    void clearingKeepsTheNewestResultsAndLeavesPlaceholdersThatKeepTheHistoryValid() throws Exception {
        List<Message> original = history(6, 2_000);
        ContextManager manager = manager(ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_000, 2))
                .tokenCounting(TokenCounting.ESTIMATE).build());

        List<Message> edited = manager.prepare(request(original), summariser).orElseThrow();

        assertThat(HistoryValidator.problems(edited)).isEmpty();
        assertThat(edited).hasSameSizeAs(original);
        List<ToolResultBlock> results = results(edited);
        for (int i = 0; i < 4; i++) {
            String was = results(original).get(i).content();
            assertThat(results.get(i).content()).startsWith("[rein: cleared] This result of '" + (i % 2 == 0 ? "search" : "notes") + "'")
                    .contains("Call the tool again").contains(Hashing.sha256(was).substring(0, 16));
            assertThat(store.get(Hashing.sha256(was))).contains(was);
        }
        assertThat(results.subList(4, 6)).isEqualTo(results(original).subList(4, 6));
        assertThat(tracer.events(TraceEvent.ContextEdited.class)).singleElement().satisfies(e -> {
            assertThat(e.edit()).isEqualTo("clear_tool_results");
            assertThat(e.details()).containsEntry("cleared", 4).containsEntry("kept", 2);
            assertThat(e.tokensAfter()).isLessThan(e.tokensBefore());
        });
        assertThat(manager.prepare(request(edited), summariser)).as("nothing left to clear").isEmpty();
    }

    /** The trace counts cleared characters as the placeholders do: by code point, so an emoji is one, not two. */
    @Test
    void theClearedCharactersOfTheTraceAreCountedAsThePlaceholdersCountThem() throws Exception {
        List<Message> original = new ArrayList<>(List.of(Message.user("find the answer")));
        for (int i = 1; i <= 3; i++) {
            original.add(Message.assistant(List.of(new ToolUseBlock("t" + i, "search", Json.parse("{\"q\":\"" + i + "\"}")))));
            original.add(Message.user(List.of(new ToolResultBlock("t" + i, "😀天気".repeat(1_000), false))));
        }
        ContextManager manager = manager(ContextPolicy.builder().clearToolResults(ClearToolResults.client(100, 1))
                .tokenCounting(TokenCounting.ESTIMATE).build());

        List<Message> edited = manager.prepare(request(original), summariser).orElseThrow();

        assertThat(results(edited).get(0).content()).contains("(3,000 characters,");
        assertThat(tracer.events(TraceEvent.ContextEdited.class)).singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("cleared", 2).containsEntry("characters", 6_000L));
    }

    /**
     * The size under which a result is left alone is what the placeholder would cost: 250 Japanese
     * characters are estimated at 250 tokens, more than three times the placeholder, and are
     * cleared; 299 ASCII characters (75 tokens) are still left alone, as before.
     */
    @Test
    void aShortJapaneseResultWorthManyTokensIsClearedAndAShortAsciiOneIsNot() throws Exception {
        List<Message> original = new ArrayList<>(List.of(Message.user("調べて")));
        String[] contents = {"東京の天気は晴れ、".repeat(30).substring(0, 250), "a".repeat(299), "最新の結果"};
        for (int i = 0; i < contents.length; i++) {
            original.add(Message.assistant(List.of(new ToolUseBlock("t" + i, "search", Json.parse("{\"q\":\"" + i + "\"}")))));
            original.add(Message.user(List.of(new ToolResultBlock("t" + i, contents[i], false))));
        }
        ContextManager manager = manager(ContextPolicy.builder().clearToolResults(ClearToolResults.client(100, 1))
                .tokenCounting(TokenCounting.ESTIMATE).build());

        List<Message> edited = manager.prepare(request(original), summariser).orElseThrow();

        assertThat(results(edited).get(0).content()).startsWith("[rein: cleared]").contains("(250 characters,");
        assertThat(TokenEstimator.text(results(edited).get(0).content())).isLessThan(TokenEstimator.text(contents[0]));
        assertThat(results(edited).get(1).content()).isEqualTo(contents[1]);
        assertThat(results(edited).get(2).content()).isEqualTo(contents[2]);
        assertThat(HistoryValidator.problems(edited)).isEmpty();
    }

    @Test
    void belowTheTriggerOrForExcludedToolsNothingIsCleared() throws Exception {
        List<Message> original = history(6, 2_000);
        assertThat(manager(ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_000_000, 2)).build())
                .prepare(request(original), summariser)).isEmpty();
        List<Message> edited = manager(ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_000, 0).excluding("notes"))
                .tokenCounting(TokenCounting.ESTIMATE).build()).prepare(request(original), summariser).orElseThrow();
        List<ToolResultBlock> results = results(edited);
        assertThat(results.get(0).content()).startsWith("[rein: cleared]");
        assertThat(results.get(1).content()).startsWith("result 2");
        assertThat(HistoryValidator.problems(edited)).isEmpty();
    }

    @Test
    void compactionSummarisesTheOldTurnsWithOneCallAndKeepsTheNewestFromAnAssistantMessage() throws Exception {
        List<Message> original = history(6, 2_000);
        ContextManager manager = manager(ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(4))
                .tokenCounting(TokenCounting.ESTIMATE).build());

        List<Message> compacted = manager.prepare(request(original), summariser).orElseThrow();

        assertThat(HistoryValidator.problems(compacted)).isEmpty();
        assertThat(compacted).hasSize(5);
        assertThat(compacted.get(0).content()).containsExactly(new TextBlock("find the answer"),
                new TextBlock("[rein: summary of earlier work]\nSUMMARY 1"));
        assertThat(compacted.subList(1, 5)).isEqualTo(original.subList(9, 13));
        assertThat(compacted.get(1).role()).isEqualTo(Role.ASSISTANT);

        ModelRequest summaryCall = summaryRequests.get(0);
        assertThat(summaryCall.toolChoice()).isEqualTo(ToolChoice.none());
        assertThat(summaryCall.tools()).extracting(ToolDefinition::name).containsExactly("search");
        assertThat(summaryCall.systemText()).isEqualTo("sys");
        assertThat(summaryCall.messages()).hasSize(9);
        List<ContentBlock> last = summaryCall.messages().get(8).content();
        assertThat(last.get(last.size() - 1)).isInstanceOfSatisfying(TextBlock.class,
                t -> assertThat(t.text()).startsWith("[rein] Your context is nearly full"));
        assertThat(HistoryValidator.problems(summaryCall.messages())).isEmpty();
        assertThat(tracer.events(TraceEvent.ContextEdited.class)).singleElement().satisfies(e -> {
            assertThat(e.edit()).isEqualTo("compact");
            assertThat(e.details()).containsEntry("messages_replaced", 9);
        });

        List<Message> grown = new ArrayList<>(compacted);
        grown.addAll(history(9, 2_000).subList(13, 19));
        List<Message> again = manager.prepare(request(grown), summariser).orElseThrow();
        assertThat(HistoryValidator.problems(again)).isEmpty();
        assertThat(again.get(0).content()).containsExactly(new TextBlock("find the answer"),
                new TextBlock("[rein: summary of earlier work]\nSUMMARY 2"));
    }

    @Test
    void compactionNeverCutsBetweenTheTwoPartsOfAPausedTurn() throws Exception {
        // A turn the provider paused (pause_turn) and the model then continued is two assistant
        // messages in a row: cutting between them would end the summary request with an assistant
        // message (a prefill, which some models refuse) and put the instructions in its mouth.
        List<Message> original = history(6, 2_000);
        original.add(9, Message.assistant(List.of(new TextBlock("still searching"))));
        ContextManager manager = manager(ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(4))
                .tokenCounting(TokenCounting.ESTIMATE).build());

        List<Message> compacted = manager.prepare(request(original), summariser).orElseThrow();

        List<Message> sent = summaryRequests.get(0).messages();
        assertThat(sent.get(sent.size() - 1).role()).isEqualTo(Role.USER);
        assertThat(compacted.get(1).role()).isEqualTo(Role.ASSISTANT);
        assertThat(compacted.subList(1, compacted.size())).isEqualTo(original.subList(12, 14));
    }

    @Test
    void clearingRunsFirstAndCompactionOnlyIfStillOverItsTrigger() throws Exception {
        ContextPolicy policy = ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_000, 1))
                .compaction(Compaction.client(5_000)).tokenCounting(TokenCounting.ESTIMATE).build();
        List<Message> edited = manager(policy).prepare(request(history(6, 2_000)), summariser).orElseThrow();
        assertThat(summaryRequests).isEmpty();
        assertThat(tracer.events(TraceEvent.ContextEdited.class)).extracting(TraceEvent.ContextEdited::edit)
                .containsExactly("clear_tool_results");
        assertThat(HistoryValidator.problems(edited)).isEmpty();
    }

    @Test
    void aFailedSummaryCallLeavesTheHistoryAloneAndIsReported() throws Exception {
        ModelGateway down = (m, request, purpose) -> {
            throw new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.OVERLOADED, 529, "overloaded");
        };
        ContextManager manager = manager(ContextPolicy.builder().compaction(Compaction.client(1_000))
                .tokenCounting(TokenCounting.ESTIMATE).build());
        assertThat(manager.prepare(request(history(6, 2_000)), down)).isEmpty();
        assertThat(tracer.events(TraceEvent.Intervention.class)).singleElement()
                .satisfies(e -> assertThat(e.kind()).isEqualTo("context"))
                .satisfies(e -> assertThat(e.message()).contains("compaction did not happen"));
    }

    /**
     * A summary that shows nothing (only a zero-width space, a no-break space or a BOM: a model
     * that answered only a tool call, or an invisible character) is no summary: the history stays,
     * as for an empty one, where it replaced every summarised turn with an invisible text.
     */
    @Test
    void aSummaryOfOnlyInvisibleCharactersDoesNotReplaceTheHistory() throws Exception {
        ModelGateway invisible = (m, request, purpose) -> new ModelResponse("msg", request.model(),
                List.of(new TextBlock("\u200B\u00A0\uFEFF")), StopReason.END_TURN, null, Usage.ZERO);
        ContextManager manager = manager(ContextPolicy.builder().compaction(Compaction.client(1_000))
                .tokenCounting(TokenCounting.ESTIMATE).build());
        assertThat(manager.prepare(request(history(6, 2_000)), invisible)).isEmpty();
        assertThat(tracer.events(TraceEvent.ContextEdited.class)).isEmpty();
        assertThat(tracer.events(TraceEvent.Intervention.class)).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("compaction did not happen")
                        .contains("the summary call returned no text"));
    }

    /**
     * The context intervention of a compaction that did not happen says why it did not, one reason
     * (the call failed with the provider's message, was cut off at max_tokens, was refused, too
     * little history), where every skip gave the same list of five possible reasons.
     */
    @Test
    void aSkippedCompactionSaysWhyItWasSkipped() throws Exception {
        record Case(String why, ModelGateway gateway, List<Message> history) {}
        ModelGateway down = (m, request, purpose) -> {
            throw new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.OVERLOADED, 529, "overloaded");
        };
        ModelGateway cut = (m, request, purpose) -> new ModelResponse("msg", request.model(),
                List.of(new TextBlock("The goal is")), StopReason.MAX_TOKENS, null, Usage.ZERO);
        ModelGateway refused = (m, request, purpose) -> new ModelResponse("msg", request.model(),
                List.of(new TextBlock("I can't")), StopReason.REFUSAL, null, Usage.ZERO);
        List<Message> short_ = new ArrayList<>(List.of(Message.user("x".repeat(20_000))));
        List<Case> cases = List.of(
                new Case("the summary call failed: overloaded", down, history(6, 2_000)),
                new Case("the summary was cut off at max_tokens", cut, history(6, 2_000)),
                new Case("the summary call was refused", refused, history(6, 2_000)),
                new Case("too little history to summarise", summariser, short_));
        for (Case c : cases) {
            RecordingTracer own = new RecordingTracer();
            ContextManager manager = new ContextManager(ContextPolicy.builder().compaction(Compaction.client(1_000))
                    .tokenCounting(TokenCounting.ESTIMATE).build(), model, store, own);
            assertThat(manager.prepare(request(c.history()), c.gateway())).as(c.why()).isEmpty();
            assertThat(own.events(TraceEvent.Intervention.class)).as(c.why()).singleElement()
                    .satisfies(e -> assertThat(e.message()).contains("compaction did not happen: " + c.why())
                            .doesNotContain(" or "));
        }
    }

    @Test
    void theProviderCountDecidesOnceTheEstimateIsNearATrigger() throws Exception {
        AtomicInteger counted = new AtomicInteger();
        Model counting = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, dev.rein.model.ModelCallContext context) {
                throw new AssertionError("not called");
            }

            @Override
            public long countTokens(ModelRequest request) {
                counted.incrementAndGet();
                return 1_000_000;
            }
        };
        ContextPolicy policy = ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_000, 1)).build();
        assertThat(new ContextManager(policy, counting, store, tracer).prepare(request(history(1, 100)), summariser)).isEmpty();
        assertThat(counted).as("far below the trigger: no count call").hasValue(0);

        List<Message> history = history(3, 600);
        assertThat(new ContextManager(policy, counting, store, tracer).prepare(request(history), summariser)).isPresent();
        assertThat(counted.get()).isPositive();
        assertThat(tracer.events(TraceEvent.ContextEdited.class).get(0).tokensBefore()).isEqualTo(1_000_000);

        counted.set(0);
        ContextPolicy estimateOnly = ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_000, 1))
                .tokenCounting(TokenCounting.ESTIMATE).build();
        new ContextManager(estimateOnly, counting, store, tracer).prepare(request(history), summariser);
        assertThat(counted).hasValue(0);
    }

    @Test
    void serverSideSettingsAreSentNotApplied() throws Exception {
        ContextPolicy policy = ContextPolicy.builder()
                .clearToolResults(ClearToolResults.server(50_000, 4).excluding("memory"))
                .compaction(Compaction.server(120_000).withInstructions("keep ids"))
                .build();
        assertThat(policy.serverEdits()).containsExactly(
                new ServerContextEdit.ClearToolUses(50_000, 4, null, List.of("memory"), false),
                new ServerContextEdit.Compact(120_000, "keep ids"));
        assertThat(manager(policy).prepare(request(history(20, 2_000)), summariser)).isEmpty();
        assertThat(ContextPolicy.defaults().serverEdits()).isEmpty();
        assertThat(ContextPolicy.defaults().toolOutputLimit()).isEqualTo(4_000);
    }

    @Test
    void settingsThatCannotWorkAreRefused() {
        assertThatThrownBy(() -> ContextPolicy.builder().clearToolResults(ClearToolResults.client(10_000, 3))
                .compaction(Compaction.client(5_000)).build()).isInstanceOf(ReinException.class).hasMessageContaining("never run");
        assertThatThrownBy(() -> ClearToolResults.client(0, 3)).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> Compaction.client(1_000).keepingLast(0)).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> ContextPolicy.builder().toolOutputLimit(-1)).isInstanceOf(ReinException.class);
    }
}
