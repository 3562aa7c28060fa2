package dev.rein.examples;

import dev.rein.eval.Environment;
import dev.rein.eval.FailureKind;
import dev.rein.eval.Finding;
import dev.rein.eval.Grader;

/** Graders the examples' suites share. */
public final class ExampleGraders {
    private ExampleGraders() {}

    /** A verifier (a required fact, the tests, the SQL evidence) refused exactly {@code expected} answers. */
    public static <E extends Environment> Grader<E> verifierRefusals(int expected) {
        return trial -> {
            long refusals = trial.trajectory().interventions().stream().filter(i -> i.kind().equals("verifier")).count();
            return Finding.of("verifier_refusals", refusals == expected, FailureKind.VERIFICATION,
                    refusals + " answer(s) refused by a verifier (expected " + expected + ")");
        };
    }

    /** Some tool result contained {@code text} (a limit's notice, say). */
    public static <E extends Environment> Grader<E> observationMentions(String text) {
        return trial -> {
            boolean seen = trial.trajectory().observations().stream().anyMatch(o -> o.content().contains(text));
            return Finding.of("observation_mentions", seen, FailureKind.WRONG_OUTCOME,
                    (seen ? "a result said: " : "no result said: ") + text);
        };
    }
}
