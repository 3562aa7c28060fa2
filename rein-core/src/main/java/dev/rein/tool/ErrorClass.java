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
    CANCELLED(false);

    private final boolean retryable;

    ErrorClass(boolean retryable) {
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
