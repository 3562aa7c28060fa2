package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.context.TokenCounting;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.RunStatus;
import dev.rein.run.Verdict;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replays of runs that ended every way a run ends, recorded into a trace and replayed by Replay. */
class ReplayEndingsTest {
    private final AtomicInteger ran = new AtomicInteger();

    private Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "result " + ran.incrementAndGet() + " for " + args.get("q").asText() + " 検索 🦊")
                .build();
    }

    private Agent.Builder agent(Model model) {
        return Agent.builder().model(model).systemPrompt("You research.").tools(search())
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2), 0));
    }

    private static ModelException overloaded() {
        return new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded 過負荷", true, null, "req_1", null);
    }

    @Test
    void aRunThatFailedWithAProviderErrorAfterRetriesReplaysToTheSameFailure(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"東京\"}")),
                ScriptedModel.fail(overloaded()), ScriptedModel.fail(overloaded()), ScriptedModel.fail(overloaded())))
                .listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).isEqualTo(RunStatus.FAILED);
        assertThat(recorded.reason()).isEqualTo("provider_error");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.result().status()).isEqualTo(RunStatus.FAILED);
        assertThat(report.result().reason()).isEqualTo("provider_error");
        assertThat(report.reproduced()).isTrue();
        assertThat(ran.get()).isEqualTo(1);
    }

    @Test
    void aRunWhoseCallSucceededAfterRetriesReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(ScriptedModel.fail(overloaded()), toolCalls(call("search", "{\"q\":\"東京\"}")),
                ScriptedModel.fail(overloaded()), text("東京: 晴れ 🌞")))
                .listener(JsonlTraceListener.to(trace)).build().run("調べて");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().answer()).isEqualTo("東京: 晴れ 🌞");
    }

    @Test
    void aRunWithAToolTimeoutReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        Tool slow = Tool.builder("slow").description("Hangs.").timeout(Duration.ofMillis(100)).handler((args, ctx) -> {
            Thread.sleep(10_000);
            return "never";
        }).build();
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("slow", "{}")), text("it timed out")))
                .tools(slow).listener(JsonlTraceListener.to(trace)).build().run("try");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).tools(slow).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aRunStoppedByItsStepBudgetWithASummaryReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"a\"}")),
                toolCalls(call("search", "{\"q\":\"b\"}")), text("要約: a と b")))
                .budget(Budget.builder().maxSteps(2).build()).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aRunWhoseSummaryCallFailedReplaysToTheSameStop(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"a\"}")),
                ScriptedModel.fail(new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "bad"))))
                .budget(Budget.builder().maxSteps(1).build()).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aRunWhoseAnswerAVerifierRefusedOnceReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        AtomicInteger checks = new AtomicInteger();
        dev.rein.run.Verifier once = answer -> checks.incrementAndGet() == 1 ? Verdict.fail("name a source") : Verdict.pass();
        agent(ScriptedModel.of(text("晴れ"), text("晴れ (source: 気象庁)"))).verifier(once)
                .listener(JsonlTraceListener.to(trace)).build().run("天気は?");

        AtomicInteger again = new AtomicInteger();
        dev.rein.run.Verifier onceAgain = answer -> again.incrementAndGet() == 1 ? Verdict.fail("name a source") : Verdict.pass();
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).verifier(onceAgain).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aRunHandedToAPersonThroughTheFinishToolReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("finish",
                "{\"status\":\"needs_user_input\",\"summary\":\"注文番号が要ります\",\"result\":\"注文番号は?\"}"))))
                .finishTool(true).listener(JsonlTraceListener.to(trace)).build().run("返金して");
        assertThat(recorded.reason()).isEqualTo("needs_user_input");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).finishTool(true).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    /** A model that counts tokens as a provider would: a fixed large count, so compaction triggers. */
    private static Model counting(ScriptedModel inner, long count) {
        return new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                return inner.call(request, context);
            }

            @Override
            public long countTokens(ModelRequest request) {
                return request.messages().size() > 3 ? count : 10;
            }
        };
    }

    /** Queries long enough that, after two steps, the estimate is past half the 1,000-token trigger but below it. */
    private static final String LONG_A = "{\"q\":\"" + "a".repeat(600) + "\"}";
    private static final String LONG_B = "{\"q\":\"" + "b".repeat(600) + "\"}";

    @Test
    void aRunCompactedOnTheProvidersTokenCountReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ContextPolicy compacting = ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(2))
                .tokenCounting(TokenCounting.PROVIDER).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", LONG_A)), toolCalls(call("search", LONG_B)),
                text("要約: a と b を調べた"), text("done"));
        RunResult recorded = agent(counting(model, 5_000)).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .contextPolicy(compacting)
                .listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(Files.readString(trace)).as("compacted on the provider's count, not on the estimate")
                .contains("\"type\":\"context_edited\"");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).contextPolicy(compacting).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aRunWhoseCompactionCallFailedReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ContextPolicy compacting = ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(2))
                .tokenCounting(TokenCounting.PROVIDER).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", LONG_A)), toolCalls(call("search", LONG_B)),
                ScriptedModel.fail(new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "too long")), text("done"));
        RunResult recorded = agent(counting(model, 5_000)).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .contextPolicy(compacting)
                .listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(Files.readString(trace)).contains("compaction did not happen");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).contextPolicy(compacting).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aRunWhoseTokenCountFailedOnceReplaysExactly(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ContextPolicy compacting = ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(2))
                .tokenCounting(TokenCounting.PROVIDER).build();
        ScriptedModel scripted = ScriptedModel.of(toolCalls(call("search", LONG_A)), toolCalls(call("search", LONG_B)),
                toolCalls(call("search", "{\"q\":\"c\"}")), text("要約: a と b と c を調べた"), text("done"));
        // the provider's count fails once (the run goes on with its estimate, below the trigger); later counts succeed
        AtomicInteger counts = new AtomicInteger();
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                return scripted.call(request, context);
            }

            @Override
            public long countTokens(ModelRequest request) throws ModelException {
                if (counts.incrementAndGet() == 1) {
                    throw new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "count failed");
                }
                return request.messages().size() > 3 ? 5_000 : 10;
            }
        };
        RunResult recorded = agent(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .contextPolicy(compacting).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(counts.get()).as("the failed count and the later ones").isGreaterThan(1);
        assertThat(Files.readString(trace)).contains("\"type\":\"context_edited\"");

        // Before: the failed count left no event, so the replay answered it with the next recorded count (5,000)
        // and compacted a step early, where the recording made its step call
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).contextPolicy(compacting).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aCallOfAnotherPurposeThanTheRecordedOneIsTheDivergenceSaidAsSuch(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ContextPolicy compacting = ContextPolicy.builder().compaction(Compaction.client(1_000).keepingLast(2))
                .tokenCounting(TokenCounting.PROVIDER).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", LONG_A)), toolCalls(call("search", LONG_B)),
                text("要約: a と b を調べた"), text("done"));
        agent(counting(model, 5_000)).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .contextPolicy(compacting).listener(JsonlTraceListener.to(trace)).build().run("調べて");

        // the version under test compacts no more: its step call stands where the recording compacted
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).modelName(ScriptedModel.DEFAULT_NAME)
                .prices(ScriptedModel.PRICES).build());

        assertThat(report.firstDivergence()).hasValueSatisfying(d -> {
            assertThat(d.step()).isEqualTo(3);
            assertThat(d.purpose()).isEqualTo("step");
            // the compaction made before step 3's call is numbered with the steps made so far, as the final summary is
            assertThat(d.description()).isEqualTo("step 3: the run now makes a step model call where the recording made its"
                    + " compaction call of step 2");
        });
    }

    @Test
    void aCriticWithAModelOfItsOwnIsAnsweredFromTheRecordingAndNeverCalledInAReplay(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel.Turn rejects = ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE,
                new dev.rein.model.ToolUseBlock("v1", "verdict",
                        dev.rein.json.Json.parse("{\"approved\":false,\"problems\":[\"出典がない\"]}")));
        ScriptedModel.Turn approves = ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE,
                new dev.rein.model.ToolUseBlock("v2", "verdict", dev.rein.json.Json.parse("{\"approved\":true}")));
        ScriptedModel critic = ScriptedModel.of(rejects, approves);
        RunResult recorded = agent(ScriptedModel.of(text("晴れ"), text("晴れ (出典: 気象庁)")))
                .reflection(dev.rein.reflection.Reflection.critic(critic, ScriptedModel.DEFAULT_NAME).maxRounds(2))
                .listener(JsonlTraceListener.to(trace)).build().run("天気は?");
        assertThat(recorded.answer()).isEqualTo("晴れ (出典: 気象庁)");
        assertThat(critic.remaining()).isZero();

        ScriptedModel criticNow = ScriptedModel.of();
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of())
                .reflection(dev.rein.reflection.Reflection.critic(criticNow, ScriptedModel.DEFAULT_NAME).maxRounds(2)).build());

        assertThat(criticNow.requests()).as("a replay calls no model").isEmpty();
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aTraceEditedToRecordALimitNoRunCanHaveIsRefusedNamingTheLimit(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(text("答え"))).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        String recorded = Files.readString(trace);
        String limits = recorded.substring(recorded.indexOf("\"limits\":{"), recorded.indexOf('}', recorded.indexOf("\"limits\":{")) + 1);

        Path edited = dir.resolve("edited.jsonl");
        for (String[] c : new String[][] {{"{\"max_cost_usd\":\"lots\"}", "max_cost_usd as \"lots\""},
                {"{\"max_steps\":\"ten\"}", "max_steps as \"ten\""}, {"{\"max_steps\":0}", "max_steps as 0"},
                {"{\"max_seconds\":-5}", "max_seconds as -5"}, {"{\"max_input_tokens\":1.5}", "max_input_tokens as 1.5"},
                // past what an int holds: read before as 2^32 + 1 wrapped round, a replay limited to 1 step
                {"{\"max_steps\":4294967297}", "max_steps as 4294967297"}}) {
            Files.writeString(edited, recorded.replace(limits, "\"limits\":" + c[0]));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(edited).replay(agent(ScriptedModel.of()).build()))
                    .isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("the trace " + edited + " records the limit " + c[1] + " in run_started")
                    .hasMessageContaining("correct it in the trace");
        }
    }

    @Test
    void aTraceEditedToRecordAModelPriceNoModelCanHaveIsRefusedWithThePricesOwnWords(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(text("答え"))).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        String recorded = Files.readString(trace);
        org.assertj.core.api.Assertions.assertThat(recorded).contains("\"output_per_mtok\":15.00");

        Path edited = Files.writeString(dir.resolve("edited.jsonl"), recorded.replace("\"output_per_mtok\":15.00", "\"output_per_mtok\":-1"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(edited).replay(agent(ScriptedModel.of()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("the trace " + edited + " records the model_price {")
                .hasMessageEndingWith(" in run_started's limits, which is not a model's price (model prices cannot be negative, was"
                        + " output -1); correct it in the trace, or remove it to replay with the agent's own price of the model");
    }

    @Test
    void aTraceEditedToLeaveOutAResponseARequestOrTheGoalIsRefusedNamingWhatIsMissing(@TempDir Path dir) throws Exception {
        // Before: a model_response without its "response" failed the replayed run inside the model with
        // 'the model client failed with NullPointerException: Cannot invoke "...ModelResponse.content()"', a
        // model_request without its "request" diverged at 'recorded (nothing)', and a run_started without its
        // "goal" was refused with 'the goal is empty: say what the agent should do', a goal the user never gave
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"東京\"}")), text("答え 🦊"))).listener(JsonlTraceListener.to(trace))
                .build().run("調べて");
        String recorded = Files.readString(trace);
        Path edited = dir.resolve("edited.jsonl");
        for (String[] c : new String[][] {
                {"\"response\":{\"id\"", "\"reply\":{\"id\"", "has a model_response at step 1 without its \"response\""},
                {"\"purpose\":\"step\",\"request\":", "\"purpose\":\"step\",\"req\":", "has a model_request at step 1 without its \"request\""},
                {"\"goal\":\"調べて\"", "\"goal\":\"\"", "records no goal in the run_started of run "}}) {
            assertThat(recorded).contains(c[0]);
            Files.writeString(edited, recorded.replaceFirst(java.util.regex.Pattern.quote(c[0]), java.util.regex.Matcher.quoteReplacement(c[1])));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(edited).replay(agent(ScriptedModel.of()).build()))
                    .isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageContaining("the trace " + edited + " " + c[2])
                    .hasMessageContaining("it cannot be replayed");
        }
        assertThat(ran.get()).isEqualTo(1);
    }

    /**
     * 'rein resume RUN --trace FILE' with a file of its own records the continuation only, from run_resumed: the
     * refusal says so and how to record the whole run. Before: only "has no run_started event ...; it cannot be
     * replayed", with nothing on why or what to do.
     */
    @Test
    void aTraceOfAResumptionAloneSaysItLacksTheRunsStartAndHowToRecordIt(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(text("答え"))).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        Path resumed = dir.resolve("resumed.jsonl");
        String recorded = Files.readString(trace);
        assertThat(recorded).contains("\"type\":\"run_started\"");
        Files.writeString(resumed, recorded.replace("\"type\":\"run_started\"", "\"type\":\"run_resumed\""));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(resumed).replay(agent(ScriptedModel.of()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("has no run_started event for run ")
                .hasMessageContaining("it holds only the run's continuation (run_resumed)")
                .hasMessageContaining("'rein resume RUN --trace FILE' appends to the trace of 'rein run --trace FILE'");
    }

    @Test
    void aResponseFromAnotherVersionSaysSoAndWhatToDo(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(text("答え 🦊"))).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        Path newer = dir.resolve("newer.jsonl");
        Files.writeString(newer, Files.readString(trace).replace("\"stop_reason\":\"end_turn\"", "\"stop_reason\":\"compacted\""));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(newer).replay(agent(ScriptedModel.of()).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("has a model_response at step 1 that cannot be read back: ")
                .hasMessageContaining("\"compacted\"")
                .hasMessageContaining("another Rein version").hasMessageContaining("replay it with the version that wrote it");
    }

    /** A response of one search call with the id {@code id}, as a server that numbers calls per response sends it. */
    private static ScriptedModel.Turn searchWithId(String id, String... queries) {
        dev.rein.model.ContentBlock[] blocks = new dev.rein.model.ContentBlock[queries.length];
        for (int i = 0; i < queries.length; i++) {
            blocks[i] = new dev.rein.model.ToolUseBlock(id, "search", dev.rein.json.Json.object().put("q", queries[i]));
        }
        return ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE, blocks);
    }

    @Test
    void callsThatShareAnIdAcrossStepsOrInOneResponseAreEachAnsweredWithTheirOwnRecordedResult(@TempDir Path dir) throws Exception {
        // Before: results were looked up by call id alone, so every call_0 was answered with the last call_0's
        // result ("result 4 for 福岡"), and the replay diverged at step 2 over a result the recording never sent there
        Path trace = dir.resolve("run.jsonl");
        Tool write = Tool.builder("search").description("Searches.").risk(dev.rein.tool.Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "result " + ran.incrementAndGet() + " for " + args.get("q").asText() + " 𠮷")
                .build();
        Agent.Builder agent = Agent.builder().systemPrompt("You research.").tools(write)
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER);
        RunResult recorded = agent.model(ScriptedModel.of(searchWithId("call_0", "東京"), searchWithId("call_0", "大阪"),
                searchWithId("call_0", "名古屋", "福岡"), text("晴れ 🌞"))).listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).as(recorded.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(ran.get()).isEqualTo(4);

        ReplayReport report = Replay.from(trace).replay(Agent.builder().systemPrompt("You research.").tools(write)
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER)
                .model(ScriptedModel.of()).build());

        assertThat(report.firstDivergence()).as(report.firstDivergence().map(Object::toString).orElse("")).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(ran.get()).as("no tool ran again").isEqualTo(4);
    }

    @Test
    void twoReadCallsOfOneResponseWithOneIdAreEachAnsweredWithTheirOwnResultWhicheverFinishedFirst(@TempDir Path dir)
            throws Exception {
        // The reads of a response run together, so the second (大阪) is recorded before the first; the later call is
        // call_0#1 to Rein, in the trace too, so the replay still answers each with its own result
        Path trace = dir.resolve("run.jsonl");
        Tool read = Tool.builder("search").description("Searches.").risk(dev.rein.tool.Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> {
                    if (args.get("q").asText().equals("東京")) {
                        Thread.sleep(300);
                    }
                    return "result for " + args.get("q").asText();
                })
                .build();
        RunResult recorded = Agent.builder().tools(read).model(ScriptedModel.of(searchWithId("call_0", "東京", "大阪"), text("晴れ")))
                .listener(JsonlTraceListener.to(trace)).build().run("調べて");
        assertThat(recorded.status()).as(recorded.message()).isEqualTo(RunStatus.SUCCEEDED);
        java.util.List<String> resultIds = Files.readAllLines(trace).stream().map(dev.rein.json.Json::parse)
                .filter(e -> e.path("type").asText().equals("tool_result")).map(e -> e.path("call_id").asText()).toList();
        assertThat(resultIds).containsExactly("call_0#1", "call_0");

        ScriptedModel replayed = ScriptedModel.of();
        ReplayReport report = Replay.from(trace).replay(Agent.builder().tools(read).model(replayed).build());

        assertThat(report.firstDivergence()).as(report.firstDivergence().map(Object::toString).orElse("")).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    public record Forecast(String city, java.time.YearMonth month, java.util.OptionalInt rainyDays) {}

    @Test
    void aTypedRunWhoseAnswerWasRefusedOnceAndOneThatNeverBecameValidReplayExactly(@TempDir Path dir) throws Exception {
        // probe: the invalid_output refusal, the repaired answer and the run that failed invalid_output all replay
        Path repaired = dir.resolve("repaired.jsonl");
        RunResult recorded = agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"札幌\"}")),
                text("{\"city\":\"札幌\",\"month\":\"12月\"}"), text("{\"city\":\"札幌 ❄\",\"month\":\"2026-12\",\"rainyDays\":3}")))
                .outputType(Forecast.class).listener(JsonlTraceListener.to(repaired)).build().run("天気は?");
        assertThat(recorded.status()).as(recorded.message()).isEqualTo(RunStatus.SUCCEEDED);

        ReplayReport report = Replay.from(repaired).replay(agent(ScriptedModel.of()).outputType(Forecast.class).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().output(Forecast.class).rainyDays()).hasValue(3);

        Path failed = dir.resolve("failed.jsonl");
        RunResult never = agent(ScriptedModel.of(text("晴れ"), text("{\"city\":1}"), text("```json\n{\"city\":\"札幌\"}\n```")))
                .outputType(Forecast.class).listener(JsonlTraceListener.to(failed)).build().run("天気は?");
        assertThat(never.reason()).isEqualTo("invalid_output");
        ReplayReport again = Replay.from(failed).replay(agent(ScriptedModel.of()).outputType(Forecast.class).build());
        assertThat(again.firstDivergence()).isEmpty();
        assertThat(again.result().reason()).isEqualTo("invalid_output");
        assertThat(again.result().message()).isEqualTo(never.message());
        assertThat(again.reproduced()).isTrue();
    }

    @Test
    void aReplayWhoseAgentWritesItsTraceToTheTraceBeingReplayedIsRefusedAndTheRecordingKept(@TempDir Path dir) throws Exception {
        // Before: the replayed run was appended to its own recording under the same run id, so the trace then held
        // the run twice and its next replay diverged ('the run now ends SUCCEEDED/completed before the recorded step
        // call of step 1 (it used 2 of 4 recorded model calls)')
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"東京\"}")), text("晴れ 🌞"))).listener(JsonlTraceListener.to(trace))
                .build().run("調べて");
        String recorded = Files.readString(trace);

        Path same = dir.resolve(".").resolve("run.jsonl");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Replay.from(trace)
                        .replay(agent(ScriptedModel.of()).listener(JsonlTraceListener.to(same)).build()))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("the agent writes its trace to " + trace + ", the trace being replayed")
                .hasMessageContaining("write the replay's trace to another file");
        assertThat(Files.readString(trace)).isEqualTo(recorded);
        assertThat(ran.get()).isEqualTo(1);

        Path elsewhere = dir.resolve("replay.jsonl");
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of()).listener(JsonlTraceListener.to(elsewhere)).build());
        assertThat(report.reproduced()).isTrue();
        assertThat(Replay.from(elsewhere).replay(agent(ScriptedModel.of()).build()).reproduced()).as("a replay's trace replays").isTrue();
    }
}
