package dev.rein.run;

import dev.rein.ReinException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A verifier's decision on a proposed final answer. */
public sealed interface Verdict {
    /** The answer may be accepted. */
    record Pass() implements Verdict {}

    /**
     * The answer is refused; {@code missing} tells the model what to add or fix, one non-blank reason per
     * entry (a {@link ReinException} otherwise: an empty reason would refuse the answer without saying why).
     */
    record Fail(List<String> missing) implements Verdict {
        public Fail {
            requireReasons(missing);
            // checked one by one so that a null or blank reason is named by its position, not by List.copyOf's NPE
            List<String> reasons = new ArrayList<>(missing.size());
            int i = 0;
            for (String reason : missing) { // not get(i): one pass for a LinkedList too
                if (reason == null || reason.isBlank()) {
                    throw new ReinException("reason " + (i + 1) + " of a failing verdict is "
                            + (reason == null ? "null" : "empty") + ": the model is told each reason to fix its"
                            + " answer, so say what the answer lacks or gets wrong, e.g. Verdict.fail(\"the shipping date\")");
                }
                reasons.add(reason);
                i++;
            }
            missing = List.copyOf(reasons);
            if (missing.isEmpty()) {
                throw new ReinException("a failing verdict must say what is missing: give at least one reason,"
                        + " e.g. Verdict.fail(\"the shipping date\"), or return Verdict.pass()");
            }
        }
    }

    /** Accepts the answer. */
    static Verdict pass() {
        return new Pass();
    }

    /** Refuses the answer for these reasons; each must say something (see {@link Fail}). */
    static Verdict fail(String... missing) {
        requireReasons(missing);
        return new Fail(Arrays.asList(missing));
    }

    /** Refuses the answer for these reasons; each must say something (see {@link Fail}). */
    static Verdict fail(List<String> missing) {
        return new Fail(missing);
    }

    /** Refuses no reasons at all (null), as the record refuses an empty list: the model must be told what to fix. */
    private static void requireReasons(Object missing) {
        if (missing == null) {
            throw new ReinException("a failing verdict was given no reasons (null): say what the answer lacks or gets"
                    + " wrong, e.g. Verdict.fail(\"the shipping date\"), or return Verdict.pass()");
        }
    }
}
