package dev.rein.internal.model;

import dev.rein.budget.BudgetMeter;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.retry.RetryPolicy;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Duration;

/**
 * Retries a failed call when the provider classed the failure as retryable, after the policy's
 * backoff or the provider's {@code retryAfter}, as long as the wait ends before the run's
 * deadline. Each retry is traced. Token counts are not retried (the caller estimates instead).
 */
public final class RetryStage implements ModelInterceptor {
    /** Why a call was not retried (or not any more), for the final failure's message. */
    public static final class GaveUp extends ModelException {
        private final String providerMessage;

        public GaveUp(ModelException last, String why) {
            super(last.kind(), last.httpStatus(), last.getMessage() + why, last.retryable(), last.retryAfter(),
                    last.requestId(), last);
            this.providerMessage = last.getMessage();
        }

        /** The last failure's own message, without why it was not retried. */
        public String providerMessage() {
            return providerMessage;
        }
    }

    private final RetryPolicy policy;
    private final BudgetMeter meter;
    private final Tracer tracer;

    public RetryStage(RetryPolicy policy, BudgetMeter meter, Tracer tracer) {
        this.policy = policy;
        this.meter = meter;
        this.tracer = tracer;
    }

    @Override
    public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return chain.proceed(call);
            } catch (dev.rein.model.ModelDeadlineException e) {
                throw e;
            } catch (ModelException e) {
                if (!e.retryable()) {
                    throw e;
                }
                Duration delay = policy.delayBefore(attempt, e.retryAfter());
                if (!tracer.now().plus(delay).isBefore(meter.deadline())) {
                    throw new GaveUp(e, "; not retried because waiting would pass the run's deadline");
                }
                if (attempt > policy.maxRetries()) {
                    throw new GaveUp(e, "; gave up after " + attempt + " attempts");
                }
                tracer.emit(new TraceEvent.ModelRetry(tracer.runId(), tracer.step(), tracer.now(), attempt, e.kind().name(),
                        e.httpStatus(), e.getMessage(), delay.toMillis()));
                Thread.sleep(delay.toMillis());
            }
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
