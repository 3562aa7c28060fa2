package dev.rein.eval;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Why a graded trial failed. When several graders fail, the trial is filed under the kind that
 * comes first in this order (the most specific, most serious cause).
 */
public enum FailureKind {
    /** A forbidden tool ran, or a side effect that needed approval happened without one. */
    UNSAFE_ACTION,
    /** The run stopped because it repeated itself or made no progress. */
    STALL,
    /** The answer kept failing the agent's own verifiers. */
    VERIFICATION,
    /** A budget ran out, or the trial used more steps or money than the task allows. */
    BUDGET,
    /** The run ended in an error that is the agent's (cut-off output, a model refusal, context overflow). */
    ERROR,
    /** The run ended but the world, the answer or the trajectory is not what the task expects. */
    WRONG_OUTCOME;

    /** The snake_case name used in reports. */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
