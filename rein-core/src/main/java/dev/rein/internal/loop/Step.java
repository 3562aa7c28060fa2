package dev.rein.internal.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.budget.BudgetKind;
import dev.rein.model.ContentBlock;
import dev.rein.model.ModelResponse;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import java.util.List;
import java.util.Map;

/**
 * The loop's decisions as a function: given the immutable {@link State} and what just happened
 * (an {@link Event}), the next state, the {@link NextStep} and the {@link Command}s the driver
 * executes. No threads, no clock, no I/O: a driver (local threads today, a workflow engine later)
 * performs the effects and feeds their results back as events.
 *
 * <p>One step of the local driver, as events and the commands they lead to:
 * {@code Started} (a resumed step's open calls → {@code RunTools}) · {@code BudgetObserved}
 * (within budget → {@code CallModel}; out of time → stop; out of steps, tokens or money →
 * {@code Summarize}) · {@code Summarized} → stop · {@code ContextMeasured} (over a trigger →
 * {@code ClearToolResults} or {@code Compact}) · {@code Responded} → {@code RunTools} or
 * {@code Verify} · {@code ToolsProposed} → {@code Checkpoint} then {@code CheckFinish} or
 * {@code ExecuteTools} · {@code FinishChecked} → answer, handoff, stop or {@code RefuseFinish} ·
 * {@code FinishRefused} → the refusal observed (counted as invalid output), or stop past the refusals allowed ·
 * {@code ToolsAnswered} → {@code Observe} + {@code Checkpoint}, or stop when stalled ·
 * {@code ToolsPaused} → interrupt (wait for approval) · {@code Verified} → stop or refusal.
 * The terminal {@link NextStep}s ({@code Stop}, {@code Handoff}, {@code Interrupt}) are the
 * driver's "finish" and "wait for approval".
 */
public final class Step {
    private Step() {}

    /**
     * The limits the decisions apply.
     *
     * @param finishTool whether a lone {@code finish} call ends the run (the agent offers the finish tool)
     */
    public record Rules(int maxTokens, int maxVerificationFailures, int maxEmptyNudges, boolean finishTool) {
        public Rules(int maxTokens, int maxVerificationFailures, int maxEmptyNudges) {
            this(maxTokens, maxVerificationFailures, maxEmptyNudges, false);
        }
    }

    /** What the decisions remember between events; replaced, never changed, by each decision. */
    public record State(Rules rules, int emptyAnswers, int verificationFailures) {
        public static State start(Rules rules, int verificationFailures) {
            return new State(rules, 0, verificationFailures);
        }
    }

    /** The name of the loop's own finish tool. */
    public static final String FINISH = "finish";

    /** What just happened. */
    public sealed interface Event {
        /**
         * The model answered; {@code answerText} is the text of its turns since the last user turn;
         * {@code outputLimitCut}: the request's max_tokens was lowered to what an output token limit
         * left or the money left buys, and the response was cut off there (the limit ran out, not the
         * agent's max_tokens).
         */
        record Responded(ModelResponse response, String answerText, boolean outputLimitCut) implements Event {
            public Responded(ModelResponse response, String answerText) {
                this(response, answerText, false);
            }
        }

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

        /** The run (re)started; {@code unanswered}: the calls of its last response that have no results yet. */
        record Started(List<ToolUseBlock> unanswered) implements Event {
            public Started {
                unanswered = List.copyOf(unanswered);
            }
        }

        /**
         * The driver read the budget before a model step: {@code exhausted} is the budget that ran
         * out (null when all hold) and {@code why} describes it.
         */
        record BudgetObserved(BudgetKind exhausted, String why) implements Event {}

        /**
         * The final summary after a budget ran out: its response, or why the call failed
         * ({@code failure}), or neither when no call was made ({@code why} then says why);
         * {@code knownSoFar} is what the run knows without the model.
         */
        record Summarized(BudgetKind kind, String why, ModelResponse summary, String failure, String knownSoFar)
                implements Event {}

        /**
         * The request about to be sent measured {@code tokens}; {@code clearingTrigger} and
         * {@code compactionTrigger} are the client-side policies' triggers (0 when that policy is off),
         * {@code cleared}: tool results were cleared already in this step.
         */
        record ContextMeasured(long tokens, int clearingTrigger, int compactionTrigger, boolean cleared) implements Event {}

        /** The model proposed these tool calls. */
        record ToolsProposed(List<ToolUseBlock> uses) implements Event {
            public ToolsProposed {
                uses = List.copyOf(uses);
            }
        }

        /**
         * A lone finish call was checked: its report (null when invalid) and the schema
         * {@code problems} of its arguments.
         */
        record FinishChecked(ToolUseBlock use, FinishReport report, List<String> problems) implements Event {
            public FinishChecked {
                problems = List.copyOf(problems);
            }
        }

        /**
         * An invalid finish call went through the tool chain and was answered with this error result;
         * {@code problems}: why its arguments fail the finish tool's schema.
         */
        record FinishRefused(ToolResultBlock refusal, List<String> problems) implements Event {
            public FinishRefused {
                problems = List.copyOf(problems);
            }
        }

        /**
         * The guarded tool step answered every call: the next user message's content, and why the
         * stall guard stops the run ({@code stalled}, null when it does not).
         */
        record ToolsAnswered(List<ContentBlock> observation, String stalled) implements Event {
            public ToolsAnswered {
                observation = List.copyOf(observation);
            }
        }

        /** These calls wait for a person's decision (approval). */
        record ToolsPaused(List<String> callIds) implements Event {
            public ToolsPaused {
                callIds = List.copyOf(callIds);
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

        /** Call the model for the next step (counted), then decide on its response. */
        record CallModel() implements Command {}

        /** One last model call, tools off, for a summary of what is known ({@code Summarized} follows). */
        record Summarize(BudgetKind kind, String why) implements Command {}

        /** Save the run as it is now. */
        record Checkpoint() implements Command {}

        /** Check the arguments of a lone finish call ({@code FinishChecked} follows). */
        record CheckFinish(ToolUseBlock use) implements Command {}

        /**
         * Answer an invalid finish call through the tool chain, so its refusal is traced like any error
         * ({@code FinishRefused} follows, with these {@code problems}).
         */
        record RefuseFinish(ToolUseBlock use, List<String> problems) implements Command {
            public RefuseFinish {
                problems = List.copyOf(problems);
            }
        }

        /** Record the finish call's open questions and hypotheses in the agent state. */
        record NoteHandoff(JsonNode arguments) implements Command {}

        /** The guarded tool step: stall guard, tool chain, reflection ({@code ToolsAnswered}/{@code ToolsPaused} follow). */
        record ExecuteTools(List<ToolUseBlock> uses) implements Command {}

        /** Clear old tool results from the history about to be sent ({@code ContextMeasured} follows). */
        record ClearToolResults() implements Command {}

        /** Replace the older history with a summary (the step's model call follows). */
        record Compact(long tokens) implements Command {}
    }

    /** The outcome of one decision. */
    public record Decision(State state, NextStep next, List<Command> commands) {
        public Decision {
            commands = List.copyOf(commands);
        }
    }

    public static Decision decide(State state, Event event) {
        return switch (event) {
            case Event.Responded responded -> AnswerDecisions.responded(state, responded);
            case Event.Verified verified -> AnswerDecisions.verified(state, verified);
            case Event.Started started -> ActDecisions.started(state, started);
            case Event.BudgetObserved budget -> BudgetDecisions.observed(state, budget);
            case Event.Summarized summarized -> BudgetDecisions.summarized(state, summarized);
            case Event.ContextMeasured measured -> ContextDecisions.measured(state, measured);
            case Event.ToolsProposed proposed -> ActDecisions.proposed(state, proposed);
            case Event.FinishChecked finish -> ActDecisions.finishChecked(state, finish);
            case Event.FinishRefused refused -> ActDecisions.finishRefused(state, refused);
            case Event.ToolsAnswered answered -> ActDecisions.answered(state, answered);
            case Event.ToolsPaused paused -> new Decision(state, new NextStep.Interrupt(paused.callIds()), List.of());
        };
    }
}
