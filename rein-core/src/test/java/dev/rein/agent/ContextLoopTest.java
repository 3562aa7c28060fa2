package dev.rein.agent;

import dev.rein.run.RunStatus;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.reply;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.context.ClearToolResults;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.internal.context.HistoryValidator;
import dev.rein.context.InMemoryOutputStore;
import dev.rein.context.OutputStore;
import dev.rein.context.TokenEstimator;
import dev.rein.json.Hashing;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.security.UntrustedData;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ContextLoopTest {
    private static final int PAGE_CHARS = 20_000;
    private final RecordingListener trace = new RecordingListener();

    /** A tool whose every output is 20 KB and different from the others. */
    private static Tool fetchPage() {
        return Tool.builder("fetch_page").description("Fetches a page.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"page\":{\"type\":\"integer\"}},\"required\":[\"page\"]}")
                .handler((args, ctx) -> page(args.get("page").asInt()))
                .build();
    }

    private static String page(int n) {
        String line = "page " + n + ": lorem ipsum dolor sit amet, consectetur adipiscing elit " + n + "\n";
        StringBuilder sb = new StringBuilder();
        while (sb.length() < PAGE_CHARS) {
            sb.append(line);
        }
        return sb.substring(0, PAGE_CHARS);
    }

    /**
     * A scripted model that asks for {@code pages} pages one step at a time, answers compaction
     * requests with a summary, then gives the final answer.
     */
    private static ScriptedModel reader(int pages) {
        AtomicInteger asked = new AtomicInteger();
        ScriptedModel.Turn turn = (request, number) -> {
            if (lastText(request).startsWith("[rein] Your context is nearly full")) {
                return text("Summary: pages 1-" + asked.get() + " read; each repeats its lorem line.").answer(request, number);
            }
            int next = asked.incrementAndGet();
            return next <= pages ? toolCalls(call("fetch_page", "{\"page\":" + next + "}")).answer(request, number)
                    : text("read all " + pages + " pages").answer(request, number);
        };
        return ScriptedModel.of(Collections.nCopies(pages * 3, turn));
    }

    private static String lastText(ModelRequest request) {
        List<ContentBlock> blocks = request.messages().get(request.messages().size() - 1).content();
        return blocks.get(blocks.size() - 1) instanceof TextBlock t ? t.text() : "";
    }

    private Agent.Builder agent(Model model) {
        return Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES).tools(fetchPage()).listener(trace)
                .budget(Budget.builder().maxSteps(120).build());
    }

    @Test
    void aHundredStepRunWith20KbToolOutputsStaysUnderTheConfiguredContextSizeAtEveryStep() {
        final long maxContextTokens = 10_000;
        InMemoryOutputStore store = new InMemoryOutputStore();
        ContextPolicy policy = ContextPolicy.builder()
                .outputStore(store)
                .clearToolResults(ClearToolResults.client(6_000, 2))
                .compaction(Compaction.client(7_000).keepingLast(4))
                .build();
        ScriptedModel model = reader(100);

        RunResult result = agent(model).contextPolicy(policy).build().run("read pages 1 to 100");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("read all 100 pages");
        assertThat(result.steps()).isEqualTo(101);
        long largest = 0;
        for (ModelRequest request : model.requests()) {
            long tokens = TokenEstimator.estimate(request);
            largest = Math.max(largest, tokens);
            assertThat(tokens).isLessThanOrEqualTo(maxContextTokens);
            assertThat(HistoryValidator.problems(request.messages())).isEmpty();
        }
        List<TraceEvent.ContextEdited> edits = trace.events(TraceEvent.ContextEdited.class);
        long clearings = edits.stream().filter(e -> e.edit().equals("clear_tool_results")).count();
        long compactions = edits.stream().filter(e -> e.edit().equals("compact")).count();
        assertThat(clearings).isPositive();
        assertThat(compactions).isPositive();
        assertThat(trace.events(TraceEvent.ModelRequested.class)).filteredOn(e -> e.purpose().equals("compaction")).hasSize((int) compactions);
        assertThat(trace.events(TraceEvent.OutputTruncated.class)).hasSize(100);
        for (int n = 1; n <= 100; n++) {
            assertThat(store.get(Hashing.sha256(page(n)))).as("page %d kept out of band", n).contains(page(n));
        }
        assertThat(trace.events(TraceEvent.StallDetected.class)).isEmpty();
        System.out.printf("100-step run: largest request %,d estimated tokens (limit %,d), %d clearings, %d compactions,"
                + " %d model calls%n", largest, maxContextTokens, clearings, compactions, model.requests().size());

        ScriptedModel control = reader(100);
        agent(control).build().run("read pages 1 to 100");
        long uncontrolled = TokenEstimator.estimate(control.lastRequest());
        System.out.printf("the same run with truncation only: last request %,d estimated tokens%n", uncontrolled);
        assertThat(uncontrolled).as("without clearing and compaction the context grows past the limit").isGreaterThan(maxContextTokens * 5);
    }

    @Test
    void tooLongOutputReachesTheModelTruncatedWithANoticeAndTheTraceHasTheHash() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("fetch_page", "{\"page\":7}")), text("ok"));
        agent(model).build().run("read page 7");

        ToolResultBlock seen = (ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        String traced = trace.events(TraceEvent.ToolCompleted.class).get(0).content();
        assertThat(traced).startsWith(page(7).substring(0, 4_000) + "\n\n[rein] Output truncated: showing the first 4,000 of 20,000");
        TraceEvent.OutputTruncated truncated = trace.events(TraceEvent.OutputTruncated.class).get(0);
        assertThat(truncated.sha256()).isEqualTo(Hashing.sha256(page(7)));
        assertThat(truncated.callId()).isEqualTo(seen.toolUseId());
        assertThat(seen.content()).as("the model sees the traced output inside the untrusted-data wrapper")
                .isEqualTo(UntrustedData.wrap(traced, "tool:fetch_page", "fetch_page"));
    }

    @Test
    void clearedResultsShowThePlaceholderToTheModel() {
        ScriptedModel model = reader(4);
        agent(model).contextPolicy(ContextPolicy.builder().clearToolResults(ClearToolResults.client(1_500, 1)).build())
                .build().run("read 4 pages");

        List<Message> last = model.lastRequest().messages();
        List<ToolResultBlock> results = new ArrayList<>();
        last.forEach(m -> m.content().stream().filter(ToolResultBlock.class::isInstance).map(ToolResultBlock.class::cast).forEach(results::add));
        assertThat(results).hasSize(4);
        assertThat(results.subList(0, 3)).allSatisfy(r -> assertThat(r.content()).startsWith("[rein: cleared] This result of 'fetch_page'"));
        assertThat(results.get(3).content()).contains("\npage 4:");
        assertThat(HistoryValidator.problems(last)).isEmpty();
    }

    @Test
    void theProvidersTokenCountIsUsedWhenTheModelOffersOne() {
        ScriptedModel scripted = reader(3);
        AtomicInteger counts = new AtomicInteger();
        Model counting = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                return scripted.call(request, context);
            }

            @Override
            public long countTokens(ModelRequest request) {
                counts.incrementAndGet();
                return 500_000;
            }
        };
        agent(counting).contextPolicy(ContextPolicy.builder().clearToolResults(ClearToolResults.client(2_000, 1)).build())
                .build().run("read 3 pages");
        assertThat(counts.get()).isPositive();
        assertThat(trace.events(TraceEvent.ContextEdited.class)).isNotEmpty()
                .allSatisfy(e -> assertThat(e.tokensBefore()).isEqualTo(500_000));
    }

    @Test
    void serverSideEditsAreChosenInTheSamePolicyAndSentWithEveryRequest() {
        ScriptedModel model = reader(2);
        agent(model).contextPolicy(ContextPolicy.builder()
                        .clearToolResults(ClearToolResults.server(30_000, 3))
                        .compaction(Compaction.server(100_000)).build())
                .build().run("read 2 pages");
        assertThat(model.requests()).allSatisfy(r -> assertThat(r.option(ServerContextEdits.class).orElseThrow().edits()).containsExactly(
                new ServerContextEdit.ClearToolUses(30_000, 3, null, List.of(), false),
                new ServerContextEdit.Compact(100_000, null)));
        assertThat(trace.events(TraceEvent.ContextEdited.class)).isEmpty();

        assertThatThrownBy(() -> Agent.builder().model(model)
                .serverContextEdits(List.of(ServerContextEdit.ClearToolUses.defaults()))
                .contextPolicy(ContextPolicy.builder().clearToolResults(ClearToolResults.server()).build()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("set twice");
    }

    @Test
    void aFailedCompactionCallDoesNotEndTheRun() {
        AtomicInteger calls = new AtomicInteger();
        ScriptedModel.Turn turn = (request, number) -> {
            if (lastText(request).startsWith("[rein] Your context is nearly full")) {
                throw new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "prompt is too long");
            }
            int n = calls.incrementAndGet();
            return n <= 4 ? toolCalls(call("fetch_page", "{\"page\":" + n + "}")).answer(request, number) : text("done").answer(request, number);
        };
        RunResult result = agent(ScriptedModel.of(Collections.nCopies(20, turn)))
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("read");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.ModelFailed.class)).isNotEmpty();
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("context")).isNotEmpty();
    }

    @Test
    void aSummaryCutOffAtMaxTokensOrRefusedDoesNotReplaceTheHistory() {
        // the history is replaced by the summary: a summary cut off at max_tokens has lost its end
        // (what remains to do), and a refusal's text is no summary at all; each is a failed summary
        for (dev.rein.model.StopReason stop : List.of(dev.rein.model.StopReason.MAX_TOKENS, dev.rein.model.StopReason.REFUSAL)) {
            RecordingListener events = new RecordingListener();
            AtomicInteger calls = new AtomicInteger();
            ScriptedModel.Turn turn = (request, number) -> {
                if (lastText(request).startsWith("[rein] Your context is nearly full")) {
                    return reply(stop, ScriptedModel.DEFAULT_USAGE, new TextBlock("Summary: pages 1-3 were read; still to do: pa"))
                            .answer(request, number);
                }
                int n = calls.incrementAndGet();
                return n <= 4 ? toolCalls(call("fetch_page", "{\"page\":" + n + "}")).answer(request, number) : text("done").answer(request, number);
            };
            RunResult result = agent(ScriptedModel.of(Collections.nCopies(20, turn))).listener(events)
                    .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                    .build().run("read");
            assertThat(result.status()).as(stop.name()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(events.events(TraceEvent.ContextEdited.class)).as(stop.name()).isEmpty();
            assertThat(result.history().get(0).content()).as(stop.name())
                    .noneMatch(b -> b instanceof TextBlock t && t.text().startsWith("[rein: summary"));
            assertThat(events.events(TraceEvent.Intervention.class)).as(stop.name()).filteredOn(e -> e.kind().equals("context"))
                    .isNotEmpty();
        }
    }

    @Test
    void aResultWhoseTextCannotBeStoredIsNotClearedAndTheFailureIsReported() {
        OutputStore broken = new dev.rein.testkit.BrokenOutputStore();
        ScriptedModel model = reader(4);
        RunResult result = agent(model).contextPolicy(ContextPolicy.builder().outputStore(broken)
                        .clearToolResults(ClearToolResults.client(1_500, 1)).build())
                .build().run("read 4 pages");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<ToolResultBlock> results = new ArrayList<>();
        model.lastRequest().messages().forEach(m -> m.content().stream().filter(ToolResultBlock.class::isInstance)
                .map(ToolResultBlock.class::cast).forEach(results::add));
        assertThat(results).hasSize(4).as("nothing that could not be kept out of band is removed")
                .allSatisfy(r -> assertThat(r.content()).doesNotStartWith("[rein: cleared]").contains("lorem ipsum"));
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("context"))
                .anySatisfy(e -> assertThat(e.message()).contains("not cleared").contains("disk full"));
    }
    /**
     * A compaction's summary call may write at most the output tokens the output token limit still leaves, as a
     * step may (its max_tokens lowered to them), and when it writes them all the step's model call is not made:
     * the run stops STOPPED_BUDGET/max_output_tokens with the one summary call, where the compaction asked for the
     * agent's 8,192 and the step call after it was made with 8,192 too, so the run ended thousands of tokens past
     * its limit.
     */
    @Test
    void aCompactionWritesAtMostWhatTheOutputLimitLeavesAndOneThatSpendsItAllEndsTheRunForThatLimit() {
        AtomicInteger pages = new AtomicInteger();
        List<Integer> compactionMaxTokens = new ArrayList<>();
        ScriptedModel model = pagesThenACompactionThatWritesAll(pages, compactionMaxTokens);
        RunResult result = agent(model).budget(Budget.builder().maxSteps(120).maxOutputTokens(1_000L).build())
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("read");

        assertThat(compactionMaxTokens).hasSize(1);
        // the steps before it wrote 20 tokens each
        long spentBefore = 20L * (pages.get());
        assertThat(compactionMaxTokens.get(0)).isEqualTo((int) (1_000 - spentBefore));
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_output_tokens");
        assertThat(result.answer()).isEqualTo("what is known");
        // no step call after the compaction: the next request is the summary's
        ModelRequest afterCompaction = null;
        for (int i = 0; i < model.requests().size() - 1; i++) {
            if (lastText(model.requests().get(i)).startsWith("[rein] Your context is nearly full")) {
                afterCompaction = model.requests().get(i + 1);
            }
        }
        assertThat(afterCompaction).isNotNull();
        assertThat(afterCompaction.toolChoice()).isEqualTo(dev.rein.model.ToolChoice.none());
        // every call but the summary (made with the agent's max_tokens once the output limit itself ran out)
        assertThat(model.requests().subList(0, model.requests().size() - 1))
                .allSatisfy(r -> assertThat(r.maxTokens()).isLessThanOrEqualTo(1_000));
        assertThat(result.usage().outputTokens() - 20).isEqualTo(1_000); // the limit, and the summary's own
    }

    /** An option a provider checks against max_tokens (as Anthropic's thinking budget must stay below it). */
    private record NeedsRoom(int tokens) implements dev.rein.model.ModelOption {
        @Override
        public void check(ModelRequest request) {
            if (tokens >= request.maxTokens()) {
                throw new dev.rein.ReinException("needs " + tokens + " below maxTokens " + request.maxTokens());
            }
        }
    }

    /**
     * A compaction whose request an option needs more room in than the output limit leaves is sent with the agent's
     * max_tokens, as a step's is (README: such an option keeps the step's max_tokens as set), not lowered to a request
     * the provider would refuse.
     */
    @Test
    void aCompactionWhoseOptionNeedsMoreRoomThanTheOutputLimitLeavesKeepsTheAgentsMaxTokens() {
        AtomicInteger pages = new AtomicInteger();
        List<Integer> compactionMaxTokens = new ArrayList<>();
        ScriptedModel model = pagesThenACompactionThatWritesAll(pages, compactionMaxTokens);
        agent(model).modelOption(new NeedsRoom(990)).budget(Budget.builder().maxSteps(120).maxOutputTokens(1_000L).build())
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("read");

        assertThat(compactionMaxTokens).first().isEqualTo(8192);
        assertThat(model.requests()).allSatisfy(r -> assertThat(r.maxTokens()).isGreaterThan(990));
    }

    /**
     * A compaction's summary call whose max_tokens a limit lowered says so just before it, as a step's and the final
     * summary's do (the README: each lowering is in the trace, just before the call); it was sent lowered unsaid.
     */
    @Test
    void aCompactionWhoseMaxTokensALimitLoweredSaysSoJustBeforeItsCall() {
        AtomicInteger pages = new AtomicInteger();
        List<Integer> compactionMaxTokens = new ArrayList<>();
        ScriptedModel model = pagesThenACompactionThatWritesAll(pages, compactionMaxTokens);
        agent(model).budget(Budget.builder().maxSteps(120).maxOutputTokens(1_000L).build())
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("read");

        assertThat(compactionMaxTokens).isNotEmpty().first().isNotEqualTo(8192);
        List<TraceEvent> events = trace.events();
        int compactions = 0;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof TraceEvent.ModelRequested requested && requested.purpose().equals("compaction")) {
                compactions++;
                int loweredTo = compactionMaxTokens.get(compactions - 1);
                assertThat(events.get(i - 1)).as("the event before compaction call %d", compactions)
                        .isInstanceOfSatisfying(TraceEvent.Intervention.class, lowered -> {
                            assertThat(lowered.kind()).isEqualTo("max_tokens_lowered");
                            assertThat(lowered.message()).startsWith("max_tokens lowered from 8192 to " + loweredTo + ": ");
                        });
            }
        }
        assertThat(compactions).isPositive();
        // said once for each call lowered, not again for the step the compaction was made for when its own is not lowered
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(i -> i.kind().equals("max_tokens_lowered"))
                .hasSizeLessThanOrEqualTo((int) events.stream().filter(e -> e instanceof TraceEvent.ModelRequested).count());
    }

    /**
     * A model that reads pages (up to six calls of fetch_page, counted in {@code pages}), answers a
     * compaction with a summary that writes every token the request allows (its max_tokens added to
     * {@code compactionMaxTokens}), and a final summary request with "what is known".
     */
    /**
     * One numbering: a step's events carry its number, and a compaction made before a step's call is numbered with
     * the steps made so far, as the final summary call is. Where the compaction used a limit up and the step's call
     * was not made (that step not counted, f4e198bf), no event carries a step the run's steps and run_finished do not
     * have, where the compaction's model_request, context_edited and usage were numbered one step more than the
     * run's steps and its run_finished.
     */
    @Test
    void noEventIsNumberedWithAStepTheRunDidNotMake() {
        AtomicInteger pages = new AtomicInteger();
        ScriptedModel model = pagesThenACompactionThatWritesAll(pages, new ArrayList<>());
        RunResult result = agent(model).budget(Budget.builder().maxSteps(120).maxOutputTokens(1_000L).build())
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("read");

        assertThat(result.reason()).isEqualTo("max_output_tokens");
        assertThat(trace.events()).allSatisfy(e -> assertThat(e.step()).as(e.toString()).isLessThanOrEqualTo(result.steps()));
        assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement().extracting(TraceEvent.RunFinished::step)
                .isEqualTo(result.steps());
        // each compaction is numbered with the step before the step call it was made for
        List<TraceEvent.ModelRequested> requests = trace.events(TraceEvent.ModelRequested.class);
        for (int i = 0; i + 1 < requests.size(); i++) {
            if (requests.get(i).purpose().equals("compaction") && requests.get(i + 1).purpose().equals("step")) {
                assertThat(requests.get(i).step()).isEqualTo(requests.get(i + 1).step() - 1);
            }
        }
        assertThat(requests).filteredOn(r -> r.purpose().equals("compaction")).last()
                .satisfies(r -> assertThat(r.step()).isEqualTo(result.steps()));
    }

    private static ScriptedModel pagesThenACompactionThatWritesAll(AtomicInteger pages, List<Integer> compactionMaxTokens) {
        ScriptedModel.Turn turn = (request, number) -> {
            if (lastText(request).startsWith("[rein] Your context is nearly full")) {
                compactionMaxTokens.add(request.maxTokens());
                return reply(dev.rein.model.StopReason.END_TURN, dev.rein.model.Usage.of(100, request.maxTokens(), 0, 0),
                        new TextBlock("Summary: pages read.")).answer(request, number);
            }
            if (request.toolChoice().equals(dev.rein.model.ToolChoice.none())) {
                return text("what is known").answer(request, number);
            }
            int n = pages.incrementAndGet();
            return n <= 6 ? toolCalls(call("fetch_page", "{\"page\":" + n + "}")).answer(request, number) : text("done").answer(request, number);
        };
        return ScriptedModel.of(Collections.nCopies(20, turn));
    }

    /**
     * A step counts one model call that may propose actions (README's budget table): a compaction that uses the
     * output token limit up before the step's call is made leaves that step uncounted, so the run's steps (its
     * result, run_finished) are the step calls it made, where it counted one more step than it made calls.
     */
    @Test
    void aStepWhoseCallACompactionLeftUnmadeIsNotCounted() {
        AtomicInteger pages = new AtomicInteger();
        ScriptedModel model = pagesThenACompactionThatWritesAll(pages, new ArrayList<>());
        RunResult result = agent(model).budget(Budget.builder().maxSteps(120).maxOutputTokens(1_000L).build())
                .contextPolicy(ContextPolicy.builder().compaction(Compaction.client(2_000).keepingLast(2)).build())
                .build().run("read");

        assertThat(result.reason()).isEqualTo("max_output_tokens");
        long stepCalls = trace.events(TraceEvent.ModelRequested.class).stream().filter(e -> e.purpose().equals("step")).count();
        assertThat(stepCalls).isEqualTo(pages.get());
        assertThat(result.steps()).isEqualTo((int) stepCalls);
        assertThat(trace.events(TraceEvent.RunFinished.class)).singleElement().extracting(TraceEvent.RunFinished::step)
                .isEqualTo((int) stepCalls);
    }
}
