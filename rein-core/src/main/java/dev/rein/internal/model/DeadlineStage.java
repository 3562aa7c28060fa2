package dev.rein.internal.model;

import dev.rein.budget.BudgetKind;
import dev.rein.budget.BudgetMeter;
import dev.rein.internal.concurrent.Timed;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import java.time.Duration;

/**
 * Never lets one attempt (or a token count) run past the run's deadline. For a model that
 * {@linkplain dev.rein.model.Model#abortsOnInterrupt() aborts on interrupt} the rest of the chain
 * runs on the run's own thread, which a shared scheduler interrupts when time is up (no thread per
 * call); for any other model it runs on a virtual thread of its own that the run stops waiting for
 * at the deadline, so a model that ignores interrupts cannot hold the run past it.
 */
public final class DeadlineStage implements ModelInterceptor {
    private final BudgetMeter meter;
    private final String threadName;
    private final Runnable endOfAttempt;

    /** @param endOfAttempt runs when an attempt ends, however it ends (the run releases held-back stream output) */
    public DeadlineStage(BudgetMeter meter, String runId, Runnable endOfAttempt) {
        this.meter = meter;
        this.threadName = "rein-model-" + runId;
        this.endOfAttempt = endOfAttempt;
    }

    @Override
    public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        return within(call, () -> chain.proceed(call));
    }

    @Override
    public long interceptCount(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        return within(call, () -> chain.proceedCount(call));
    }

    private <T> T within(ModelCall call, java.util.concurrent.Callable<T> rest) throws ModelException, InterruptedException {
        Duration remaining = meter.remaining();
        if (remaining.isNegative() || remaining.isZero()) {
            throw deadline();
        }
        Timed.Outcome<T> outcome;
        try {
            outcome = call.model().abortsOnInterrupt() ? Timed.runHere(remaining, rest) : Timed.run(threadName, remaining, rest);
        } finally {
            endOfAttempt.run();
        }
        return switch (outcome) {
            case Timed.Outcome.Done<T> done -> done.value();
            case Timed.Outcome.TimedOut<T> ignored -> throw deadline();
            case Timed.Outcome.Failed<T> failed -> throw rethrow(failed.cause());
        };
    }

    private static ModelException rethrow(Throwable cause) throws InterruptedException {
        if (cause instanceof ModelException me) {
            return me;
        }
        if (cause instanceof InterruptedException ie) {
            throw ie;
        }
        if (cause instanceof RuntimeException re) {
            throw re;
        }
        if (cause instanceof Error err) {
            throw err;
        }
        return new ModelException(ModelException.Kind.OTHER, 0,
                "the model client failed with " + cause.getClass().getSimpleName() + ": " + cause.getMessage(), false, null, null, cause);
    }

    private ModelDeadlineException deadline() {
        return new ModelDeadlineException(meter.describe(BudgetKind.DEADLINE) + " while waiting for the model");
    }

    @Override
    public String toString() {
        return "deadline";
    }
}
