package dev.rein.internal.model;

import dev.rein.model.ModelCall;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;

/**
 * Sits right below the application's model-call stages and traces each failed attempt one of them moved on from (a
 * fallback to another model, or the same model tried again by the stage itself) as a {@code model_fallback} event:
 * when the stage's next attempt begins, or, when none follows, as the call ends ({@link TracingStage} tells), unless
 * the call ends with that very failure, which its {@code model_failed} says. Without it the trace said only the call's
 * outcome, as if the failed model had never been called. The retry stage's own retries are {@code model_retry} events
 * and reach this stage only when given up, or, under an engine that retries (Temporal), as {@code RetryLater}: a stage
 * that moves on from that is a fallback too, and the engine's retry it announced never comes. One logical call at a
 * time, as a run makes its calls one after another; its attempts may run on other threads, hence the locking, but
 * one after another: of attempts a stage runs at the same time (hedging), only the last failure is kept.
 */
public final class AttemptStage implements BuiltInStage {
    private final Tracer tracer;
    /** The last attempt's failure, not yet traced; null when the last attempt answered or none was made. */
    private ModelException failed;
    private String failedModel;
    /** Attempts this logical call made through this stage so far: the number {@code onRetry} gives a failed one. */
    private int attempts;

    public AttemptStage(Tracer tracer) {
        this.tracer = tracer;
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
            String model = call.request().model();
            if (movedOn(model)) {
                discardAttempt(call);
            }
            synchronized (AttemptStage.this) {
                attempts++;
            }
            try {
                return next.proceed(call);
            } catch (ModelDeadlineException e) {
                throw e; // not a model's failure: the run's deadline
            } catch (ModelException e) {
                synchronized (AttemptStage.this) {
                    failed = e;
                    failedModel = model;
                }
                throw e;
            }
        }
    }

    /** A logical call begins: a failure an earlier one left (cut off by an interrupt) is not this call's. */
    synchronized void begin() {
        failed = null;
        failedModel = null;
        attempts = 0;
    }

    /**
     * The logical call ends with {@code outcome} (null: an answer): a failed attempt not traced yet is one the stage
     * moved on from without another attempt, unless {@code outcome} is that failure (or caused by it).
     */
    void end(Throwable outcome) {
        synchronized (this) {
            Throwable t = outcome;
            for (int depth = 0; t != null && failed != null && depth < 16; depth++, t = t.getCause()) {
                if (t == failed) {
                    failed = null; // the call's model_failed says it
                }
            }
        }
        movedOn(null);
    }

    /**
     * What the failed attempt streamed is void, as a retried attempt's is: the call's observer is told before the next
     * attempt streams, or a live view shows the failed attempt's text joined to the next one's.
     */
    private void discardAttempt(ModelCall call) {
        int failedAttempt;
        synchronized (this) {
            failedAttempt = attempts;
        }
        try {
            call.context().stream().onRetry(failedAttempt);
        } catch (RuntimeException e) {
            // an observer's failure must not stop the call: a live view is not worth it
        }
    }

    /**
     * Traces the last attempt's failure, when there is one: the stage moved on from it to {@code toModel} (null: none).
     *
     * @return whether there was one
     */
    private boolean movedOn(String toModel) {
        ModelException e;
        String fromModel;
        synchronized (this) {
            e = failed;
            fromModel = failedModel;
            failed = null;
            failedModel = null;
        }
        if (e == null) {
            return false;
        }
        // as model_failed says it: the provider's words, the retries given up being model_retry events already
        String message = e instanceof RetryStage.GaveUp gaveUp ? gaveUp.providerMessage() : e.getMessage();
        tracer.emit(new TraceEvent.ModelFallback(tracer.runId(), tracer.step(), tracer.now(), fromModel, toModel,
                e.kind().name(), e.httpStatus(), message, e.requestId(), e.reportedUsage().orElse(null), e.retryable()));
        return true;
    }

    @Override
    public String toString() {
        return "attempts";
    }
}
