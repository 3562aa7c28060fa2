package dev.rein.run;

/** The machine-readable reasons a run ends or pauses with, as strings: the wire names of {@link Reason}. */
public final class Reasons {
    /** The model answered without calling a tool, and the answer passed verification. */
    public static final String COMPLETED = "completed";
    /** The model called {@code finish} with status completed, and it passed verification. */
    public static final String FINISHED = "finished";
    /** The model called {@code finish} with status failed. */
    public static final String AGENT_FAILED = "agent_failed";
    /** The model called {@code finish} with status needs_user_input: a human must answer. */
    public static final String NEEDS_USER_INPUT = "needs_user_input";
    public static final String MAX_TOKENS = "max_tokens";
    public static final String REFUSAL = "refusal";
    public static final String CONTEXT_WINDOW_EXCEEDED = "context_window_exceeded";
    /** The model ended its turn with no text and no tool call, again after being asked once more. */
    public static final String EMPTY_ANSWER = "empty_answer";
    public static final String VERIFICATION_FAILED = "verification_failed";
    /** The final answer was not JSON valid against the required output schema, after the repairs allowed. */
    public static final String INVALID_OUTPUT = "invalid_output";
    public static final String PROVIDER_ERROR = "provider_error";
    public static final String CANCELLED = "cancelled";
    public static final String STALLED = "stalled";
    public static final String INTERNAL_ERROR = "internal_error";
    /** A setting of the agent that cannot work, found during the run; see {@link Reason#CONFIGURATION_ERROR}. */
    public static final String CONFIGURATION_ERROR = "configuration_error";
    /** The run paused: a proposed action waits for a person's decision. */
    public static final String APPROVAL_REQUIRED = "approval_required";
    /** The run continues after a pause or a stopped process. */
    public static final String RESUMED = "resumed";
    /** The run store could not save the run's state, so it stopped rather than go on unrecorded. */
    public static final String STORE_ERROR = "store_error";
    /** Another process continued this run; this one stopped. */
    public static final String STORE_CONFLICT = "store_conflict";

    private Reasons() {}
}
