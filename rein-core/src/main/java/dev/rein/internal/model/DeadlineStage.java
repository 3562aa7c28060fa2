package dev.rein.internal.model;

import dev.rein.budget.BudgetKind;
import dev.rein.budget.BudgetMeter;
import dev.rein.internal.concurrent.Timed;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import java.time.Duration;

/**
 * Never lets one attempt (or a token count) run past the run's deadline. For a model that
 * {@linkplain dev.rein.model.Model#abortsOnInterrupt() aborts on interrupt} the rest of the chain
 * runs on the run's own thread, which a shared scheduler interrupts when time is up (no thread per
 * call); for any other model it runs on a virtual thread of its own that the run stops waiting for
 * at the deadline, so a model that ignores interrupts cannot hold the run past it.
 */
public final class DeadlineStage implements BuiltInStage {
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
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInStage). */
    private final class Bound extends BuiltInStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException {
            if (!call.model().abortsOnInterrupt()) {
                return within(call, () -> next.proceed(call));
            }
            // On the run's own thread the rest of the chain is called from here, not through within's lambda and
            // Timed.runHere: a run waiting for its model parks with this stack, and at thousands of runs in flight every
            // frame of it is copied to the heap at each park (three frames fewer; docs/performance-log.md, 2026-12-07).
            Duration remaining = remaining();
            Timed.Outcome<ModelResponse> outcome;
            try {
                Timed.Here here = Timed.here(remaining); // this and the try below repeat Timed.runHere: change them together
                try {
                    outcome = new Timed.Outcome.Done<>(next.proceed(call));
                } catch (Exception | Error e) {
                    outcome = new Timed.Outcome.Failed<>(e);
                }
                outcome = here.end(outcome);
            } finally {
                endOfAttempt.run();
            }
            return result(outcome);
        }

        @Override
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
            return within(call, () -> next.proceedCount(call));
        }
    }

    private <T> T within(ModelCall call, java.util.concurrent.Callable<T> rest) throws ModelException, InterruptedException {
        Duration remaining = remaining();
        Timed.Outcome<T> outcome;
        try {
            outcome = call.model().abortsOnInterrupt() ? Timed.runHere(remaining, rest) : Timed.run(threadName, remaining, rest);
        } finally {
            endOfAttempt.run();
        }
        return result(outcome);
    }

    /** The time left before the run's deadline. @throws ModelDeadlineException when none is */
    private Duration remaining() throws ModelDeadlineException {
        Duration remaining = meter.remaining();
        if (remaining.isNegative() || remaining.isZero()) {
            throw deadline();
        }
        return remaining;
    }

    private <T> T result(Timed.Outcome<T> outcome) throws ModelException, InterruptedException {
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
