package dev.rein.run;

import dev.rein.model.Message;
import java.util.List;
import java.util.Objects;

/**
 * A final answer proposed by the model, presented to verifiers.
 *
 * @param goal    the run's goal
 * @param answer  the answer text (a {@code finish} call's result, or the last response's text)
 * @param finish  the structured finish report when the model called {@code finish}, else null
 * @param history the conversation so far, as the model sees it: a client-side context edit may
 *                have cleared old results or compacted old turns into a summary
 * @param calls   every tool call the run made, in order; context edits never change it, so it
 *                still holds the calls made before a compaction removed their turns
 */
public record FinalAnswer(String goal, String answer, FinishReport finish, List<Message> history, List<Call> calls) {
    /**
     * One tool call the run made (as the run's agent state records it): the step, the call id, the
     * tool and whether its result was an error. A plain record of this package, so that the run
     * vocabulary stays a leaf package that depends on no other part of Rein but the model SPI.
     */
    public record Call(int step, String callId, String tool, boolean isError) {
        public Call {
            Objects.requireNonNull(tool, "tool");
        }
    }

    public FinalAnswer {
        calls = calls == null ? List.of() : List.copyOf(calls);
    }

    /** An answer without the run's record of calls (only the history shows what was called). */
    public FinalAnswer(String goal, String answer, FinishReport finish, List<Message> history) {
        this(goal, answer, finish, history, List.of());
    }
}
