package dev.rein.internal.log;

/**
 * How a log line says a run store's failure the run goes on without (a trace event it could not keep): the store's own
 * words and what the user can do, as one line at warn; the stack trace is for debug, since a user reads these lines
 * (the CLI shows warnings on stderr) and a class name with a stack trace says neither what failed nor what to do.
 */
public final class StoreFailures {
    /** What the user can do about a store that cannot keep events. */
    public static final String WHAT_TO_DO = "check that the store can be written to (reachable, not locked by another process,"
            + " not full)";

    private StoreFailures() {}

    /**
     * The failure's message, with its cause's when that adds something ("cannot append … (caused by IOException: database
     * is locked)"); its type when it has no message ("IllegalStateException (no message)").
     */
    public static String why(Throwable e) {
        String said = words(e);
        Throwable cause = e.getCause();
        String causeMessage = cause == null ? null : cause.getMessage();
        boolean blank = causeMessage == null || causeMessage.isBlank();
        // a wrapper made with new X(cause) repeats the cause's words already
        if (cause != null && cause != e && (blank || !said.contains(causeMessage))) {
            said += " (caused by " + cause.getClass().getSimpleName() + (blank ? "" : ": " + causeMessage) + ")";
        }
        return said;
    }

    private static String words(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() + " (no message)" : message;
    }
}
