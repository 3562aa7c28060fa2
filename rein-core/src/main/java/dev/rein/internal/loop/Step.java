package dev.rein.internal.loop;

import dev.rein.model.ContentBlock;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import java.util.List;
import java.util.Map;

/**
 * The loop's decisions as a function: given the immutable {@link State} and what just happened
 * (an {@link Event}), the next state, the {@link NextStep} and the {@link Command}s the driver
 * executes. No threads, no clock, no I/O: a driver (local threads today, a workflow engine later)
 * performs the effects and feeds their results back as events.
 */
public final class Step {
    private Step() {}

    /** The limits the decisions apply. */
    public record Rules(int maxTokens, int maxVerificationFailures, int maxEmptyNudges) {}

    /** What the decisions remember between events. */
    public record State(Rules rules, int emptyAnswers, int verificationFailures) {
        public static State start(Rules rules, int verificationFailures) {
            return new State(rules, 0, verificationFailures);
        }
    }

    /** What just happened. */
    public sealed interface Event {
        /** The model answered; {@code answerText} is the text of its turns since the last user turn. */
        record Responded(ModelResponse response, String answerText) implements Event {}

        /**
         * A proposed answer was checked; {@code missing} lists what the verifiers still require,
         * {@code invalidOutput} why it does not validate against the required output schema.
         */
        record Verified(NextStep.Answer answer, List<String> missing, List<String> invalidOutput) implements Event {
            public Verified {
                missing = List.copyOf(missing);
                invalidOutput = invalidOutput == null ? List.of() : List.copyOf(invalidOutput);
            }

            public Verified(NextStep.Answer answer, List<String> missing) {
                this(answer, missing, List.of());
            }
        }
    }

    /** An effect for the driver, in order. */
    public sealed interface Command {
        /** Run these tool calls (and the guards around them), then observe their results. */
        record RunTools(List<ToolUseBlock> uses) implements Command {}

        /** Check the proposed answer with the verifiers (and the critic). */
        record Verify(NextStep.Answer answer) implements Command {}

        /** Record an intervention in the trace. */
        record Intervene(String kind, String message, Map<String, Object> details) implements Command {}

        /** Add text to the last user message (or a new one after an assistant turn). */
        record AppendUserText(String text) implements Command {}

        /** Add a user message with these blocks. */
        record Observe(List<ContentBlock> blocks) implements Command {}
    }

    /** The outcome of one decision. */
    public record Decision(State state, NextStep next, List<Command> commands) {
        public Decision {
            commands = List.copyOf(commands);
        }
    }

    public static Decision decide(State state, Event event) {
        return switch (event) {
            case Event.Responded responded -> responded(state, responded);
            case Event.Verified verified -> verified(state, verified);
        };
    }

    /** Interpret the stop reason; a cut-off or refused response is never taken as an answer. */
    private static Decision responded(State state, Event.Responded event) {
        ModelResponse response = event.response();
        return switch (response.stopReason()) {
            case MAX_TOKENS -> stop(state, Reason.MAX_TOKENS, "the model's response was cut off at max_tokens ("
                    + state.rules().maxTokens() + "); it was not taken as an answer. Raise maxTokens or ask for shorter output.");
            case REFUSAL -> stop(state, Reason.REFUSAL, "the model refused to continue" + textSuffix(response));
            case MODEL_CONTEXT_WINDOW_EXCEEDED -> stop(state, Reason.CONTEXT_WINDOW_EXCEEDED,
                    "the conversation no longer fits the model's context window; enable a context policy"
                            + " (tool result clearing or compaction) or lower the tool output limit");
            case PAUSE_TURN -> new Decision(state, new NextStep.RunAgain("pause_turn"), List.of());
            default -> response.toolUses().isEmpty() ? answered(state, event.answerText())
                    : new Decision(state, new NextStep.RunAgain("tool_use"), List.of(new Command.RunTools(response.toolUses())));
        };
    }

    private static Decision stop(State state, Reason reason, String message) {
        return new Decision(state, NextStep.Stop.failed(reason, message, ""), List.of());
    }

    private static String textSuffix(ModelResponse response) {
        String text = response.text().strip();
        return text.isEmpty() ? "" : ": " + text;
    }

    /** An empty turn is no answer: the model is asked again, and past the nudges the run ends. */
    private static Decision answered(State state, String text) {
        if (!text.isBlank()) {
            NextStep.Answer answer = new NextStep.Answer(text, null, null);
            return new Decision(state, answer, List.of(new Command.Verify(answer)));
        }
        int empty = state.emptyAnswers() + 1;
        State next = new State(state.rules(), empty, state.verificationFailures());
        if (empty > state.rules().maxEmptyNudges()) {
            String why = "the model ended its turn without an answer, twice; there is nothing to return";
            return new Decision(next, NextStep.Stop.failed(Reason.EMPTY_ANSWER, why, null), List.of());
        }
        String nudge = "[rein] Your last reply was empty. Continue the task: call a tool, or reply with your final answer.";
        return new Decision(next, new NextStep.RunAgain("empty_answer"), List.of(
                new Command.Intervene("empty_answer", nudge, Map.of("empty_replies", empty)), new Command.AppendUserText(nudge)));
    }

    /**
     * Verification: code decides whether a proposed final answer is accepted. A refusal goes back
     * to the model (as the finish call's error result, or as a user message after a text answer).
     */
    private static Decision verified(State state, Event.Verified event) {
        NextStep.Answer answer = event.answer();
        FinishReport report = answer.report();
        if (!event.invalidOutput().isEmpty()) {
            return invalidOutput(state, answer, event.invalidOutput());
        }
        if (event.missing().isEmpty()) {
            Reason reason = report == null ? Reason.COMPLETED : Reason.FINISHED;
            return new Decision(state, new NextStep.Stop(RunStatus.SUCCEEDED, reason, "the run completed", answer.text(), report),
                    List.of());
        }
        int failures = state.verificationFailures() + 1;
        State next = new State(state.rules(), state.emptyAnswers(), failures);
        List<String> missing = event.missing();
        String feedback = "Your answer was not accepted yet. Missing or wrong:\n- " + String.join("\n- ", missing)
                + "\nContinue working on the task, then answer again.";
        Command intervene = new Command.Intervene("verifier", feedback, Map.of("missing", missing, "refusals", failures));
        if (failures >= state.rules().maxVerificationFailures()) {
            return new Decision(next, new NextStep.Stop(RunStatus.FAILED, Reason.VERIFICATION_FAILED, "the answer failed verification "
                    + failures + " times; still missing: " + String.join("; ", missing), answer.text(), report), List.of(intervene));
        }
        ContentBlock refusal = answer.finishCallId() == null ? new TextBlock(feedback)
                : new ToolResultBlock(answer.finishCallId(), feedback, true);
        return new Decision(next, new NextStep.RunAgain("answer_refused"), List.of(intervene, new Command.Observe(List.of(refusal))));
    }

    /** An answer that is not valid output goes back to the model with the validation errors, within the refusals allowed. */
    private static Decision invalidOutput(State state, NextStep.Answer answer, List<String> problems) {
        int failures = state.verificationFailures() + 1;
        State next = new State(state.rules(), state.emptyAnswers(), failures);
        String feedback = "Your final answer is not valid output: it must be one JSON value, and nothing else, that"
                + " validates against the required schema. Problems:\n- " + String.join("\n- ", problems)
                + "\nReply with the corrected JSON only.";
        Command intervene = new Command.Intervene("invalid_output", feedback, Map.of("problems", problems, "refusals", failures));
        if (failures >= state.rules().maxVerificationFailures()) {
            return new Decision(next, new NextStep.Stop(RunStatus.FAILED, Reason.INVALID_OUTPUT, "the final answer was not valid"
                    + " output " + failures + " times: " + String.join("; ", problems), answer.text(), answer.report()),
                    List.of(intervene));
        }
        ContentBlock refusal = answer.finishCallId() == null ? new TextBlock(feedback)
                : new ToolResultBlock(answer.finishCallId(), feedback, true);
        return new Decision(next, new NextStep.RunAgain("invalid_output"), List.of(intervene, new Command.Observe(List.of(refusal))));
    }
}
