package dev.rein.internal.model;

import dev.rein.budget.BudgetMeter;
import dev.rein.internal.concurrent.Sleeper;
import dev.rein.internal.text.Counts;
import dev.rein.internal.text.Durations;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.retry.RetryPolicy;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Retries a failed call when the provider classed the failure as retryable, after the policy's
 * backoff or the provider's {@code retryAfter} (in whole milliseconds, a fraction rounded up), as long as
 * that wait ends before the run's deadline. A {@code retryAfter} longer than {@link RetryPolicy#LONGEST_HINT} is not retried: the
 * call fails with the provider's error and says so, whatever time the run has left (as tool
 * retries do); so does a call that used its last retry. Only a wait Rein would make is refused
 * for passing the deadline. Each retry is traced. A cancelled run starts no backoff and no other attempt: a
 * provider may have swallowed the cancel's interrupt and failed the call as retryable (the
 * Anthropic provider's watchdog does when its header limit and the interrupt meet), so the
 * run's cancel flag is read before each wait and attempt. Token counts are not retried (the caller estimates instead).
 */
public final class RetryStage implements BuiltInStage {
    /** Why a call was not retried (or not any more), for the final failure's message. */
    public static final class GaveUp extends ModelException {
        private final String providerMessage;

        public GaveUp(ModelException last, String why) {
            super(last.kind(), last.httpStatus(), last.getMessage() + why, last.retryable(), last.retryAfter(),
                    last.requestId(), last.reportedUsage().orElse(null), last);
            this.providerMessage = last.getMessage();
        }

        /** The last failure's own message, without why it was not retried. */
        public String providerMessage() {
            return providerMessage;
        }
    }

    /**
     * An engine that retries by itself (Temporal) is to make attempt {@link #attempt} + 1 of the
     * call after {@link #delay}; the retry is traced already, the logical call goes on.
     */
    public static final class RetryLater extends ModelException {
        private final int attempt;
        private final Duration delay;

        RetryLater(ModelException last, int attempt, Duration delay) {
            super(last.kind(), last.httpStatus(), last.getMessage(), true, last.retryAfter(), last.requestId(),
                    last.reportedUsage().orElse(null), last);
            this.attempt = attempt;
            this.delay = delay;
        }

        /** The attempt that failed (from 1). */
        public int attempt() {
            return attempt;
        }

        /**
         * How long to wait before the next attempt (the policy's backoff, or the provider's retry-after), in whole
         * milliseconds: the wait checked against the run's deadline and traced.
         */
        public Duration delay() {
            return delay;
        }
    }

    private final RetryPolicy policy;
    private final BudgetMeter meter;
    private final Tracer tracer;
    private final Sleeper sleeper;
    /** 0: this stage retries (sleeping between attempts); else the engine's attempt number, and the engine waits. */
    private final int engineAttempt;
    /** Whether the run was cancelled (its flag, which a swallowed interrupt cannot clear). */
    private final BooleanSupplier cancelled;

    /** A stage for a call nothing cancels but an interrupt. */
    public RetryStage(RetryPolicy policy, BudgetMeter meter, Tracer tracer) {
        this(policy, meter, tracer, () -> false);
    }

    /** @param cancelled whether the run was cancelled: then no further backoff or attempt starts */
    public RetryStage(RetryPolicy policy, BudgetMeter meter, Tracer tracer, BooleanSupplier cancelled) {
        this(policy, meter, tracer, 0, Sleeper.THREAD, cancelled);
    }

    /** For tests: retries in place, waiting with {@code sleeper}. */
    RetryStage(RetryPolicy policy, BudgetMeter meter, Tracer tracer, Sleeper sleeper) {
        this(policy, meter, tracer, 0, sleeper, () -> false);
    }

    private RetryStage(RetryPolicy policy, BudgetMeter meter, Tracer tracer, int engineAttempt, Sleeper sleeper,
                       BooleanSupplier cancelled) {
        this.policy = policy;
        this.meter = meter;
        this.tracer = tracer;
        this.engineAttempt = engineAttempt;
        this.sleeper = sleeper;
        this.cancelled = cancelled;
    }

    /**
     * One attempt ({@code attempt}, from 1) of a call an engine retries by itself: the same decision
     * and trace as in-process retries, but a failure to retry is thrown as {@link RetryLater} instead
     * of being waited for here, so each attempt can run on another worker.
     */
    public static RetryStage engineAttempt(RetryPolicy policy, BudgetMeter meter, Tracer tracer, int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("an engine's attempt counts from 1, got " + attempt);
        }
        return new RetryStage(policy, meter, tracer, attempt, null, () -> false);
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
            for (int attempt = Math.max(1, engineAttempt); ; attempt++) {
                try {
                    return next.proceed(call);
                } catch (dev.rein.model.ModelDeadlineException e) {
                    throw e;
                } catch (ModelException e) {
                    if (!e.retryable() || e instanceof GaveUp) {
                        throw e; // a GaveUp from below was retried already: a replay hands one back as recorded
                    }
                    stopIfCancelled();
                    // the reasons no longer run would change are said first, as for tools: blaming the deadline
                    // would suggest a longer run timeout helps
                    if (attempt > policy.maxRetries()) {
                        throw new GaveUp(e, "; gave up after " + Counts.of(attempt, "attempt"));
                    }
                    if (RetryPolicy.tooLong(e.retryAfter())) {
                        throw new GaveUp(e, "; " + RetryPolicy.tooLongMessage(e.retryAfter()));
                    }
                    // the wait as it is made, traced and handed to an engine (whole milliseconds): checked unrounded, a wait
                    // passing the deadline by less than a millisecond was made
                    Duration delay = Durations.upToMillis(policy.delayBefore(attempt, e.retryAfter()));
                    if (!tracer.now().plus(delay).isBefore(meter.deadline())) {
                        throw new GaveUp(e, "; not retried because waiting would pass the run's deadline");
                    }
                    tracer.emit(new TraceEvent.ModelRetry(tracer.runId(), tracer.step(), tracer.now(), attempt, e.kind().name(),
                            e.httpStatus(), e.getMessage(), delay.toMillis(), e.requestId(), e.reportedUsage().orElse(null)));
                    discardAttempt(call, attempt);
                    if (engineAttempt > 0) {
                        throw new RetryLater(e, attempt, delay);
                    }
                    sleeper.sleep(delay);
                    stopIfCancelled();
                }
            }
        }
    }

    /** What the failed attempt streamed is void: the call's observer is told before the next attempt streams. */
    private static void discardAttempt(ModelCall call, int attempt) {
        try {
            call.context().stream().onRetry(attempt);
        } catch (RuntimeException e) {
            // an observer's failure must not stop the retry: a live view is not worth the call
        }
    }

    private void stopIfCancelled() throws InterruptedException {
        if (cancelled.getAsBoolean()) {
            throw new InterruptedException("the run was cancelled");
        }
    }

    @Override
    public boolean retries() {
        return true;
    }

    @Override
    public String toString() {
        return "retry";
    }
}
