package dev.rein.cli;

import dev.rein.run.RunStatus;

/** The process exit codes of the {@code rein} command; part of its contract. */
public final class ExitCodes {
    public static final int SUCCEEDED = 0;
    public static final int FAILED = 1;
    /** A usage or configuration error: nothing was run. */
    public static final int USAGE = 2;
    public static final int STOPPED_BUDGET = 3;
    public static final int WAITING_APPROVAL = 4;
    public static final int CANCELLED = 5;

    private ExitCodes() {}

    /** The exit code for a run that ended (or paused) with {@code status}. */
    public static int of(RunStatus status) {
        return switch (status) {
            case SUCCEEDED -> SUCCEEDED;
            case FAILED -> FAILED;
            case STOPPED_BUDGET -> STOPPED_BUDGET;
            case WAITING_APPROVAL -> WAITING_APPROVAL;
            case CANCELLED -> CANCELLED;
            // A run handed back while still running would be a bug in the loop: report it as a failure.
            case RUNNING -> FAILED;
        };
    }
}
