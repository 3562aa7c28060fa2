package dev.rein.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** The loop's decisions as a pure function: a state and an event in, the next state and commands out. */
class StepTest {
    private static final Step.State START = Step.State.start(new Step.Rules(1024, 2, 1), 0);

    private static Step.Event.Responded responded(StopReason stop, ContentBlock... content) {
        ModelResponse response = new ModelResponse("r", "m", List.of(content), stop, null, Usage.ZERO);
        return new Step.Event.Responded(response, response.text());
    }

    @Test
    void toolCallsRunAgainAfterRunningTheTools() {
        ToolUseBlock use = new ToolUseBlock("toolu_1", "search", Json.parse("{\"q\":\"x\"}"));
        Step.Decision d = Step.decide(START, responded(StopReason.TOOL_USE, new TextBlock("looking"), use));
        assertThat(d.next()).isEqualTo(new NextStep.RunAgain("tool_use"));
        assertThat(d.commands()).containsExactly(new Step.Command.RunTools(List.of(use)));
        assertThat(d.state()).isEqualTo(START);
    }

    @Test
    void aTextAnswerIsVerifiedBeforeItIsAccepted() {
        Step.Decision d = Step.decide(START, responded(StopReason.END_TURN, new TextBlock("42")));
        NextStep.Answer answer = new NextStep.Answer("42", null, null);
        assertThat(d.next()).isEqualTo(answer);
        assertThat(d.commands()).containsExactly(new Step.Command.Verify(answer));

        Step.Decision accepted = Step.decide(d.state(), new Step.Event.Verified(answer, List.of()));
        assertThat(accepted.next()).isEqualTo(new NextStep.Stop(RunStatus.SUCCEEDED, Reason.COMPLETED, "the run completed", "42", null));
        assertThat(accepted.commands()).isEmpty();
    }

    @Test
    void aRefusedAnswerGoesBackToTheModelUntilTheLimit() {
        FinishReport report = new FinishReport("completed", "done", "the result");
        NextStep.Answer viaFinish = new NextStep.Answer("the result", report, "toolu_9");
        Step.Decision first = Step.decide(START, new Step.Event.Verified(viaFinish, List.of("a source")));
        assertThat(first.state().verificationFailures()).isEqualTo(1);
        assertThat(first.next()).isInstanceOf(NextStep.RunAgain.class);
        assertThat(first.commands()).hasSize(2).element(1).isInstanceOfSatisfying(Step.Command.Observe.class, o ->
                assertThat(o.blocks()).singleElement().isInstanceOfSatisfying(ToolResultBlock.class, r -> {
                    assertThat(r.toolUseId()).isEqualTo("toolu_9");
                    assertThat(r.isError()).isTrue();
                }));

        Step.Decision second = Step.decide(first.state(), new Step.Event.Verified(viaFinish, List.of("a source")));
        assertThat(second.next()).isInstanceOfSatisfying(NextStep.Stop.class, stop -> {
            assertThat(stop.status()).isEqualTo(RunStatus.FAILED);
            assertThat(stop.reason()).isEqualTo(Reason.VERIFICATION_FAILED);
            assertThat(stop.report()).isEqualTo(report);
        });
        assertThat(second.commands()).singleElement().isInstanceOf(Step.Command.Intervene.class);
    }

    @Test
    void anEmptyTurnIsNudgedOnceThenEndsTheRun() {
        Step.Decision first = Step.decide(START, responded(StopReason.END_TURN, new TextBlock("")));
        assertThat(first.next()).isEqualTo(new NextStep.RunAgain("empty_answer"));
        assertThat(first.state().emptyAnswers()).isEqualTo(1);
        assertThat(first.commands()).extracting(c -> c.getClass().getSimpleName()).containsExactly("Intervene", "AppendUserText");

        Step.Decision second = Step.decide(first.state(), responded(StopReason.END_TURN));
        assertThat(second.next()).isInstanceOfSatisfying(NextStep.Stop.class, stop -> {
            assertThat(stop.reason()).isEqualTo(Reason.EMPTY_ANSWER);
            assertThat(stop.answer()).as("what the run knows, filled in by the driver").isNull();
        });
    }

    @Test
    void cutOffRefusedAndOverfullResponsesAreNeverAnswers() {
        assertThat(Step.decide(START, responded(StopReason.MAX_TOKENS, new TextBlock("half"))).next())
                .isInstanceOfSatisfying(NextStep.Stop.class, s -> assertThat(s.message()).contains("max_tokens (1024)"));
        assertThat(Step.decide(START, responded(StopReason.REFUSAL, new TextBlock("no"))).next())
                .isInstanceOfSatisfying(NextStep.Stop.class, s -> assertThat(s.reason()).isEqualTo(Reason.REFUSAL));
        assertThat(Step.decide(START, responded(StopReason.MODEL_CONTEXT_WINDOW_EXCEEDED)).next())
                .isInstanceOfSatisfying(NextStep.Stop.class, s -> assertThat(s.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED));
        Step.Decision paused = Step.decide(START, responded(StopReason.PAUSE_TURN, new TextBlock("so far")));
        assertThat(paused.next()).isEqualTo(new NextStep.RunAgain("pause_turn"));
        assertThat(paused.commands()).isEmpty();
    }
}
