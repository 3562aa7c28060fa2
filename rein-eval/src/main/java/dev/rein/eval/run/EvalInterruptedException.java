package dev.rein.eval.run;

import java.util.Objects;

/**
 * {@link EvalRunner#run} was interrupted (Ctrl-C in {@code rein eval}): the trials in flight were cancelled, and
 * {@link #finished()} holds the outcomes of the trials that had ended before, so a caller can still report them
 * rather than lose them. Its metrics cover those trials only.
 */
public final class EvalInterruptedException extends InterruptedException {
    private final transient EvalResult finished;
    private final int planned;

    /**
     * @param finished the result of the trials that ended before the interruption (possibly none)
     * @param planned  how many trials the evaluation would have run
     */
    public EvalInterruptedException(EvalResult finished, int planned) {
        super("the evaluation was interrupted after " + finished.trials().size() + " of " + planned + " trials");
        this.finished = Objects.requireNonNull(finished, "finished");
        this.planned = planned;
    }

    /** The trials that ended before the interruption, with the suite's tasks; the cancelled ones are not among them. */
    public EvalResult finished() {
        return finished;
    }

    /** How many trials the evaluation would have run (tasks × trials per task). */
    public int planned() {
        return planned;
    }
}
