package dev.rein.run;

import java.util.List;
import java.util.Objects;

/**
 * What happens next in a run, decided after each event (a model response, a verification, the
 * tool step): the closed set the loop handles with one exhaustive switch.
 */
public sealed interface NextStep {

    /** The model proposed a final answer; verification decides whether it is accepted. */
    record Answer(String text, FinishReport report, String finishCallId) implements NextStep {
        public Answer {
            Objects.requireNonNull(text, "text");
        }
    }

    /** Call the model again (after tool results, a paused turn, a nudge or a refused answer). */
    record RunAgain(String why) implements NextStep {}

    /** Pause: these calls wait for a person's decision; the run resumes once each is decided. */
    record Interrupt(List<String> awaitingCallIds) implements NextStep {
        public Interrupt {
            awaitingCallIds = List.copyOf(awaitingCallIds);
        }
    }

    /** The agent hands the task to a person with what it knows ({@code finish} with {@code needs_user_input}). */
    record Handoff(String summary, String result, FinishReport report) implements NextStep {}

    /**
     * The run ends with {@code status} and {@code reason}. A null {@code answer} means "what the run
     * knows so far", which the driver assembles from the history.
     */
    record Stop(RunStatus status, Reason reason, String message, String answer, FinishReport report) implements NextStep {
        public Stop {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
        }

        public static Stop failed(Reason reason, String message, String answer) {
            return new Stop(RunStatus.FAILED, reason, message, answer, null);
        }
    }
}
