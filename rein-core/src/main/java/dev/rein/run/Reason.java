package dev.rein.run;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * Why a run ended or paused: the closed set, each with the stable wire name that results, the
 * JSON output and the trace carry ({@link Reasons} holds the same names as string constants).
 */
public enum Reason {
    COMPLETED("completed"),
    FINISHED("finished"),
    AGENT_FAILED("agent_failed"),
    NEEDS_USER_INPUT("needs_user_input"),
    MAX_TOKENS("max_tokens"),
    REFUSAL("refusal"),
    CONTEXT_WINDOW_EXCEEDED("context_window_exceeded"),
    EMPTY_ANSWER("empty_answer"),
    VERIFICATION_FAILED("verification_failed"),
    /**
     * The final answer did not validate against the required output schema, or the finish call's
     * arguments against the finish tool's, after the repairs allowed.
     */
    INVALID_OUTPUT("invalid_output"),
    PROVIDER_ERROR("provider_error"),
    CANCELLED("cancelled"),
    STALLED("stalled"),
    INTERNAL_ERROR("internal_error"),
    APPROVAL_REQUIRED("approval_required"),
    RESUMED("resumed"),
    STORE_ERROR("store_error"),
    STORE_CONFLICT("store_conflict"),
    /** The step budget ran out. */
    MAX_STEPS("max_steps"),
    /** The money budget ran out. */
    MAX_COST("max_cost"),
    /** The time budget ran out. */
    DEADLINE("deadline"),
    MAX_INPUT_TOKENS("max_input_tokens"),
    MAX_OUTPUT_TOKENS("max_output_tokens");

    private final String wire;

    Reason(String wire) {
        this.wire = wire;
    }

    /** The stable name, e.g. {@code max_steps}. */
    @JsonValue
    public String wire() {
        return wire;
    }

    /** The reason called {@code wire}. */
    public static Reason of(String wire) {
        for (Reason r : values()) {
            if (r.wire.equals(wire)) {
                return r;
            }
        }
        throw new IllegalArgumentException("not a run reason: " + wire);
    }
}
