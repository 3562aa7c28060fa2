package dev.rein.internal.loop;

import dev.rein.internal.text.Visible;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The decisions after a model response and after an answer was checked. */
final class AnswerDecisions {
    private AnswerDecisions() {}

    /** Interpret the stop reason; a cut-off or refused response is never taken as an answer. */
    static Step.Decision responded(Step.State state, Step.Event.Responded event) {
        ModelResponse response = event.response();
        return switch (response.stopReason()) {
            // cut off at what an output token or money limit left: that limit ran out, and the next step's budget check
            // stops the run for it (with the summary call), as for any budget
            case MAX_TOKENS -> event.outputLimitCut() ? new Step.Decision(state, new NextStep.RunAgain("output_limit"), List.of())
                    : stop(state, Reason.MAX_TOKENS, "the model's response was cut off at max_tokens ("
                    + state.rules().maxTokens() + "); it was not taken as an answer. Raise maxTokens or ask for shorter output.");
            // The provider's explanation (the API's stop_details, meant for the user) says why; without
            // one, the refused text is all there is.
            case REFUSAL -> stop(state, Reason.REFUSAL, "the model refused to continue" + (response.stopDetail() != null
                    ? ": " + response.stopDetail() : textSuffix(response)));
            case MODEL_CONTEXT_WINDOW_EXCEEDED -> stop(state, Reason.CONTEXT_WINDOW_EXCEEDED,
                    "the conversation no longer fits the model's context window; enable a context policy"
                            + " (tool result clearing or compaction) or lower the tool output limit");
            case PAUSE_TURN -> new Step.Decision(state, new NextStep.RunAgain("pause_turn"), List.of());
            default -> response.toolUses().isEmpty() ? answered(state, event.answerText())
                    : new Step.Decision(notEmpty(state), new NextStep.RunAgain("tool_use"),
                    List.of(new Step.Command.RunTools(response.toolUses())));
        };
    }

    private static Step.Decision stop(Step.State state, Reason reason, String message) {
        return new Step.Decision(state, NextStep.Stop.failed(reason, message, ""), List.of());
    }

    private static String textSuffix(ModelResponse response) {
        String text = response.text().strip();
        return text.isEmpty() ? "" : ": " + text;
    }

    /**
     * A turn with a tool call or an answer in it: the empty turns counted so far were not in a row, so the nudges
     * start again (a model that went back to work after a nudge was not stuck).
     */
    private static Step.State notEmpty(Step.State state) {
        return state.emptyAnswers() == 0 ? state : new Step.State(state.rules(), 0, state.verificationFailures());
    }

    /** An empty turn is no answer: the model is asked again, and past the nudges in a row the run ends. */
    private static Step.Decision answered(Step.State state, String text) {
        if (Visible.any(text)) {
            NextStep.Answer answer = new NextStep.Answer(text, null, null);
            return new Step.Decision(notEmpty(state), answer, List.of(new Step.Command.Verify(answer)));
        }
        int empty = state.emptyAnswers() + 1;
        Step.State next = new Step.State(state.rules(), empty, state.verificationFailures());
        if (empty > state.rules().maxEmptyNudges()) {
            String why = "the model ended its turn without an answer, twice in a row; there is nothing to return";
            return new Step.Decision(next, NextStep.Stop.failed(Reason.EMPTY_ANSWER, why, null), List.of());
        }
        String nudge = "[rein] Your last reply was empty. Continue the task: call a tool, or reply with your final answer.";
        return new Step.Decision(next, new NextStep.RunAgain("empty_answer"), List.of(
                new Step.Command.Intervene("empty_answer", nudge, Map.of("empty_replies", empty)), new Step.Command.AppendUserText(nudge)));
    }

    /**
     * Verification: code decides whether a proposed final answer is accepted. A refusal goes back
     * to the model (as the finish call's error result, or as a user message after a text answer).
     */
    static Step.Decision verified(Step.State state, Step.Event.Verified event) {
        NextStep.Answer answer = event.answer();
        FinishReport report = answer.report();
        // a finish result that shows nothing is refused as empty (below), not as output that is not JSON
        if (!event.invalidOutput().isEmpty() && (answer.finishCallId() == null || Visible.any(answer.text()))) {
            return invalidOutput(state, answer, event.invalidOutput());
        }
        List<String> missing = event.missing();
        if (answer.finishCallId() != null && !Visible.any(answer.text())) {
            // a completed finish whose result shows nothing is no answer, as an empty turn is none
            missing = new ArrayList<>(missing);
            missing.add(0, "the finish call's result is empty: put the final answer for the user in result");
        }
        if (missing.isEmpty()) {
            Reason reason = report == null ? Reason.COMPLETED : Reason.FINISHED;
            return new Step.Decision(state, new NextStep.Stop(RunStatus.SUCCEEDED, reason, "the run completed", answer.text(), report),
                    List.of());
        }
        int failures = state.verificationFailures() + 1;
        Step.State next = new Step.State(state.rules(), state.emptyAnswers(), failures);
        String feedback = "Your answer was not accepted yet. Missing or wrong:\n- " + String.join("\n- ", missing)
                + "\nContinue working on the task, then answer again.";
        Step.Command intervene = new Step.Command.Intervene("verifier", feedback, Map.of("missing", missing, "refusals", failures));
        if (failures >= state.rules().maxVerificationFailures()) {
            return new Step.Decision(next, new NextStep.Stop(RunStatus.FAILED, Reason.VERIFICATION_FAILED, "the answer failed verification "
                    + failures + " times; still missing: " + String.join("; ", missing), answer.text(), report), List.of(intervene));
        }
        ContentBlock refusal = answer.finishCallId() == null ? new TextBlock(feedback)
                : new ToolResultBlock(answer.finishCallId(), feedback, true);
        return new Step.Decision(next, new NextStep.RunAgain("answer_refused"), List.of(intervene, new Step.Command.Observe(List.of(refusal))));
    }

    /** An answer that is not valid output goes back to the model with the validation errors, within the refusals allowed. */
    private static Step.Decision invalidOutput(Step.State state, NextStep.Answer answer, List<String> problems) {
        int failures = state.verificationFailures() + 1;
        Step.State next = new Step.State(state.rules(), state.emptyAnswers(), failures);
        String feedback = "Your final answer is not valid output: it must be one JSON value, and nothing else, that"
                + " validates against the required schema. Problems:\n- " + String.join("\n- ", problems)
                + "\nReply with the corrected JSON only.";
        Step.Command intervene = new Step.Command.Intervene("invalid_output", feedback, Map.of("problems", problems, "refusals", failures));
        if (failures >= state.rules().maxVerificationFailures()) {
            return new Step.Decision(next, new NextStep.Stop(RunStatus.FAILED, Reason.INVALID_OUTPUT, "the final answer was not valid"
                    + " output " + failures + " times: " + String.join("; ", problems), answer.text(), answer.report()),
                    List.of(intervene));
        }
        ContentBlock refusal = answer.finishCallId() == null ? new TextBlock(feedback)
                : new ToolResultBlock(answer.finishCallId(), feedback, true);
        return new Step.Decision(next, new NextStep.RunAgain("invalid_output"), List.of(intervene, new Step.Command.Observe(List.of(refusal))));
    }
}
