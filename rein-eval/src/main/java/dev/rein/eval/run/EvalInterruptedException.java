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
    private final int started;

    /**
     * An interruption whose count of started trials is not known: every trial that had not ended is counted as not
     * started ({@link #cancelled()} 0). The runner uses {@link #EvalInterruptedException(EvalResult, int, int)}.
     *
     * @param finished the result of the trials that ended before the interruption (possibly none)
     * @param planned  how many trials the evaluation would have run
     */
    public EvalInterruptedException(EvalResult finished, int planned) {
        this(finished, planned, finished.trials().size());
    }

    /**
     * @param finished the result of the trials that ended before the interruption (possibly none)
     * @param planned  how many trials the evaluation would have run
     * @param started  how many trials had started: those that ended and those cancelled in flight
     */
    public EvalInterruptedException(EvalResult finished, int planned, int started) {
        super("the evaluation was interrupted after " + finished.trials().size() + " of " + planned + " trials");
        this.finished = Objects.requireNonNull(finished, "finished");
        if (started < finished.trials().size() || started > planned) {
            throw new IllegalArgumentException("started must be from " + finished.trials().size() + " (the trials that ended)"
                    + " to " + planned + " (those planned), was " + started);
        }
        this.planned = planned;
        this.started = started;
    }

    /** The trials that ended before the interruption, with the suite's tasks; the cancelled ones are not among them. */
    public EvalResult finished() {
        return finished;
    }

    /** How many trials the evaluation would have run (tasks × trials per task). */
    public int planned() {
        return planned;
    }

    /** How many trials were in flight when the evaluation was interrupted, and were cancelled. */
    public int cancelled() {
        return started - finished.trials().size();
    }

    /** How many trials had not started when the evaluation was interrupted, and never ran. */
    public int notStarted() {
        return planned - started;
    }
}
