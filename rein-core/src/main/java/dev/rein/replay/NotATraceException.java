package dev.rein.replay;

import dev.rein.ReinException;

/**
 * The file given as a trace is not a Rein trace: a line is not JSON, or is JSON but no trace event, or the file holds no
 * trace event at all. Its message names the file and the line; {@link #problem()} says which of these it is, so a caller (the CLI) can add what to give
 * instead without reading the message.
 */
public final class NotATraceException extends ReinException {
    /** What is wrong with the line. */
    public enum Problem {
        /** The line is not JSON. */
        NOT_JSON,
        /** The line is JSON but no trace event (not an object, or without a textual type and run_id). */
        NOT_AN_EVENT,
        /**
         * The file is what {@code --json-stream} printed, and events were left out at this line ({@code
         * events_dropped}): the message already says to replay the file {@code --trace} wrote.
         */
        EVENTS_DROPPED,
        /**
         * No line is a trace event: the file is empty (or blank), or holds only {@code --json-stream}'s own lines (its
         * text deltas and result), which the message says. {@link #line()} is 0: no one line is wrong.
         */
        NO_EVENTS
    }

    private final Problem problem;
    private final int line;

    NotATraceException(String message, Problem problem, int line) {
        super(message);
        this.problem = problem;
        this.line = line;
    }

    /** What is wrong with the line. */
    public Problem problem() {
        return problem;
    }

    /** The line (counted from 1) that is not a trace event; 0 for {@link Problem#NO_EVENTS}. */
    public int line() {
        return line;
    }
}
