package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.run.Verdict;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.budget.ModelPrice;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.reflection.PhaseEnd;
import dev.rein.reflection.Reflection;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReflectionLoopTest {
    private static final String FINISH_42 = "{\"status\":\"completed\",\"summary\":\"looked it up\",\"result\":\"42\"}";
    private static final String FINISH_42_KM = "{\"status\":\"completed\",\"summary\":\"looked it up\",\"result\":\"42 km\"}";
    private final RecordingListener trace = new RecordingListener();

    private static Tool lookup() {
        return Tool.builder("lookup").description("Looks a thing up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "found: " + args.get("q").asText())
                .build();
    }

    private static Tool commit() {
        return Tool.builder("commit").description("Commits.").handler((args, ctx) -> "committed").build();
    }

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(lookup(), commit()).listener(trace)
                .price("claude-haiku-4-5", ModelPrice.of("1.00", "0.10", "1.25", "5.00"));
    }

    private static ScriptedModel.Turn lookupTurn(int i) {
        return toolCalls(call("lookup", "{\"q\":\"item " + i + "\"}"));
    }

    private static String lastBlockText(ModelRequest request) {
        List<ContentBlock> blocks = request.messages().get(request.messages().size() - 1).content();
        return blocks.get(blocks.size() - 1) instanceof TextBlock t ? t.text() : "";
    }

    private static ScriptedModel.Turn verdict(boolean approved, String... problems) {
        return ScriptedModel.reply(StopReason.TOOL_USE, Usage.of(500, 50, 0, 0), new ToolUseBlock("toolu_v", "verdict",
                Json.mapper().valueToTree(java.util.Map.of("approved", approved, "problems", List.of(problems)))));
    }

    // ---- B and C ----

    @Test
    void evaluationPromptsFollowEveryToolStepAndAreTracedAsInterventions() {
        ScriptedModel model = ScriptedModel.of(lookupTurn(1), lookupTurn(2), lookupTurn(3), text("done"));
        RunResult result = agent(model).reflection(Reflection.evaluateEachStep()).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        for (int i = 1; i <= 3; i++) {
            ModelRequest request = model.requests().get(i);
            assertThat(lastBlockText(request)).isEqualTo(Reflection.Evaluate.DEFAULT_PROMPT);
            assertThat(request.messages().get(request.messages().size() - 1).content().get(0)).isInstanceOf(ToolResultBlock.class);
        }
        assertThat(trace.events(TraceEvent.Intervention.class)).hasSize(3).allSatisfy(e -> {
            assertThat(e.kind()).isEqualTo("reflection");
            assertThat(e.evidence()).containsEntry("strategy", "evaluate");
        });
    }

    @Test
    void checkpointsComeEveryNStepsAndWhenAPhaseEnds() {
        ScriptedModel model = ScriptedModel.of(lookupTurn(1), lookupTurn(2), toolCalls(call("commit", "{}")), lookupTurn(4),
                lookupTurn(5), text("done"));
        agent(model).reflection(Reflection.checkpoint(2).atPhaseEnd(PhaseEnd.afterTool("commit"))).build().run("go");

        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::step, e -> e.evidence().get("trigger"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple(2, "every_2_steps"),
                        org.assertj.core.groups.Tuple.tuple(3, "phase_end"),
                        org.assertj.core.groups.Tuple.tuple(4, "every_2_steps"));
        assertThat(lastBlockText(model.requests().get(2))).isEqualTo(Reflection.Checkpoint.DEFAULT_PROMPT);
        assertThat(lastBlockText(model.requests().get(1))).isEmpty();
    }

    @Test
    void noReflectionIsTheDefault() {
        ScriptedModel model = ScriptedModel.of(lookupTurn(1), text("done"));
        agent(model).build().run("go");
        assertThat(model.requests().get(1).messages().get(2).content()).hasSize(1);
        assertThat(trace.events(TraceEvent.Intervention.class)).isEmpty();
    }

    // ---- D: critic ----

    @Test
    void aCriticsRejectionGoesBackToTheModelAndItsCallIsTracedAndPaidFor() {
        ScriptedModel worker = ScriptedModel.of(lookupTurn(1), toolCalls(call("finish", FINISH_42)), toolCalls(call("finish", FINISH_42_KM)));
        ScriptedModel critic = ScriptedModel.of(verdict(false, "the goal asks for a distance; give the unit"));

        RunResult result = agent(worker).finishTool(true).reflection(Reflection.critic(critic, "claude-haiku-4-5"))
                .build().run("How far is it?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("42 km");
        assertThat(critic.requests()).as("one round by default: the revised answer is not reviewed again").hasSize(1);
        ModelRequest review = critic.requests().get(0);
        assertThat(review.model()).isEqualTo("claude-haiku-4-5");
        assertThat(review.toolChoice()).isEqualTo(ToolChoice.tool("verdict"));
        assertThat(review.systemText()).contains("review").contains("never instructions");
        String brief = review.messages().get(0).text();
        assertThat(brief).contains("<goal>\nHow far is it?\n</goal>").contains("lookup {\"q\":\"item 1\"} -> ").contains("found: item 1")
                .contains("<proposed_answer>\n42\n</proposed_answer>");

        ToolResultBlock refusal = (ToolResultBlock) worker.requests().get(2).messages().get(4).content().get(0);
        assertThat(refusal.isError()).isTrue();
        assertThat(refusal.content()).contains("Reviewer: the goal asks for a distance; give the unit");

        assertThat(trace.events(TraceEvent.ModelRequested.class)).extracting(TraceEvent.ModelRequested::purpose)
                .containsExactly("step", "step", "critic", "step");
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind).containsExactly("critic", "verifier");
        assertThat(result.usage().inputTokens()).isEqualTo(3 * 100 + 500);
        // sonnet: 3 x (100 x 3 + 20 x 15) = 1800; haiku: 500 x 1 + 50 x 5 = 750 (per million)
        assertThat(result.costUsd()).isEqualByComparingTo("0.00255");
    }

    @Test
    void repeatedRejectionsEndTheRunThroughTheVerificationLimit() {
        ScriptedModel worker = ScriptedModel.of(text("42"), text("forty-two"), text("never"));
        ScriptedModel critic = ScriptedModel.of(verdict(false, "unsupported"), verdict(false, "still unsupported"));
        RunResult result = agent(worker).reflection(Reflection.critic(critic, "claude-haiku-4-5").maxRounds(3)).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.VERIFICATION_FAILED);
        assertThat(result.message()).contains("Reviewer: still unsupported");
        Message feedback = worker.requests().get(1).messages().get(2);
        assertThat(feedback.text()).contains("Reviewer: unsupported");
    }

    @Test
    void theCriticIsAskedOnlyAfterTheCodeVerifiersPassAndMayUseTheAgentsOwnModel() {
        ScriptedModel model = ScriptedModel.of(text("draft"), text("final"), verdict(true));
        RunResult result = agent(model).maxVerificationFailures(3)
                .verifier(answer -> answer.answer().equals("final") ? Verdict.pass() : Verdict.fail("not final"))
                .reflection(Reflection.critic()).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(model.requests()).hasSize(3);
        assertThat(model.requests().get(2).toolChoice()).isEqualTo(ToolChoice.tool("verdict"));
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind)
                .containsExactly("verifier", "critic");
    }

    /**
     * Some models answer a forced tool choice with a 400 (Anthropic's Claude Opus 5.5 and Fable 5.1, and any of its
     * models with thinking on): the critic asks again letting the model choose, and asks so from then on, where it
     * took the refusal for an unreachable critic and accepted every answer unreviewed.
     */
    @Test
    void aCriticModelThatRefusesAForcedToolChoiceIsAskedAgainLettingItChoose() {
        ScriptedModel worker = ScriptedModel.of(text("42"), text("42 km"), text("never"));
        ScriptedModel critic = ScriptedModel.of(
                ScriptedModel.fail(new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.INVALID_REQUEST, 400,
                        "tool_choice: forced tool use is not supported for this model")),
                verdict(false, "give the unit"), verdict(true));
        RunResult result = agent(worker).reflection(Reflection.critic(critic, "claude-haiku-4-5").maxRounds(2)).build()
                .run("How far is it?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("42 km");
        assertThat(critic.requests()).extracting(ModelRequest::toolChoice)
                .containsExactly(ToolChoice.tool("verdict"), ToolChoice.auto(), ToolChoice.auto());
        assertThat(trace.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("critic"))
                .extracting(TraceEvent.Intervention::message)
                .containsExactly("the critic rejected the answer", "the critic approved the answer");
    }

    @Test
    void anUnreachableCriticDoesNotBlockTheAnswer() {
        ScriptedModel critic = ScriptedModel.of();
        RunResult result = agent(ScriptedModel.of(text("42"))).reflection(Reflection.critic(critic, "claude-haiku-4-5"))
                .build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.Intervention.class)).singleElement()
                .satisfies(e -> assertThat(e.message()).contains("could not be reached"));
    }

    @Test
    void criticSettingsAreCheckedWhenTheAgentIsBuilt() {
        ScriptedModel m = ScriptedModel.of();
        assertThatThrownBy(() -> agent(m).reflection(Reflection.critic(), Reflection.critic()).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("at most one critic");
        assertThatThrownBy(() -> agent(m).reflection(Reflection.critic(m, "my-local-model")).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("my-local-model");
        assertThatThrownBy(() -> Reflection.checkpoint(0)).isInstanceOf(ReinException.class);
    }
    /**
     * The critic's review call may write at most the output tokens an output token limit still leaves (its
     * max_tokens lowered to them, as a step's), and when the limit leaves none it is not made: the answer is
     * accepted without review, an intervention of kind critic says why, and the run does not end past its limit,
     * where the review asked for the critic's own 2,048 in both cases.
     */
    @Test
    void theCriticWritesAtMostWhatTheOutputLimitLeavesAndIsNotAskedWhenNothingIsLeft() {
        // 1,000 of the run's 1,000 + 100 output tokens spent by the answer: the review may write 100
        ScriptedModel critic = ScriptedModel.of(verdict(true));
        RunResult reviewed = agent(ScriptedModel.of(ScriptedModel.withUsage(Usage.of(100, 1_000, 0, 0), text("42"))))
                .reflection(Reflection.critic(critic, "claude-haiku-4-5"))
                .budget(dev.rein.budget.Budget.builder().maxOutputTokens(1_100L).build()).build().run("go");
        assertThat(reviewed.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(critic.requests()).hasSize(1);
        assertThat(critic.requests().get(0).maxTokens()).isEqualTo(100);

        // the answer wrote every token the limit left: no review, the answer accepted, said so
        ScriptedModel none = ScriptedModel.of(verdict(false, "never asked"));
        RecordingListener events = new RecordingListener();
        RunResult accepted = agent(ScriptedModel.of(ScriptedModel.withUsage(Usage.of(100, 1_000, 0, 0), text("42"))))
                .listener(events).reflection(Reflection.critic(none, "claude-haiku-4-5"))
                .budget(dev.rein.budget.Budget.builder().maxOutputTokens(1_000L).build()).build().run("go");
        assertThat(accepted.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(accepted.answer()).isEqualTo("42");
        assertThat(none.requests()).isEmpty();
        assertThat(events.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("critic"))
                .singleElement().satisfies(e -> assertThat(e.message()).contains("output token limit")
                        .contains("accepted without review"));
    }
    /**
     * The critic's review call may write at most the output tokens the money left buys at the critic model's
     * highest output rate (its max_tokens lowered to them, said by a max_tokens_lowered intervention), as a
     * step's, where it asked for its own 2,048 and could overrun the money limit by all of them.
     */
    @Test
    void theCriticWritesAtMostWhatTheMoneyLeftBuysAtTheCriticModelsRate() {
        // the answer: 1,000 in, 1,000 out at USD 3 / 15 = USD 0.018 of 0.02; USD 0.002 left buys 400 tokens at the
        // critic's USD 5 per million output tokens
        ScriptedModel critic = ScriptedModel.of(verdict(true));
        RecordingListener events = new RecordingListener();
        RunResult reviewed = agent(ScriptedModel.of(ScriptedModel.withUsage(Usage.of(1_000, 1_000, 0, 0), text("42"))))
                .listener(events).reflection(Reflection.critic(critic, "claude-haiku-4-5"))
                .budget(dev.rein.budget.Budget.builder().maxCostUsd(new java.math.BigDecimal("0.02")).build()).build().run("go");
        assertThat(reviewed.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(critic.requests()).hasSize(1);
        assertThat(critic.requests().get(0).maxTokens()).isEqualTo(400);
        assertThat(events.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("max_tokens_lowered"))
                .last().satisfies(e -> {
                    assertThat(e.message()).isEqualTo("max_tokens lowered from 2048 to 400 for the critic's review: the 400"
                            + " output tokens the USD 0.002 the money limit leaves buys at USD 5.00 per million output tokens"
                            + " (the critic model's highest output rate)");
                    assertThat(e.evidence()).containsEntry("budget", "max_cost").containsEntry("max_tokens", 2048)
                            .containsEntry("lowered_to", 400L).containsEntry("output_usd_per_mtok", "5.00");
                });
    }

    /**
     * A review is a model call counted in the budget, and a call is made only while no limit is reached, as a
     * step's is: when the answer's step used the input token or money limit up, no review is asked for, the
     * answer is accepted without review and an intervention of kind critic names the limit, as when the output
     * limit leaves nothing, where the review was made past the limit (an extra call beyond the run's budget).
     */
    @Test
    void theCriticIsNotAskedOnceTheAnswerUsedTheInputTokenOrMoneyLimitUp() {
        for (dev.rein.budget.Budget budget : List.of(dev.rein.budget.Budget.builder().maxInputTokens(2_000L).build(),
                dev.rein.budget.Budget.builder().maxCostUsd(new java.math.BigDecimal("0.002")).build())) {
            ScriptedModel none = ScriptedModel.of(verdict(false, "never asked"));
            RecordingListener events = new RecordingListener();
            RunResult accepted = agent(ScriptedModel.of(ScriptedModel.withUsage(Usage.of(2_000, 10, 0, 0), text("42"))))
                    .listener(events).reflection(Reflection.critic(none, "claude-haiku-4-5")).budget(budget).build().run("go");
            assertThat(accepted.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(accepted.answer()).isEqualTo("42");
            assertThat(none.requests()).as("%s", budget).isEmpty();
            assertThat(events.events(TraceEvent.Intervention.class)).filteredOn(e -> e.kind().equals("critic"))
                    .singleElement().satisfies(e -> assertThat(e.message())
                            .contains(budget.maxInputTokens() != null ? "input token limit" : "cost limit")
                            .contains("accepted without review"));
        }
    }
    /**
     * The critic reviews at most its maxRounds answers in the run across an approval pause, as in one loop and
     * on Temporal: with the defaults (one round, two refusals) a critic that rejected the first answer does
     * not review the one given after the run was resumed, where the resumed run's critic counted from 0,
     * reviewed it, and its second rejection ended the run FAILED/verification_failed, which a critic with the
     * defaults cannot do on its own (docs/guards.md).
     */
    @Test
    void theCriticsReviewsAreCountedAcrossAnApprovalPause() {
        ScriptedModel worker = ScriptedModel.of(text("draft"), toolCalls(call("commit", "{}")), text("final"));
        ScriptedModel critic = ScriptedModel.of(verdict(false, "unsupported"), verdict(false, "still unsupported"));
        Agent agent = agent(worker).reflection(Reflection.critic(critic, "claude-haiku-4-5"))
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.tools("commit")).build();
        RunResult paused = agent.run("go");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(critic.requests()).hasSize(1);
        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "me");

        RunResult result = agent.resume(paused.runId());

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("final");
        assertThat(critic.requests()).as("one round in the run, not one per resumed loop").hasSize(1);
    }
}
