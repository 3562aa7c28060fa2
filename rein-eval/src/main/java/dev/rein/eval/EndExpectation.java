package dev.rein.eval;

/**
 * A grader of how the run ended (status, reason, and what the ending implies). A task has at most
 * one; when it declares none, its category's default applies. Made by {@link Expect}.
 */
public interface EndExpectation extends Grader<Environment> {
    /** What is expected, for reports ("succeeded", "failed: needs_user_input"). */
    String describe();
}
