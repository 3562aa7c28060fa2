package dev.rein.context;

/**
 * Whether each model request carries the run's working state ({@link dev.rein.state.AgentState}:
 * goal, confirmed facts with their sources, hypotheses, open questions, attempted actions, steps
 * used) as a delimited {@code <rein_state>} block at the end of the last user turn (at the end of its last
 * tool result's content when it ends with one: text right after tool results can make Claude end its turn
 * empty, as Anthropic's "Handling stop reasons" says), and how much of the conversation goes with it. With the state in the prompt, old turns can be left out without the
 * run forgetting what it established: the facts and their sources are in the block.
 */
public sealed interface StateInPrompt {
    /** No state block; the whole history is sent (the default). */
    StateInPrompt OFF = new Off();
    /** The state block with the whole history. */
    StateInPrompt STATE_ONLY = new StateOnly();

    /** The state block with the goal and only the last {@code turns} model turns and their results. */
    static StateInPrompt withRecentTurns(int turns) {
        return new StateAndRecentTurns(turns);
    }

    record Off() implements StateInPrompt {}

    record StateOnly() implements StateInPrompt {}

    /** @param turns how many of the latest assistant turns (with what answered them) are sent, at least 1 */
    record StateAndRecentTurns(int turns) implements StateInPrompt {
        public StateAndRecentTurns {
            if (turns < 1) {
                throw new IllegalArgumentException("recent turns must be at least 1, was " + turns
                        + "; use StateInPrompt.STATE_ONLY to send the whole history");
            }
        }
    }
}
