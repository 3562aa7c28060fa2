package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.json.Json;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 2's contract at its edges, as a user would probe it: each budget layer at its limit and one
 * step past it, budgets across a resume and a reply, a parallel step with a throw, a timeout and a huge
 * result, Japanese text through the tools and the JSONL trace, odd model responses, and the trace
 * when a run ends abnormally.
 */
class ContractEdgesTest {
    private final RecordingListener trace = new RecordingListener();

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(TestTools.echo()).listener(trace);
    }

    private static ScriptedModel.Turn echoStep(String text) {
        return toolCalls(call("echo", "{\"text\":\"" + text + "\"}"));
    }

    @Test
    void stepsAtTheLimitAcceptAnAnswerAndOneMoreStepIsASummary() {
        RunResult atLimit = agent(ScriptedModel.of(echoStep("1"), text("done"))).budget(Budget.builder().maxSteps(2).build())
                .build().run("go");
        assertThat(atLimit.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(atLimit.steps()).isEqualTo(2);

        ScriptedModel over = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult stopped = agent(over).budget(Budget.builder().maxSteps(2).build()).build().run("go");
        assertThat(stopped.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(stopped.reason()).isEqualTo("max_steps");
        assertThat(stopped.answer()).isEqualTo("summary");
        assertThat(over.requests()).hasSize(3);
        assertThat(over.lastRequest().toolChoice()).isEqualTo(ToolChoice.none());
    }

    @Test
    void outputTokensExactlyAtTheLimitStopAndOneBelowGoesOn() {
        // DEFAULT_USAGE: 100 in, 20 out per call
        ScriptedModel exact = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult stopped = agent(exact).budget(Budget.builder().maxOutputTokens(40L).build()).build().run("go");
        assertThat(stopped.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(stopped.reason()).isEqualTo("max_output_tokens");
        assertThat(exact.requests()).hasSize(3); // two steps, then the one summary call every budget but time gets

        ScriptedModel under = ScriptedModel.of(echoStep("1"), echoStep("2"), echoStep("3"), text("summary"));
        RunResult later = agent(under).budget(Budget.builder().maxOutputTokens(41L).build()).build().run("go");
        assertThat(later.reason()).isEqualTo("max_output_tokens");
        assertThat(under.requests()).hasSize(4);
    }

    @Test
    void theSummaryCallWritesAtMostTheOutputTokensTheOutputLimitLeaves() {
        // the output limit itself ran out: nothing is left to cap to, and the summary call is made as for every
        // budget but time (issue 2's contract), with the agent's max_tokens
        ScriptedModel spent = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult stopped = agent(spent).budget(Budget.builder().maxOutputTokens(40L).build()).build().run("go");
        assertThat(stopped.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(stopped.reason()).isEqualTo("max_output_tokens");
        assertThat(spent.requests()).hasSize(3);
        assertThat(spent.lastRequest().toolChoice()).isEqualTo(ToolChoice.none());
        assertThat(spent.lastRequest().maxTokens()).isEqualTo(8192);
        assertThat(stopped.answer()).isEqualTo("summary");

        // another limit ran out with 10 output tokens left: the summary may write at most those 10
        ScriptedModel left = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult steps = agent(left).budget(Budget.builder().maxSteps(2).maxOutputTokens(50L).build()).build().run("go");
        assertThat(steps.reason()).isEqualTo("max_steps");
        assertThat(left.requests()).hasSize(3);
        assertThat(left.lastRequest().maxTokens()).isEqualTo(10);
        // each step may write at most what the output limit still leaves too
        assertThat(left.requests().get(0).maxTokens()).isEqualTo(50);
        assertThat(left.requests().get(1).maxTokens()).isEqualTo(30);
    }

    @Test
    void aStepMayWriteAtMostTheOutputTokensTheOutputLimitLeavesAndACutThereStopsForTheBudget() {
        // 900 of 1,000 output tokens spent: the next step asks for at most the 100 left, not the agent's 8,192, and
        // a response cut off there is the output limit running out (STOPPED_BUDGET and the summary call), not a
        // FAILED/max_tokens; its cut tool call is neither run nor sent back without its result
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.withUsage(Usage.of(100, 900, 0, 0), echoStep("1")),
                ScriptedModel.reply(StopReason.MAX_TOKENS, Usage.of(100, 100, 0, 0), new TextBlock("途中まで"),
                        new ToolUseBlock("cut", "echo", Json.parse("{\"text\":\"2\"}"))),
                text("summary"));
        RunResult result = agent(model).budget(Budget.builder().maxOutputTokens(1_000L).build()).build().run("go");
        assertThat(model.requests().get(0).maxTokens()).isEqualTo(1_000);
        assertThat(model.requests().get(1).maxTokens()).isEqualTo(100);
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_output_tokens");
        assertThat(result.answer()).isEqualTo("summary");
        assertThat(model.requests()).hasSize(3);
        assertThat(model.lastRequest().toolChoice()).isEqualTo(ToolChoice.none());
        assertThat(dev.rein.internal.context.HistoryValidator.problems(model.lastRequest().messages())).isEmpty();
        assertThat(trace.events(TraceEvent.ToolCalled.class)).hasSize(1);
    }

    /** An option a provider checks against max_tokens (as Anthropic's thinking budget must stay below it). */
    private record NeedsRoom(int tokens) implements dev.rein.model.ModelOption {
        @Override
        public void check(dev.rein.model.ModelRequest request) {
            if (tokens >= request.maxTokens()) {
                throw new dev.rein.ReinException("needs " + tokens + " below maxTokens " + request.maxTokens());
            }
        }
    }

    @Test
    void aSummaryThatTheOutputLimitLeavesTooFewTokensForTheRequestsOptionsIsNotAskedFor() {
        // the provider would refuse the lowered request (thinking's budget above max_tokens): the run says why, not
        // FAILED/internal_error from the provider's check, and the limit is not overspent either
        ScriptedModel model = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult result = agent(model).modelOption(new NeedsRoom(100))
                .budget(Budget.builder().maxSteps(2).maxOutputTokens(50L).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_steps");
        assertThat(model.requests()).hasSize(2);
        assertThat(result.message()).isEqualTo("the step limit of 2 was reached; no summary was asked for: the 10 output"
                + " tokens the output token limit leaves are too few for this request (needs 100 below maxTokens 10)");
    }

    @Test
    void inputTokensAndMoneyStopWithTheirReasons() {
        ScriptedModel in = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult input = agent(in).budget(Budget.builder().maxInputTokens(200L).build()).build().run("go");
        assertThat(input.reason()).isEqualTo("max_input_tokens");
        assertThat(in.requests()).hasSize(3);

        // 100 in x 3/M + 20 out x 15/M = USD 0.0006 a call
        ScriptedModel money = ScriptedModel.of(echoStep("1"), echoStep("2"), text("summary"));
        RunResult cost = agent(money).budget(Budget.builder().maxCostUsd(new BigDecimal("0.0012")).build()).build().run("go");
        assertThat(cost.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(cost.reason()).isEqualTo("max_cost");
        assertThat(cost.message()).contains("0.0012");
        assertThat(money.requests()).hasSize(3);
    }

    @Test
    void aToolCapRefusesTheCallOverItAndTheRunGoesOn() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}"), call("echo", "{\"text\":\"b\"}")),
                text("done"));
        RunResult result = agent(model).budget(Budget.builder().toolCallLimit("echo", 1).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var blocks = model.requests().get(1).messages().get(2).content();
        var first = (dev.rein.model.ToolResultBlock) blocks.get(0);
        var second = (dev.rein.model.ToolResultBlock) blocks.get(1);
        assertThat(first.isError()).isFalse();
        assertThat(first.content()).contains("echo: a");
        assertThat(second.isError()).isTrue();
        assertThat(second.content()).contains("limit of 1");
    }

    @Test
    void aCallRefusedForItsCapIsTracedAsARefusedCallAndNothingElse() {
        // probe of docs/safety.md (stage 5, audit kind refused), the README's trace and docs/observability.md: the refused call
        // has its tool_call and its tool_result (LIMIT_REACHED, Rein's words, the tool's risk) and a refused audit event; the
        // run does not stop, so no budget intervention, stall or state change comes of it
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}"), call("echo", "{\"text\":\"検索\"}")),
                text("done"));
        RunResult result = agent(model).budget(Budget.builder().toolCallLimit("echo", 1).build()).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        // the step's results come as its calls end (docs/cli.md), so the first may come before the second call's tool_call
        List<String> types = trace.events().stream().map(e -> Json.mapper().valueToTree(e).path("type").asText()).toList();
        assertThat(types.subList(0, 4)).containsExactly("run_started", "state_change", "model_request", "model_response");
        assertThat(types.subList(4, 9)).containsExactlyInAnyOrder("tool_call", "tool_call", "tool_result", "tool_result", "audit");
        assertThat(types.subList(9, types.size())).containsExactly("model_request", "model_response", "state_change",
                "run_finished");
        // the refusal's audit comes before the result that ends the call, so a span kept open until then records it
        assertThat(trace.events()).filteredOn(e -> e instanceof TraceEvent.ToolCalled c && c.callId().equals("toolu_1_2")
                        || e instanceof TraceEvent.Audit a && "toolu_1_2".equals(a.callId())
                        || e instanceof TraceEvent.ToolCompleted r && r.callId().equals("toolu_1_2"))
                .extracting(e -> e.getClass().getSimpleName()).containsExactly("ToolCalled", "Audit", "ToolCompleted");
        assertThat(trace.events(TraceEvent.ToolCalled.class)).extracting(TraceEvent.ToolCalled::callId)
                .containsExactly("toolu_1_1", "toolu_1_2");
        TraceEvent.ToolCompleted refused = trace.events(TraceEvent.ToolCompleted.class).stream()
                .filter(e -> e.callId().equals("toolu_1_2")).findFirst().orElseThrow();
        assertThat(refused.isError()).isTrue();
        assertThat(refused.errorClass()).isEqualTo("LIMIT_REACHED");
        assertThat(refused.reinMessage()).isTrue();
        assertThat(refused.risk()).isEqualTo("READ");
        assertThat(refused.content()).isEqualTo("Tool 'echo' has reached its limit of 1 call in this run and was not called."
                + " Work with the results you already have, use another tool, or finish.");
        TraceEvent.Audit audit = trace.events(TraceEvent.Audit.class).get(0);
        assertThat(audit.kind()).isEqualTo("refused");
        assertThat(audit.callId()).isEqualTo("toolu_1_2");
        assertThat(audit.tool()).isEqualTo("echo");
        assertThat(audit.detail()).startsWith("LIMIT_REACHED: Tool 'echo' has reached its limit");
        assertThat(result.state().attemptedActions()).hasSize(2);
    }

    @Test
    void aBudgetCapAboveTheToolsOwnMaxCallsDoesNotRaiseIt() {
        // Tool.maxCalls is the most calls allowed in one run; where both cap a tool, the lower cap applies
        Tool once = Tool.builder("once").description("An expensive lookup.").maxCalls(1).handler((a, c) -> "looked up").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("once", "{}"), call("once", "{}")), text("done"));
        RunResult result = Agent.builder().model(model).tools(once).budget(Budget.builder().toolCallLimit("once", 5).build())
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var blocks = model.requests().get(1).messages().get(2).content();
        assertThat(((dev.rein.model.ToolResultBlock) blocks.get(0)).isError()).isFalse();
        assertThat(((dev.rein.model.ToolResultBlock) blocks.get(1)).content()).contains("limit of 1 call in this run");
        // and a budget cap below the tool's own applies
        ScriptedModel lower = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}"), call("echo", "{\"text\":\"b\"}")),
                text("done"));
        Tool echo = TestTools.echo().toBuilder().maxCalls(5).build();
        Agent.builder().model(lower).tools(echo).budget(Budget.builder().toolCallLimit("echo", 1).build()).build().run("go");
        assertThat(((dev.rein.model.ToolResultBlock) lower.requests().get(1).messages().get(2).content().get(1)).content())
                .contains("limit of 1 call in this run");
    }

    @Test
    void aCapOnAToolTheAgentDoesNotHaveIsRefusedWhenTheAgentIsBuilt() {
        // a misspelled name would otherwise leave the real tool uncapped without a word
        assertThatThrownBy(() -> agent(ScriptedModel.of()).budget(Budget.builder().toolCallLimit("ecko", 1).build()).build())
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("the budget's toolCallLimit names 'ecko', which is not a tool of this agent, so the cap would never"
                        + " apply; its tools are: echo");
        assertThatThrownBy(() -> agent(ScriptedModel.of()).conversationBudget(Budget.builder().toolCallLimit("検索", 1).build())
                .build()).hasMessageContaining("the conversationBudget's toolCallLimit names '検索'");
    }

    @Test
    void aParallelStepWithAThrowATimeoutAndAHugeResultReportsEachAndGoesOn() {
        Tool boom = Tool.builder("boom").description("Throws.").handler((args, ctx) -> {
            throw new IllegalStateException("kaboom");
        }).build();
        Tool slow = Tool.builder("slow").description("Hangs.").timeout(Duration.ofMillis(200)).handler((args, ctx) -> {
            Thread.sleep(60_000);
            return "never";
        }).build();
        Tool big = Tool.builder("big").description("Returns a lot.").handler((args, ctx) -> "x".repeat(200_000)).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("boom", "{}"), call("slow", "{}"), call("big", "{}")), text("done"));
        long start = System.nanoTime();
        RunResult result = Agent.builder().model(model).tools(boom, slow, big).listener(trace).build().run("go");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var blocks = model.requests().get(1).messages().get(2).content();
        assertThat(blocks).hasSize(3);
        var r0 = (dev.rein.model.ToolResultBlock) blocks.get(0);
        var r1 = (dev.rein.model.ToolResultBlock) blocks.get(1);
        var r2 = (dev.rein.model.ToolResultBlock) blocks.get(2);
        assertThat(r0.isError()).isTrue();
        assertThat(r0.content()).contains("IllegalStateException").contains("kaboom");
        assertThat(r1.isError()).isTrue();
        assertThat(r1.content()).contains("exceeded its timeout of 200 ms");
        assertThat(r2.isError()).isFalse();
        assertThat(r2.content().length()).isLessThan(200_000);
        assertThat(r2.content()).containsIgnoringCase("omitted");
        assertThat(trace.events(TraceEvent.OutputTruncated.class)).singleElement()
                .satisfies(t -> assertThat(t.tool()).isEqualTo("big"));
    }

    @Test
    void japaneseArgumentsRoundTripAndTheJsonlIsValidUtf8(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trace.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"東京の天気 🌸\"}")), text("晴れです"));
        RunResult result = agent(model).listener(JsonlTraceListener.to(file)).build().run("東京の天気は？");
        assertThat(result.answer()).isEqualTo("晴れです");
        byte[] bytes = Files.readAllBytes(file);
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        java.util.Set<String> types = new java.util.LinkedHashSet<>();
        for (String line : lines) {
            JsonNode node = Json.parse(line);
            types.add(node.path("type").asText());
            assertThat(node.has("run_id")).as(line).isTrue();
            assertThat(node.has("step")).as(line).isTrue();
            assertThat(node.has("time")).as(line).isTrue();
        }
        assertThat(types).contains("run_started", "model_request", "model_response", "tool_call", "tool_result", "state_change",
                "run_finished");
        assertThat(String.join("\n", lines)).contains("echo: 東京の天気 🌸");
    }

    @Test
    void aJapaneseToolNameIsAClearConfigurationErrorAndAnUnknownOneListsTheTools() {
        assertThatThrownBy(() -> Tool.builder("検索").description("search").handler((a, c) -> "x").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("検索");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("検索", "{\"q\":\"東京\"}")), text("done"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var r = (dev.rein.model.ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(r.isError()).isTrue();
        assertThat(r.content()).contains("検索").contains("echo");
    }

    @Test
    void aToolRegisteredTwiceIsRefusedAtBuild() {
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo(), TestTools.echo()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("echo");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo()).tools(TestTools.echo()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("echo");
    }

    @Test
    void aNullToolSaysWhichOneAndWhatToDo() {
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(TestTools.echo(), null))
                .isInstanceOf(ReinException.class).hasMessageContaining("position 1").hasMessageContaining("Tool.builder");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(java.util.Arrays.asList(TestTools.echo(), null)))
                .isInstanceOf(ReinException.class).hasMessageContaining("position 1");
    }

    @Test
    void aNullGivenToAnAgentBuilderSetterIsAConfigurationErrorNamingTheSetter() {
        // they threw NullPointerException ('model', 'budget', or 'Cannot invoke "java.util.Collection.iterator()"')
        java.util.Map<String, java.util.function.Consumer<Agent.Builder>> setters = new java.util.LinkedHashMap<>();
        setters.put("model", b -> b.model(null));
        setters.put("budget", b -> b.budget(null));
        setters.put("tools", b -> b.tools((java.util.Collection<Tool>) null));
        setters.put("toolTimeout", b -> b.toolTimeout(null));
        setters.put("listener", b -> b.listener(null));
        setters.put("verifier", b -> b.verifier(null));
        setters.put("stallPolicy", b -> b.stallPolicy(null));
        setters.put("approvalPolicy", b -> b.approvalPolicy(null));
        setters.put("store", b -> b.store(null));
        setters.put("prices", b -> b.prices(null));
        setters.put("retryPolicy", b -> b.retryPolicy(null));
        setters.forEach((setter, call) -> assertThatThrownBy(() -> call.accept(Agent.builder()))
                .as(setter).isInstanceOf(ReinException.class).hasMessageStartingWith(setter + "(...) was given null: pass "));
        assertThatThrownBy(() -> Agent.builder().budget(null)).hasMessage("budget(...) was given null: pass a Budget"
                + " (Budget.defaults() for 15 steps, USD 1.00 and 300 s; a null limit inside a Budget means none of that kind)");
        Agent agent = agent(ScriptedModel.of()).build();
        assertThatThrownBy(() -> agent.start("go", null)).isInstanceOf(ReinException.class).hasMessageContaining("principal");
    }

    @Test
    void maxTokensIsNeverTheAnswerAndTheMessageSaysSo() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.MAX_TOKENS, Usage.ZERO, new TextBlock("The answer is 4")));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("max_tokens");
        assertThat(result.message()).contains("max_tokens").contains("not taken as an answer");
        // a cut-off response with tool calls: the cut tool call is never run
        ScriptedModel cutTool = ScriptedModel.of(ScriptedModel.reply(StopReason.MAX_TOKENS, Usage.ZERO,
                new ToolUseBlock("toolu_1", "echo", Json.parse("{\"text\":\"x\"}"))));
        RunResult cut = agent(cutTool).build().run("go");
        assertThat(cut.reason()).isEqualTo("max_tokens");
        assertThat(trace.events(TraceEvent.ToolCalled.class)).isEmpty();
    }

    @Test
    void whitespaceOnlyAndTextWithToolCalls() {
        ScriptedModel blank = ScriptedModel.of(text("   \n "), text(" \t"));
        RunResult r = agent(blank).build().run("go");
        assertThat(r.status()).isEqualTo(RunStatus.FAILED);
        assertThat(r.reason()).isEqualTo("empty_answer");

        ScriptedModel both = ScriptedModel.of(toolCalls("Let me check.", call("echo", "{\"text\":\"a\"}")), text("It is a."));
        RunResult b = agent(both).build().run("go");
        assertThat(b.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(b.answer()).isEqualTo("It is a.");
        assertThat(both.requests()).hasSize(2);
    }

    @Test
    void aThrowingListenerNeitherBreaksTheRunNorTheJsonlTrace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.jsonl");
        RunListener throwing = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                throw new IllegalStateException("listener bug");
            }
        };
        ScriptedModel model = ScriptedModel.of(echoStep("a"), text("done"));
        RunResult result = agent(model).listener(id -> throwing).listener(JsonlTraceListener.to(file)).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        List<String> lines = Files.readAllLines(file);
        assertThat(Json.parse(lines.get(lines.size() - 1)).path("type").asText()).isEqualTo("run_finished");
    }

    @Test
    void cancelDuringAToolCallEndsCancelledWithTheTraceFlushed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("c.jsonl");
        CountDownLatch started = new CountDownLatch(1);
        Tool hang = Tool.builder("hang").description("Hangs.").handler((a, c) -> {
            started.countDown();
            Thread.sleep(60_000);
            return "never";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), text("never"));
        RunHandle handle = agent(model).tools(hang).listener(JsonlTraceListener.to(file)).build().start("go");
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        long t = System.nanoTime();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(5));
        assertThat(Duration.ofNanos(System.nanoTime() - t)).isLessThan(Duration.ofSeconds(2));
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        List<String> lines = Files.readAllLines(file);
        JsonNode last = Json.parse(lines.get(lines.size() - 1));
        assertThat(last.path("type").asText()).isEqualTo("run_finished");
        assertThat(last.path("status").asText()).isEqualTo("CANCELLED");
    }

    @Test
    void aToolInterceptorThatHoldsTheRunPastItsDeadlineEndsItStoppedBudgetWithoutAnotherCall() {
        // an interceptor runs on the run's thread, as a listener does, and is not interrupted (docs/safety.md): when it
        // returns after the deadline, the call is not run, and the run ends as for any deadline, without a summary call
        java.util.concurrent.atomic.AtomicInteger handled = new java.util.concurrent.atomic.AtomicInteger();
        Tool counted = Tool.builder("counted").description("Counts.").handler((a, c) -> handled.incrementAndGet()).build();
        dev.rein.tool.ToolInterceptor slow = (invocation, chain) -> {
            Thread.sleep(1_500);
            return chain.proceed(invocation);
        };
        ScriptedModel model = ScriptedModel.of(toolCalls(call("counted", "{}")), text("never"));
        RunResult result = agent(model).tools(counted).toolInterceptor(slow)
                .budget(Budget.builder().maxDuration(Duration.ofMillis(500)).build()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(result.message()).startsWith("the time limit of 500 ms was reached");
        assertThat(model.requests()).hasSize(1);
        assertThat(handled).hasValue(0);
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).singleElement()
                .satisfies(r -> assertThat(r.errorClass()).isEqualTo("TIMEOUT"));
        assertThat(trace.events()).last().isInstanceOf(TraceEvent.RunFinished.class);
    }

    @Test
    void aDeadlineDuringAToolEndsStoppedBudgetWithoutASummaryCall(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("d.jsonl");
        Tool hang = Tool.builder("hang").description("Hangs.").handler((a, c) -> {
            Thread.sleep(60_000);
            return "never";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), text("never"));
        long t = System.nanoTime();
        RunResult result = agent(model).tools(hang).listener(JsonlTraceListener.to(file))
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(5)).build()).build().run("go");
        // well below the tool's 60 s: the deadline, not the tool, ended the run
        assertThat(Duration.ofNanos(System.nanoTime() - t)).isLessThan(Duration.ofSeconds(15));
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        assertThat(model.requests()).hasSize(1);
        List<String> lines = Files.readAllLines(file);
        assertThat(Json.parse(lines.get(lines.size() - 1)).path("type").asText()).isEqualTo("run_finished");
    }

    @Test
    void stepsAndToolCountsCarryOverAResumeAndAReplyTurnGetsItsOwnBudget() {
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        java.util.concurrent.atomic.AtomicInteger sent = new java.util.concurrent.atomic.AtomicInteger();
        Tool send = Tool.builder("send").description("Sends.").risk(dev.rein.tool.Risk.WRITE)
                .handler((a, c) -> "sent " + sent.incrementAndGet()).build();
        ScriptedModel model = ScriptedModel.of(echoStep("1"), toolCalls(call("send", "{}")), echoStep("2"), text("summary"));
        Agent agent = agent(model).tools(send).store(store)
                .budget(Budget.builder().maxSteps(3).toolCallLimit("echo", 1).build()).build();
        RunResult paused = agent.run("go");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        String hash = paused.pendingApprovals().get(0).actionHash();
        // a decision without its action hash says what to pass (it said "no pending action with hash null")
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> agent.runs().approve(paused.runId(), null, "me"))
                .isInstanceOf(dev.rein.approval.ApprovalException.class)
                .hasMessageContaining("was given no action hash").hasMessageContaining(hash);
        agent.runs().approve(paused.runId(), hash, "me");
        RunResult resumed = agent.resume(paused.runId());
        assertThat(resumed.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(resumed.reason()).isEqualTo("max_steps");
        assertThat(resumed.steps()).isEqualTo(3);
        assertThat(model.requests()).hasSize(4);
        // the echo cap of 1 survived the pause: the second echo was refused
        var third = model.requests().get(3).messages();
        var refused = (dev.rein.model.ToolResultBlock) third.get(third.size() - 1).content().stream()
                .filter(b -> b instanceof dev.rein.model.ToolResultBlock).findFirst().orElseThrow();
        assertThat(refused.isError()).isTrue();
        assertThat(refused.content()).contains("limit of 1");


        // a reply turn counts its steps from the turn's start (memory.md)
        ScriptedModel chat = ScriptedModel.of(echoStep("a"), text("first"), echoStep("b"), text("second"));
        Agent twoSteps = agent(chat).store(store).budget(Budget.builder().maxSteps(2).build()).build();
        RunResult first = twoSteps.run("go");
        assertThat(first.status()).isEqualTo(RunStatus.SUCCEEDED);
        RunResult second = twoSteps.reply(first.runId(), "and then?");
        assertThat(second.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(second.answer()).isEqualTo("second");
    }

    @Test
    void anEndTurnResponseWithToolUseStillHasItsCallsAnswered() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.END_TURN, Usage.ZERO, new TextBlock("checking"),
                new ToolUseBlock("toolu_x", "echo", Json.parse("{\"text\":\"a\"}"))), text("done"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
        var answered = (dev.rein.model.ToolResultBlock) model.requests().get(1).messages().get(2).content().get(0);
        assertThat(answered.toolUseId()).isEqualTo("toolu_x");
    }

    @Test
    void twoCallsTheModelGaveOneIdEachGetTheirOwnResultInCallOrder() {
        // some OpenAI- and Anthropic-compatible servers repeat an id across the calls of one response
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(StopReason.TOOL_USE, Usage.ZERO,
                new ToolUseBlock("call_0", "echo", Json.parse("{\"text\":\"大阪\"}")),
                new ToolUseBlock("call_0", "echo", Json.parse("{\"text\":\"東京\"}"))), text("done"));
        RunResult result = agent(model).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var blocks = model.requests().get(1).messages().get(2).content();
        assertThat(blocks).hasSize(2);
        var first = (dev.rein.model.ToolResultBlock) blocks.get(0);
        var second = (dev.rein.model.ToolResultBlock) blocks.get(1);
        assertThat(first.toolUseId()).isEqualTo("call_0");
        assertThat(first.content()).contains("echo: 大阪").doesNotContain("東京");
        assertThat(second.toolUseId()).isEqualTo("call_0");
        assertThat(second.content()).contains("echo: 東京");
        assertThat(trace.events(TraceEvent.ToolCompleted.class)).extracting(TraceEvent.ToolCompleted::content)
                .containsExactlyInAnyOrder("echo: 大阪", "echo: 東京");
    }

    @Test
    void aWriteProposedBeforeReadsRunsAfterThemYetItsResultKeepsItsPlace() {
        Tool write = Tool.builder("write_it").description("Writes.").risk(dev.rein.tool.Risk.WRITE)
                .handler((a, c) -> "written").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("write_it", "{}"), call("echo", "{\"text\":\"a\"}"),
                call("echo", "{\"text\":\"b\"}")), text("done"));
        RunResult result = agent(model).tools(write).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        // the trace's tool_call events: the reads in call order, then the call with side effects (docs/cli.md)
        assertThat(trace.events(TraceEvent.ToolCalled.class)).extracting(TraceEvent.ToolCalled::callId)
                .containsExactly("toolu_1_2", "toolu_1_3", "toolu_1_1");
        assertThat(model.requests().get(1).messages().get(2).content()).extracting(b -> ((dev.rein.model.ToolResultBlock) b).toolUseId())
                .containsExactly("toolu_1_1", "toolu_1_2", "toolu_1_3");
    }

    @Test
    void aHungSummaryCallStillEndsAtTheDeadline() {
        ScriptedModel model = ScriptedModel.of(echoStep("a"), ScriptedModel.hang());
        long start = System.nanoTime();
        RunResult result = agent(model).budget(Budget.builder().maxSteps(1).maxDuration(Duration.ofSeconds(2)).build())
                .build().run("go");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("max_steps");
        assertThat(result.answer()).contains("step limit of 1");
    }
}
