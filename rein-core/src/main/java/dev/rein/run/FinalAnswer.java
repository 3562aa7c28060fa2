package dev.rein.run;

import dev.rein.model.Message;
import dev.rein.state.AgentState;
import java.util.List;

/**
 * A final answer proposed by the model, presented to verifiers.
 *
 * @param goal    the run's goal
 * @param answer  the answer text (a {@code finish} call's result, or the last response's text)
 * @param finish  the structured finish report when the model called {@code finish}, else null
 * @param history the conversation so far, as the model sees it: a client-side context edit may
 *                have cleared old results or compacted old turns into a summary
 * @param state   what the run knows apart from the history (facts, attempted actions); context
 *                edits never change it, so it still holds every call made before a compaction
 */
public record FinalAnswer(String goal, String answer, FinishReport finish, List<Message> history, AgentState state) {
    public FinalAnswer {
        state = state != null ? state : AgentState.of(goal);
    }

    /** An answer without a run's state (an empty {@link AgentState} for {@code goal}). */
    public FinalAnswer(String goal, String answer, FinishReport finish, List<Message> history) {
        this(goal, answer, finish, history, null);
    }
}
