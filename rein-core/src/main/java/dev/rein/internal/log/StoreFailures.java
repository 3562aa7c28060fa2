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
     * The failure's message on one line (control characters, line breaks too, as escapes: a database's error can run
     * over several lines), with its cause's type when it has one ("cannot append … (caused by IOException)"); its type,
     * and its cause's message, when it has no message ("IllegalStateException (no message)"). A store that wrapped its
     * cause said what failed in its own words, which may leave out what it must not show (a password the database's
     * message quotes), so the cause's message is not added to them.
     */
    public static String why(Throwable e) {
        String message = e.getMessage();
        boolean silent = message == null || message.isBlank();
        String said = silent ? e.getClass().getSimpleName() + " (no message)" : message;
        return dev.rein.internal.text.Controls.visible(said + causedBy(e), false);
    }

    /**
     * " (caused by IOException)" after a failure's words, with the cause's message when the failure has none
     * (" (caused by IOException: No space left on device)"); empty when there is no cause or the message already says
     * it (a wrapper made with new X(cause)). Not made visible: the caller does that for the whole line.
     */
    static String causedBy(Throwable e) {
        String message = e.getMessage();
        boolean silent = message == null || message.isBlank();
        Throwable cause = e.getCause();
        String causeMessage = cause == null ? null : cause.getMessage();
        boolean causeSilent = causeMessage == null || causeMessage.isBlank();
        if (cause != null && cause != e && (silent || causeSilent || !message.contains(causeMessage))) {
            return " (caused by " + cause.getClass().getSimpleName() + (silent && !causeSilent ? ": " + causeMessage : "") + ")";
        }
        return "";
    }
}
