package dev.rein.internal.log;

/**
 * How a log line says a run listener's failure the run goes on without (a listener throws only to be logged): which
 * listener failed on what of which run, the failure's words on one line, what was lost by it and what to check, as a
 * store's failure is said ({@link StoreFailures}); the stack trace is for debug.
 */
public final class ListenerFailures {
    /** What the user can do about a listener that fails. */
    public static final String WHAT_TO_DO = "check the listener: where it writes (reachable, writable, not full), or its code";
    /** What a listener that failed on an event lost. */
    public static final String MISSED_EVENT = "this listener missed that event (a trace file or export it writes lacks it)";
    /** What a listener that failed on a part of the streamed output lost. */
    public static final String MISSED_STREAM = "this listener missed that part of the live output (the run's trace events"
            + " have all of it)";
    /** What a listener that failed to close may have lost. */
    public static final String MISSED_CLOSE = "what this listener writes may be incomplete (not flushed or not ended)";
    /** How long the failure's words may be on the line: a listener's message can quote a whole response. */
    private static final int LONGEST_WORDS = 500;

    private ListenerFailures() {}

    /**
     * "run listener L failed on WHAT of RUN: WORDS; GOES_ON, but LOST; what to do".
     *
     * @param what   what it failed on ("the model_response event", "streamed text (onTextDelta)"); null for its close
     * @param run    the run as the line names it ("run r1", "cancelled run r1"), its id shown with escapes
     * @param goesOn what was not lost ("the run went on")
     * @param lost   {@link #MISSED_EVENT}, {@link #MISSED_STREAM} or {@link #MISSED_CLOSE}
     */
    public static String line(String listener, String what, String run, String goesOn, String lost, Throwable e) {
        return "run listener " + listener + (what == null ? " failed to close after " : " failed on " + what + " of ") + run
                + ": " + words(e) + "; " + goesOn + ", but " + lost + "; " + WHAT_TO_DO;
    }

    /**
     * The failure's type and message on one line ({@link dev.rein.internal.text.OneLine}: line breaks as spaces, control
     * characters as escapes, a long one cut saying so), with its cause's type when it has one; "(no message)" when it has
     * none, and then its cause's message too, as {@link StoreFailures#why} says it. A cause's message is not added to
     * the failure's own words, which may leave out what the cause's showed.
     */
    public static String words(Throwable e) {
        String message = e.getMessage();
        String said = e.getClass().getSimpleName() + (message == null || message.isBlank() ? " (no message)"
                : ": " + dev.rein.internal.text.OneLine.of(message, LONGEST_WORDS));
        String cause = StoreFailures.causedBy(e); // cut on its own, so a long message does not cut it off
        return cause.isEmpty() ? said : said + " " + dev.rein.internal.text.OneLine.of(cause, LONGEST_WORDS);
    }
}
