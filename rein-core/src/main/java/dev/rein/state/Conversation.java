package dev.rein.state;

import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a run stands as a conversation: which turn it is in (1 for the run as started, one more for
 * each {@code reply}), what the earlier turns used in total, so that the per-turn budget counts
 * from the turn's start while the conversation's budget counts everything, and the person's replies
 * that opened the later turns.
 *
 * @param turn               the current turn, from 1
 * @param stepsBefore        model steps of the earlier turns
 * @param usageBefore        token usage of the earlier turns
 * @param costBefore         cost of the earlier turns in USD
 * @param activeMillisBefore running time of the earlier turns
 * @param replies            the replies that opened turns 2, 3, ..., oldest first, as they entered the
 *                           run (secrets masked); empty for a run in its first turn, and for the
 *                           turns of a run stored before replies were kept
 */
public record Conversation(int turn, int stepsBefore, Usage usageBefore, BigDecimal costBefore, long activeMillisBefore,
                           List<Reply> replies) {
    /** The first turn of a new run. */
    public static final Conversation FIRST = new Conversation(1, 0, Usage.ZERO, BigDecimal.ZERO, 0);

    /**
     * A person's reply and the turn it opened.
     *
     * @param turn the turn the reply opened (2 for the first reply)
     * @param text the reply, secrets masked
     */
    public record Reply(int turn, String text) {
        public Reply {
            Objects.requireNonNull(text, "text");
            if (turn < 2) {
                throw new IllegalArgumentException("a reply opens turn 2 or later, not turn " + turn);
            }
        }
    }

    public Conversation {
        if (turn < 1) {
            throw new IllegalArgumentException("turn must be at least 1, was " + turn);
        }
        usageBefore = usageBefore == null ? Usage.ZERO : usageBefore;
        costBefore = costBefore == null ? BigDecimal.ZERO : costBefore;
        // null: a snapshot stored before replies were kept
        replies = replies == null ? List.of() : List.copyOf(replies);
    }

    /** A conversation without recorded replies (the form before replies were kept). */
    public Conversation(int turn, int stepsBefore, Usage usageBefore, BigDecimal costBefore, long activeMillisBefore) {
        this(turn, stepsBefore, usageBefore, costBefore, activeMillisBefore, List.of());
    }

    /**
     * The next turn after the ended turn of {@code snapshot}: everything it used so far is "before";
     * the earlier replies are kept, and no reply is recorded for the new turn.
     */
    public static Conversation after(RunSnapshot snapshot) {
        return new Conversation(snapshot.conversation().turn() + 1, snapshot.steps(), snapshot.usage(), snapshot.costUsd(),
                snapshot.activeMillis(), snapshot.conversation().replies());
    }

    /** The next turn after the ended turn of {@code snapshot}, opened by {@code reply} (secrets already masked). */
    public static Conversation after(RunSnapshot snapshot, String reply) {
        Conversation next = after(snapshot);
        List<Reply> all = new ArrayList<>(next.replies);
        all.add(new Reply(next.turn, reply));
        return new Conversation(next.turn, next.stepsBefore, next.usageBefore, next.costBefore, next.activeMillisBefore, all);
    }

    /** The reply that opened the current turn, or null (the first turn, or a run stored before replies were kept). */
    public String currentReply() {
        for (Reply r : replies) {
            if (r.turn() == turn) {
                return r.text();
            }
        }
        return null;
    }
}
