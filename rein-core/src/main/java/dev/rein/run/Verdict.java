package dev.rein.run;

import java.util.List;
import java.util.Objects;

/** A verifier's decision on a proposed final answer. */
public sealed interface Verdict {
    /** The answer may be accepted. */
    record Pass() implements Verdict {}

    /** The answer is refused; {@code missing} tells the model what to add or fix. */
    record Fail(List<String> missing) implements Verdict {
        public Fail {
            missing = List.copyOf(missing);
            if (missing.isEmpty()) {
                throw new IllegalArgumentException("a failing verdict must say what is missing");
            }
        }
    }

    static Verdict pass() {
        return new Pass();
    }

    static Verdict fail(String... missing) {
        return new Fail(List.of(missing));
    }

    static Verdict fail(List<String> missing) {
        Objects.requireNonNull(missing, "missing");
        return new Fail(missing);
    }
}
