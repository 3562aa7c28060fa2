package dev.rein.state;

import dev.rein.model.Usage;
import java.math.BigDecimal;

/**
 * Where a run stands as a conversation: which turn it is in (1 for the run as started, one more for
 * each {@code reply}) and what the earlier turns used in total, so that the per-turn budget counts
 * from the turn's start while the conversation's budget counts everything.
 *
 * @param turn               the current turn, from 1
 * @param stepsBefore        model steps of the earlier turns
 * @param usageBefore        token usage of the earlier turns
 * @param costBefore         cost of the earlier turns in USD
 * @param activeMillisBefore running time of the earlier turns
 */
public record Conversation(int turn, int stepsBefore, Usage usageBefore, BigDecimal costBefore, long activeMillisBefore) {
    /** The first turn of a new run. */
    public static final Conversation FIRST = new Conversation(1, 0, Usage.ZERO, BigDecimal.ZERO, 0);

    public Conversation {
        if (turn < 1) {
            throw new IllegalArgumentException("turn must be at least 1, was " + turn);
        }
        usageBefore = usageBefore == null ? Usage.ZERO : usageBefore;
        costBefore = costBefore == null ? BigDecimal.ZERO : costBefore;
    }

    /** The next turn after the ended turn of {@code snapshot}: everything it used so far is "before". */
    public static Conversation after(RunSnapshot snapshot) {
        return new Conversation(snapshot.conversation().turn() + 1, snapshot.steps(), snapshot.usage(), snapshot.costUsd(),
                snapshot.activeMillis());
    }
}
