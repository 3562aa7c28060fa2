package dev.rein.run;

import com.fasterxml.jackson.annotation.JsonCreator;
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
    /**
     * A failure of the application's code or of Rein itself: an unchecked exception, a stage or
     * policy breaking its contract; also what {@link #of} answers for a name it does not know.
     */
    INTERNAL_ERROR("internal_error"),
    /**
     * A setting of the agent that cannot work, found during the run (a {@link dev.rein.ConfigurationException}:
     * a money limit and a model a stage chose that has no price); the message says what to change.
     */
    CONFIGURATION_ERROR("configuration_error"),
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

    /**
     * The reason called {@code wire}; {@link #INTERNAL_ERROR} for a name this version does not know (a
     * reason a newer version of Rein wrote into a result, a snapshot or a trace), so that reading it never
     * fails: the records that hold a reason as a string ({@code RunResult.reason()}, the snapshot's, the
     * trace's) keep the name as written, and {@link #known} tells whether it is one of these.
     */
    @JsonCreator
    public static Reason of(String wire) {
        return known(wire) ? BY_WIRE.get(wire) : INTERNAL_ERROR;
    }

    /** True when {@code wire} names one of these reasons. */
    public static boolean known(String wire) {
        return wire != null && BY_WIRE.containsKey(wire);
    }

    private static final java.util.Map<String, Reason> BY_WIRE = java.util.Arrays.stream(values())
            .collect(java.util.stream.Collectors.toUnmodifiableMap(Reason::wire, r -> r));
}
