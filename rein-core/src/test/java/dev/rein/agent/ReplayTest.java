package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.run.Verdict;
import dev.rein.stall.StallPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Secrets;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay.from(trace): a recorded run re-run from its trace, compared request by request. */
class ReplayTest {
    private final AtomicInteger sideEffects = new AtomicInteger();

    private Tool search() {
        return Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "result " + sideEffects.incrementAndGet() + " for " + args.get("q").asText() + " 検索")
                .build();
    }

    private Agent.Builder agent(ScriptedModel model, StallPolicy stall) {
        return Agent.builder().model(model).systemPrompt("You research.").tools(search(), TestTools.echo())
                .stallPolicy(stall).budget(Budget.builder().maxSteps(30).build());
    }

    /** 24 tool steps then the answer: 25 model calls. */
    private static ScriptedModel twentyFiveSteps() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            turns.add(toolCalls("looking " + i, call("search", "{\"q\":\"topic " + i + "\"}")));
        }
        turns.add(text("found 24 results"));
        return ScriptedModel.of(turns);
    }

    @Test
    void aReplayOfATwentyFiveStepRunReproducesItExactlyWithoutRunningTools(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = agent(twentyFiveSteps(), StallPolicy.defaults()).listener(JsonlTraceListener.to(trace)).build()
                .run("research 24 topics");
        assertThat(recorded.steps()).isEqualTo(25);
        assertThat(sideEffects.get()).isEqualTo(24);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.modelCalls()).isEqualTo(25);
        assertThat(report.result().steps()).isEqualTo(25);
        assertThat(report.result().answer()).isEqualTo(recorded.answer());
        assertThat(report.result().history()).isEqualTo(recorded.history());
        assertThat(sideEffects.get()).as("no tool ran again").isEqualTo(24);
    }

    private Agent.Builder withRefund(ScriptedModel model, ApprovalPolicy policy) {
        Tool refund = Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}},\"required\":[\"order\"]}")
                .handler((args, ctx) -> "refunded " + args.get("order").asText() + " (" + sideEffects.incrementAndGet() + ")").build();
        return Agent.builder().model(model).systemPrompt("You handle orders.").tools(search(), refund).approvalPolicy(policy);
    }

    @Test
    void aRunThatEndedWaitingForApprovalReplaysToTheSamePauseWithoutRunningTheCall(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = withRefund(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"A-104\"}")),
                        toolCalls("refunding", call("refund", "{\"order\":\"A-104\"}"))), ApprovalPolicy.SIDE_EFFECTS)
                .listener(JsonlTraceListener.to(trace)).build().run("返金して: A-104");
        assertThat(recorded.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(sideEffects.get()).isEqualTo(1);

        ReplayReport report = Replay.from(trace).replay(withRefund(ScriptedModel.of(), ApprovalPolicy.SIDE_EFFECTS).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(report.result().pendingApprovals()).singleElement().satisfies(p -> assertThat(p.tool()).isEqualTo("refund"));
        assertThat(sideEffects.get()).as("neither the search nor the refund ran again").isEqualTo(1);

        ReplayReport unguarded = Replay.from(trace).replay(withRefund(ScriptedModel.of(), ApprovalPolicy.NEVER).build());
        assertThat(unguarded.firstDivergence()).as("the refund no longer waits for a person").isPresent();
        assertThat(unguarded.result().status()).isNotEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(sideEffects.get()).as("a replay never runs the paused call").isEqualTo(1);
    }

    @Test
    void aTraceWithAProviderBlockReplaysAndKeepsTheBlocksKind(@TempDir Path dir) throws Exception {
        // e.g. the raw tool-call arguments an OpenAI-compatible server sent, or an Anthropic server tool block
        Path trace = dir.resolve("run.jsonl");
        dev.rein.model.OpaqueBlock raw = new dev.rein.model.OpaqueBlock("raw_arguments",
                dev.rein.json.Json.object().put("type", "raw_arguments").put("text", "{\"q\": \"札幌\"}"));
        ScriptedModel model = ScriptedModel.of(ScriptedModel.reply(dev.rein.model.StopReason.TOOL_USE, ScriptedModel.DEFAULT_USAGE,
                new dev.rein.model.ToolUseBlock("c1", "search", dev.rein.json.Json.parse("{\"q\":\"札幌\"}")), raw), text("done"));
        agent(model, StallPolicy.defaults()).listener(JsonlTraceListener.to(trace)).build().run("search 札幌");

        String response = Files.readAllLines(trace).stream().filter(l -> l.contains("\"type\":\"model_response\"")).findFirst()
                .orElseThrow();
        assertThat(response).as("one type key per block").contains("{\"type\":\"opaque\",\"json\":{\"type\":\"raw_arguments\"");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().history().get(1).content()).contains(raw);
    }

    @Test
    void aLowerStallThresholdShowsTheDivergenceAtTheStepWhereTheGuardNowActs(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            turns.add(toolCalls(call("search", "{\"q\":\"topic " + i + "\"}")));
        }
        for (int i = 5; i <= 9; i++) {
            turns.add(toolCalls(call("search", "{\"q\":\"same\"}"))); // steps 5..9 repeat one call
        }
        turns.add(text("done"));
        StallPolicy lenient = StallPolicy.builder().withoutAll().exactRepeat(10, 0).build();
        RunResult recorded = agent(ScriptedModel.of(turns), lenient).listener(JsonlTraceListener.to(trace)).build().run("research");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);

        StallPolicy strict = StallPolicy.builder().withoutAll().exactRepeat(3, 0).build();
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), strict).build());

        Divergence divergence = report.firstDivergence().orElseThrow();
        assertThat(divergence.step()).isEqualTo(7);
        assertThat(divergence.description()).startsWith("step 7: the stall guard (exact_repeat)").contains("`search`")
                .contains("request of step 8 differs at messages[");
        assertThat(report.reproduced()).isFalse();

        ReplayReport stopped = Replay.from(trace).stopAtDivergence(true).replay(agent(ScriptedModel.of(), strict).build());
        assertThat(stopped.result().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(stopped.modelCalls()).isEqualTo(8);
    }

    @Test
    void liveReadToolsRunForRealAndBadTracesAreNamed(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"x\"}")), text("ok")), StallPolicy.defaults())
                .listener(JsonlTraceListener.to(trace)).build().run("go");
        assertThat(sideEffects.get()).isEqualTo(1);

        ReplayReport live = Replay.from(trace).liveReadTools(true).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build());
        assertThat(sideEffects.get()).isEqualTo(2);
        assertThat(live.firstDivergence()).as("the live result differs from the recorded one").isPresent();

        Files.writeString(dir.resolve("bad.jsonl"), "{not json\n");
        assertThatThrownBy(() -> Replay.from(dir.resolve("bad.jsonl")).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build()))
                .isInstanceOf(ReinException.class).hasMessageContaining("line 1 is not JSON");
        assertThatThrownBy(() -> Replay.from(trace).run("run_nope").replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build()))
                .hasMessageContaining("has no run run_nope");
    }

    private static final String KEY = "sk-live-0123456789";

    /** An agent whose system prompt and tool output carry a configured secret, as a goal may. */
    private Agent.Builder withSecret(ScriptedModel model, String systemPrompt) {
        Tool token = Tool.builder("token").description("Returns the token.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "the token is " + KEY + " (" + sideEffects.incrementAndGet() + ")").build();
        return Agent.builder().model(model).systemPrompt(systemPrompt).tools(token)
                .secrets(Secrets.of(Map.of("api_key", KEY)));
    }

    @Test
    void aRequestThatCarriedASecretIsComparedMaskedAsItsTraceStoredItWhileARealChangeStillDiverges(@TempDir Path dir)
            throws Exception {
        Path trace = dir.resolve("run.jsonl");
        withSecret(ScriptedModel.of(toolCalls(call("token", "{\"q\":\"" + KEY + "\"}")), text("done with " + KEY)),
                "Sign requests with " + KEY + ".").listener(JsonlTraceListener.to(trace)).build().run("call the API with " + KEY);
        assertThat(Files.readString(trace)).doesNotContain(KEY).contains("[REDACTED:api_key]");

        ReplayReport same = Replay.from(trace).replay(withSecret(ScriptedModel.of(), "Sign requests with " + KEY + ".").build());
        assertThat(same.firstDivergence()).as("%s", same.firstDivergence()).isEmpty();
        assertThat(same.reproduced()).isTrue();

        // A lookup that knows no value in advance: the names the trace masked are looked up.
        Secrets lookup = name -> name.equals("api_key") ? java.util.Optional.of(KEY) : java.util.Optional.empty();
        ReplayReport looked = Replay.from(trace).replay(withSecret(ScriptedModel.of(), "Sign requests with " + KEY + ".")
                .secrets(lookup).build());
        assertThat(looked.firstDivergence()).as("%s", looked.firstDivergence()).isEmpty();

        ReplayReport changed = Replay.from(trace).replay(withSecret(ScriptedModel.of(), "Sign every request with " + KEY + ".")
                .build());
        assertThat(changed.firstDivergence()).hasValueSatisfying(d -> assertThat(d.description())
                .isEqualTo("step 1: the step request differs at system[0].text: recorded \"Sign requests with [REDACTED:api_key].\""
                        + " / now \"Sign every request with [REDACTED:api_key].\""));
        assertThat(changed.firstDivergence().orElseThrow().description()).doesNotContain(KEY);

        // Without the secret configured the replay sees the plain value where the trace has the mask: a divergence.
        ReplayReport unknown = Replay.from(trace).replay(withSecret(ScriptedModel.of(), "Sign requests with " + KEY + ".")
                .secrets(Secrets.NONE).build());
        assertThat(unknown.firstDivergence()).isPresent();
    }

    @Test
    void aChangeFarIntoALongValueIsShownWhereItIsNotOnlyTheSameBeginning(@TempDir Path dir) {
        String rules = "返品は30日以内に受け付けます。".repeat(40); // 640 characters, the same on both sides
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(text("done")), StallPolicy.defaults()).systemPrompt(rules + " 送料は当社負担です。")
                .listener(JsonlTraceListener.to(trace)).build().run("answer");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults())
                .systemPrompt(rules + " 送料はお客様負担です。").build());

        String description = report.firstDivergence().orElseThrow().description();
        assertThat(description).startsWith("step 1: the step request differs at system[0].text: recorded …")
                .contains("送料は当社負担です。").contains("送料はお客様負担です。")
                .contains("(653 characters in all)").contains("(654 characters in all)");
        assertThat(description.length()).as("each value is still cut").isLessThan(900);
    }

    @Test
    void aReplayThatNeedsMoreModelCallsThanRecordedDivergesWhereTheGuardNowActs(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        agent(ScriptedModel.of(text("the answer")), StallPolicy.defaults()).listener(JsonlTraceListener.to(trace)).build()
                .run("answer");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults())
                .verifier(answer -> Verdict.fail("a source")).build());

        Divergence divergence = report.firstDivergence().orElseThrow();
        assertThat(divergence.step()).isEqualTo(1);
        assertThat(divergence.description()).startsWith("step 1: the ").contains("intervention now happens")
                .contains("(so the run makes a step model call the recording does not have (it recorded 1) at step 2)");
        assertThat(report.result().status()).isEqualTo(RunStatus.FAILED);
        assertThat(report.result().reason()).isEqualTo("provider_error");
    }

    @Test
    void aRunCancelledWhileWaitingForTheModelReplaysToTheSameCancellation(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(1);
        ScriptedModel hangsOnTheSecondCall = ScriptedModel.of(toolCalls("調べます", call("search", "{\"q\":\"topic\"}")),
                (request, callNumber) -> {
                    waiting.countDown();
                    Thread.sleep(60_000);
                    throw new AssertionError("not cancelled");
                });
        RunHandle handle = agent(hangsOnTheSecondCall, StallPolicy.defaults())
                .listener(JsonlTraceListener.to(trace)).build().start("research a topic");
        waiting.await();
        handle.cancel();
        RunResult recorded = handle.await();
        assertThat(recorded.status()).isEqualTo(RunStatus.CANCELLED);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.result().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(report.result().answer()).isEqualTo(recorded.answer());
        assertThat(report.modelCalls()).isEqualTo(1);
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aReplayThatEndsBeforeTheRecordingDidDivergesWhereItEnded(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            turns.add(toolCalls(call("search", "{\"q\":\"same\"}")));
        }
        turns.add(text("done"));
        StallPolicy patient = StallPolicy.builder().withoutAll().exactRepeat(3, 0).maxInterventions(10).build();
        agent(ScriptedModel.of(turns), patient).listener(JsonlTraceListener.to(trace)).build().run("research");

        StallPolicy impatient = StallPolicy.builder().withoutAll().exactRepeat(3, 0).maxInterventions(1).build();
        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), impatient).build());

        assertThat(report.result().status()).isEqualTo(RunStatus.FAILED);
        assertThat(report.modelCalls()).isLessThan(7);
        Divergence divergence = report.firstDivergence().orElseThrow();
        assertThat(divergence.description()).contains("the stall guard (exact_repeat) now")
                .contains("the run ends FAILED/" + report.result().reason() + " before the recorded step call of step "
                        + (report.modelCalls() + 1) + " (it used " + report.modelCalls() + " of 7 recorded model calls)");
        assertThat(report.reproduced()).isFalse();
    }

    @Test
    void aGuardThatActedLaterInTheRecordedStepDoesNotExplainAnEarlierDifference(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        Budget oneStep = Budget.builder().maxSteps(1).build();
        agent(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"x\"}")), text("summary")), StallPolicy.defaults())
                .budget(oneStep).listener(JsonlTraceListener.to(trace)).build().run("research");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), StallPolicy.defaults()).budget(oneStep)
                .systemPrompt("You research briefly.").build());

        // The recorded budget intervention came after the step's request: it is not what changed that request.
        assertThat(report.firstDivergence()).hasValueSatisfying(d -> assertThat(d.description())
                .startsWith("step 1: the step request differs at system[0].text: recorded \"You research.\""));
    }

    @Test
    void aRunRecordedWithoutMoneyOrTimeLimitsAndWithTokenLimitsReplaysUnderThoseLimits(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        // DEFAULT_USAGE: 100 input tokens a call, so the third step's check stops the run
        Budget limits = Budget.builder().maxSteps(30).maxCostUsd((java.math.BigDecimal) null).maxDuration(null)
                .maxInputTokens(300L).build();
        RunResult recorded = agent(twentyFiveSteps(), StallPolicy.defaults()).budget(limits)
                .listener(JsonlTraceListener.to(trace)).build().run("research 24 topics");
        assertThat(recorded.reason()).isEqualTo("max_input_tokens");

        // the agent replaying it has the default budget: the recorded limits apply over it
        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).systemPrompt("You research.")
                .tools(search(), TestTools.echo()).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().reason()).isEqualTo("max_input_tokens");
        assertThat(report.modelCalls()).isEqualTo(recorded.steps() + 1);
    }
}
