package dev.rein.tool;

/** Why a tool result is an error, and whether trying again can help. */
public enum ErrorClass {
    NONE(false),
    UNKNOWN_TOOL(false),
    INVALID_ARGUMENTS(false),
    PERMISSION_DENIED(false),
    LIMIT_REACHED(false),
    EXECUTION_FAILED(false),
    TRANSIENT(true),
    TIMEOUT(true),
    REJECTED(false),
    INTERVENTION(false),
    CANCELLED(false),
    /** The tool returned data without a source while strict provenance is on. */
    MISSING_SOURCE(false),
    /**
     * Not an observation: the call waits for a person's decision. The loop never shows such a
     * result to the model; it pauses the run instead.
     */
    AWAITING_APPROVAL(false);

    private final boolean retryable;

    ErrorClass(boolean retryable) {
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
