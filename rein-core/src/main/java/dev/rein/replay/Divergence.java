package dev.rein.replay;

/**
 * Where a replayed run first behaved otherwise than its recording.
 *
 * @param step        the step at which behaviour changed (where a guard now acts, or whose call differs)
 * @param purpose     the purpose of the model call that differed ("step", "final_summary", ...)
 * @param description what changed, readable, e.g. "step 7: the stall guard (exact_repeat) now blocks `search`"
 * @param requestDiff the first difference in the request: its path and both values; empty when the replay made a
 *                    model call more, a call of another purpose than the recorded one, or ended before one,
 *                    rather than sending a different request
 */
public record Divergence(int step, String purpose, String description, String requestDiff) {
    @Override
    public String toString() {
        return description;
    }
}
