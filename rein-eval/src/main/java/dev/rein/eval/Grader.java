package dev.rein.eval;

/**
 * Judges one finished trial: its final environment state, its run result and its trajectory.
 * Graders must be side-effect free and must not throw for anything the agent did (a throwing
 * grader is reported as an infrastructure error of the harness, not as an agent failure).
 * Ready-made graders are in {@link Graders} and {@link Expect}.
 */
@FunctionalInterface
public interface Grader<E extends Environment> {
    Finding grade(Trial<? extends E> trial);
}
