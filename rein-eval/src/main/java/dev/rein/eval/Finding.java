package dev.rein.eval;

import java.util.Objects;

/**
 * One grader's verdict on a trial.
 *
 * @param grader  the grader's name ("must_call", "outcome:order_reshipped")
 * @param passed  whether the check held
 * @param kind    the failure kind when it did not (null when passed)
 * @param message what was checked and, on failure, what was seen instead
 */
public record Finding(String grader, boolean passed, FailureKind kind, String message) {
    public Finding {
        Objects.requireNonNull(grader, "grader");
        Objects.requireNonNull(message, "message");
        if (!passed && kind == null) {
            throw new IllegalArgumentException("a failed finding needs a failure kind");
        }
        if (passed) {
            kind = null;
        }
    }

    public static Finding pass(String grader, String message) {
        return new Finding(grader, true, null, message);
    }

    public static Finding fail(String grader, FailureKind kind, String message) {
        return new Finding(grader, false, kind, message);
    }

    /** Passes or fails with the same message. */
    public static Finding of(String grader, boolean passed, FailureKind kind, String message) {
        return new Finding(grader, passed, passed ? null : kind, message);
    }
}
