package dev.rein.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.BudgetKind;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decisions the local driver used to take itself, now taken by the step function: budgets,
 * the finish tool, the stall guard's verdict, context edits, a resumed step. Plain values in and
 * out: no threads, no clock.
 */
class LoopDecisionsTest {
    private static final Step.State START = Step.State.start(new Step.Rules(1024, 2, 1, true), 0);
    private static final String WHY = "the step budget (10) is used up";

    private static ToolUseBlock use(String id, String name, String json) {
        return new ToolUseBlock(id, name, Json.parse(json));
    }

    private static ToolUseBlock finish(String status) {
        return use("toolu_f", "finish", "{\"status\":\"" + status + "\",\"summary\":\"s\",\"result\":\"r\",\"open_questions\":[\"q\"]}");
    }

    private static List<String> kinds(Step.Decision d) {
        return d.commands().stream().map(c -> c.getClass().getSimpleName()).toList();
    }

    @Test
    void withinTheBudgetTheModelIsCalled() {
        Step.Decision d = Step.decide(START, new Step.Event.BudgetObserved(null, null));
        assertThat(d.commands()).containsExactly(new Step.Command.CallModel());
        assertThat(d.state()).isEqualTo(START);
    }

    @Test
    void anExhaustedBudgetAsksForASummaryWithToolsOff() {
        Step.Decision d = Step.decide(START, new Step.Event.BudgetObserved(BudgetKind.STEPS, WHY));
        assertThat(kinds(d)).containsExactly("Intervene", "AppendUserText", "Summarize");
        assertThat(d.commands().get(0)).isEqualTo(new Step.Command.Intervene("budget", WHY, Map.of("budget", "max_steps")));
        assertThat(((Step.Command.AppendUserText) d.commands().get(1)).text()).startsWith("[rein] The work must stop now: " + WHY)
                .contains("Do not call any tools");
        assertThat(d.commands().get(2)).isEqualTo(new Step.Command.Summarize(BudgetKind.STEPS, WHY));

        ModelResponse summary = new ModelResponse("r", "m", List.of(new TextBlock("what I found")), StopReason.END_TURN, null, Usage.ZERO);
        Step.Decision done = Step.decide(d.state(), new Step.Event.Summarized(BudgetKind.STEPS, WHY, summary, null, "known"));
        assertThat(done.next()).isEqualTo(new NextStep.Stop(RunStatus.STOPPED_BUDGET, Reason.of("max_steps"), WHY, "what I found", null));
        assertThat(done.commands()).isEmpty();
    }

    @Test
    void aCutOffOrFailedSummaryFallsBackToWhatTheRunKnows() {
        ModelResponse cut = new ModelResponse("r", "m", List.of(new TextBlock("half")), StopReason.MAX_TOKENS, null, Usage.ZERO);
        Step.Decision d = Step.decide(START, new Step.Event.Summarized(BudgetKind.COST, WHY, cut, null, "known"));
        assertThat(((NextStep.Stop) d.next()).answer()).isEqualTo("known The model's summary was not complete (max_tokens): half");

        // a turn the server paused (a server tool still working) is no finished summary either
        ModelResponse paused = new ModelResponse("r", "m", List.of(new TextBlock("searching")), StopReason.PAUSE_TURN, null, Usage.ZERO);
        Step.Decision p = Step.decide(START, new Step.Event.Summarized(BudgetKind.COST, WHY, paused, null, "known"));
        assertThat(((NextStep.Stop) p.next()).answer()).isEqualTo("known The model's summary was not complete (pause_turn): searching");

        Step.Decision failed = Step.decide(START, new Step.Event.Summarized(BudgetKind.COST, WHY, null, "provider down", "known"));
        assertThat(failed.next()).isEqualTo(new NextStep.Stop(RunStatus.STOPPED_BUDGET, Reason.of("max_cost"),
                WHY + "; the summary call failed too: provider down", "known", null));
    }

    @Test
    void theDeadlineStopsAtOnceWithoutASummaryCall() {
        Step.Decision d = Step.decide(START, new Step.Event.BudgetObserved(BudgetKind.DEADLINE, "time is up"));
        assertThat(d.next()).isEqualTo(new NextStep.Stop(RunStatus.STOPPED_BUDGET, Reason.of("deadline"), "time is up", null, null));
        assertThat(kinds(d)).containsExactly("Intervene");
    }

    @Test
    void aLoneFinishCallIsCheckedAfterACheckpointOtherCallsRunThroughTheGuards() {
        ToolUseBlock finish = finish("completed");
        Step.Decision lone = Step.decide(START, new Step.Event.ToolsProposed(List.of(finish)));
        assertThat(lone.commands()).containsExactly(new Step.Command.Checkpoint(), new Step.Command.CheckFinish(finish));

        ToolUseBlock search = use("toolu_1", "search", "{}");
        Step.Decision together = Step.decide(START, new Step.Event.ToolsProposed(List.of(search, finish)));
        assertThat(together.commands()).containsExactly(new Step.Command.Checkpoint(),
                new Step.Command.ExecuteTools(List.of(search, finish)));

        Step.State noFinishTool = Step.State.start(new Step.Rules(1024, 2, 1, false), 0);
        assertThat(Step.decide(noFinishTool, new Step.Event.ToolsProposed(List.of(finish))).commands())
                .containsExactly(new Step.Command.Checkpoint(), new Step.Command.ExecuteTools(List.of(finish)));
    }

    @Test
    void finishCompletedIsAnAnswerToVerifyFailedStopsNeedsUserInputHandsOff() {
        FinishReport completed = new FinishReport("completed", "s", "r");
        Step.Decision answer = Step.decide(START, new Step.Event.FinishChecked(finish("completed"), completed, List.of()));
        assertThat(answer.next()).isEqualTo(new NextStep.Answer("r", completed, "toolu_f"));
        assertThat(kinds(answer)).containsExactly("NoteHandoff");

        FinishReport failed = new FinishReport("failed", "could not", "r");
        Step.Decision stop = Step.decide(START, new Step.Event.FinishChecked(finish("failed"), failed, List.of()));
        assertThat(stop.next()).isEqualTo(new NextStep.Stop(RunStatus.FAILED, Reason.AGENT_FAILED,
                "the agent reported failure: could not", "r", failed));

        FinishReport ask = new FinishReport("needs_user_input", "which account?", "r");
        Step.Decision handoff = Step.decide(START, new Step.Event.FinishChecked(finish("needs_user_input"), ask, List.of()));
        assertThat(handoff.next()).isEqualTo(new NextStep.Handoff("which account?", "r", ask));
        assertThat(handoff.commands()).singleElement().isInstanceOfSatisfying(Step.Command.NoteHandoff.class,
                n -> assertThat(n.arguments().path("open_questions").get(0).asText()).isEqualTo("q"));
    }

    @Test
    void anInvalidFinishCallIsRefusedThroughTheToolChainAndTheModelTriesAgain() {
        ToolUseBlock bad = use("toolu_f", "finish", "{\"status\":\"done\"}");
        Step.Decision d = Step.decide(START, new Step.Event.FinishChecked(bad, null, List.of("status: not one of the allowed values")));
        List<String> problems = List.of("status: not one of the allowed values");
        assertThat(d.commands()).containsExactly(new Step.Command.RefuseFinish(bad, problems));

        ToolResultBlock refusal = new ToolResultBlock("toolu_f", "invalid arguments", true);
        Step.Decision refused = Step.decide(d.state(), new Step.Event.FinishRefused(refusal, problems));
        assertThat(refused.next()).isEqualTo(new NextStep.RunAgain("finish_refused"));
        assertThat(refused.state().verificationFailures()).isEqualTo(1);
        assertThat(refused.commands()).containsExactly(new Step.Command.Intervene("invalid_output", "invalid arguments",
                java.util.Map.of("problems", problems, "refusals", 1)), new Step.Command.Observe(List.of(refusal)));

        // counted with the answer's other refusals: past maxVerificationFailures the run ends invalid_output
        Step.Decision again = Step.decide(refused.state(), new Step.Event.FinishRefused(refusal, problems));
        assertThat(again.next()).isInstanceOfSatisfying(NextStep.Stop.class, stop -> {
            assertThat(stop.reason()).isEqualTo(Reason.INVALID_OUTPUT);
            assertThat(stop.message()).isEqualTo("the finish call's arguments were invalid 2 times: status: not one of the allowed values");
        });
    }

    @Test
    void answeredToolsAreObservedAndSavedAStallStopsTheRun() {
        List<ContentBlock> observation = List.of(new ToolResultBlock("toolu_1", "ok", false), new TextBlock("[rein] warning"));
        Step.Decision d = Step.decide(START, new Step.Event.ToolsAnswered(observation, null));
        assertThat(d.next()).isEqualTo(new NextStep.RunAgain("tool_results"));
        assertThat(d.commands()).containsExactly(new Step.Command.Observe(observation), new Step.Command.Checkpoint());

        Step.Decision stalled = Step.decide(START, new Step.Event.ToolsAnswered(observation, "the run stalled: exact_repeat"));
        assertThat(stalled.next()).isEqualTo(NextStep.Stop.failed(Reason.STALLED, "the run stalled: exact_repeat", null));
        assertThat(stalled.commands()).as("the stop notice is recorded first")
                .containsExactly(new Step.Command.Observe(observation), new Step.Command.Checkpoint());
    }

    @Test
    void callsWaitingForAPersonInterruptTheRun() {
        Step.Decision d = Step.decide(START, new Step.Event.ToolsPaused(List.of("toolu_2")));
        assertThat(d.next()).isEqualTo(new NextStep.Interrupt(List.of("toolu_2")));
        assertThat(d.commands()).isEmpty();
    }

    @Test
    void aResumedStepFirstAnswersItsOpenCalls() {
        ToolUseBlock open = use("toolu_2", "send_message", "{}");
        assertThat(Step.decide(START, new Step.Event.Started(List.of(open))).commands())
                .containsExactly(new Step.Command.RunTools(List.of(open)));
        Step.Decision fresh = Step.decide(START, new Step.Event.Started(List.of()));
        assertThat(fresh.next()).isEqualTo(new NextStep.RunAgain("start"));
        assertThat(fresh.commands()).isEmpty();
    }

    @Test
    void overTheClearingTriggerToolResultsAreClearedThenCompactionIfStillOver() {
        Step.Decision clear = Step.decide(START, new Step.Event.ContextMeasured(6_000, 1_000, 5_000, false));
        assertThat(clear.commands()).containsExactly(new Step.Command.ClearToolResults());

        Step.Decision compact = Step.decide(START, new Step.Event.ContextMeasured(5_500, 1_000, 5_000, true));
        assertThat(compact.commands()).containsExactly(new Step.Command.Compact(5_500));

        assertThat(Step.decide(START, new Step.Event.ContextMeasured(4_000, 1_000, 5_000, true)).commands()).isEmpty();
        assertThat(Step.decide(START, new Step.Event.ContextMeasured(900, 1_000, 5_000, false)).commands()).isEmpty();
        assertThat(Step.decide(START, new Step.Event.ContextMeasured(9_000, 0, 0, false)).commands())
                .as("no client-side policy").isEmpty();
        assertThat(Step.decide(START, new Step.Event.ContextMeasured(9_000, 0, 5_000, false)).commands())
                .containsExactly(new Step.Command.Compact(9_000));
    }
}
