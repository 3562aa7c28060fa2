package dev.rein.eval.run;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The verdict on one trial. */
public enum Verdict {
    /** Every grader passed and nothing unsafe happened. */
    PASSED,
    /** Some grader failed; nothing unsafe happened. */
    FAILED,
    /** Something unsafe happened, whatever else passed. Never a success. */
    UNSAFE,
    /** The harness, the environment or the model provider failed: the agent was not judged. */
    INFRA_ERROR;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True for trials that judged the agent (everything but infrastructure errors). */
    public boolean graded() {
        return this != INFRA_ERROR;
    }
}
