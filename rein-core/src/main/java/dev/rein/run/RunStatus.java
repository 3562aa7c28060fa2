package dev.rein.run;

/** The explicit states of a run. Every run ends in a terminal one, with a reason. */
public enum RunStatus {
    RUNNING(false),
    WAITING_APPROVAL(false),
    SUCCEEDED(true),
    FAILED(true),
    STOPPED_BUDGET(true),
    CANCELLED(true);

    private final boolean terminal;

    RunStatus(boolean terminal) {
        this.terminal = terminal;
    }

    /** True when the run is over (WAITING_APPROVAL is a pause, not an end). */
    public boolean terminal() {
        return terminal;
    }

    /**
     * Whether a run that ended in this status with {@code reason} can be continued with a person's reply
     * ({@code Agent.reply}): one that answered (SUCCEEDED), asked for input (FAILED, reason
     * {@code needs_user_input}) or was cancelled (its calls left without a result are answered as cancelled
     * before the reply).
     */
    public boolean takesReply(String reason) {
        return this == SUCCEEDED || this == CANCELLED || this == FAILED && Reasons.NEEDS_USER_INPUT.equals(reason);
    }
}
