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
}
