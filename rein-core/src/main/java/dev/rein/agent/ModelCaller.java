package dev.rein.agent;

import dev.rein.model.ContentBlock;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The decide stage: one model call, traced, retried on transient failures with backoff, and never
 * allowed to run or sleep past the run's deadline.
 */
final class ModelCaller {
    private final Run run;

    ModelCaller(Run run) {
        this.run = run;
    }

    /** The call failed for good; {@code reason} is a {@link Reasons} value or a budget reason. */
    static final class CallFailed extends Exception {
        final String reason;

        CallFailed(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    ModelResponse call(ModelRequest request, String purpose) throws CallFailed, InterruptedException {
        return call(run.config.model(), request, purpose);
    }

    /** A call to another model (a critic): priced by the request's model name. */
    ModelResponse call(Model model, ModelRequest request, String purpose) throws CallFailed, InterruptedException {
        int step = run.step();
        run.emit(new TraceEvent.ModelRequested(run.runId, step, run.now(), purpose, request));
        for (int attempt = 1; ; attempt++) {
            Instant started = Instant.now();
            try {
                ModelResponse response = masked(callWithinDeadline(model, request));
                BigDecimal cost = request.model().equals(run.config.modelName()) ? run.meter.record(response.usage())
                        : run.meter.record(response.usage(), run.config.prices().find(request.model()).orElse(null));
                run.emit(new TraceEvent.ModelResponded(run.runId, step, run.now(), response, response.usage(), cost,
                        run.meter.costUsd(), Duration.between(started, Instant.now()).toMillis()));
                return response;
            } catch (ModelException e) {
                Duration delay = run.config.retryPolicy().delayBefore(attempt, e.retryAfter());
                boolean retriesLeft = attempt <= run.config.retryPolicy().maxRetries();
                boolean fitsDeadline = Instant.now().plus(delay).isBefore(run.meter.deadline());
                if (e.retryable() && retriesLeft && fitsDeadline) {
                    run.emit(new TraceEvent.ModelRetry(run.runId, step, run.now(), attempt, e.kind().name(), e.httpStatus(),
                            e.getMessage(), delay.toMillis()));
                    Thread.sleep(delay.toMillis());
                    continue;
                }
                run.emit(new TraceEvent.ModelFailed(run.runId, step, run.now(), e.kind().name(), e.httpStatus(), e.getMessage()));
                throw failure(e, retriesLeft, fitsDeadline, attempt);
            }
        }
    }

    /**
     * The response with every known secret masked in its text and tool calls, before anything acts
     * on it, stores it or sends it back: a tool never receives a secret from the model, and an
     * approval shows the arguments that will run. Thinking blocks stay as they are (their signature
     * covers the text); the store masks them.
     */
    private ModelResponse masked(ModelResponse response) {
        List<ContentBlock> content = response.content().stream()
                .map(block -> block instanceof TextBlock || block instanceof ToolUseBlock ? run.redactor.redactValue(block) : block)
                .toList();
        return content.equals(response.content()) ? response
                : new ModelResponse(response.id(), response.model(), content, response.stopReason(), response.stopSequence(), response.usage());
    }

    private CallFailed failure(ModelException e, boolean retriesLeft, boolean fitsDeadline, int attempt) {
        String status = e.httpStatus() > 0 ? " (HTTP " + e.httpStatus() + ")" : "";
        String base = "the model provider failed" + status + ": " + e.getMessage();
        if (!e.retryable()) {
            return new CallFailed(Reasons.PROVIDER_ERROR, base);
        }
        if (!fitsDeadline) {
            return new CallFailed(Reasons.PROVIDER_ERROR, base + "; not retried because waiting would pass the run's deadline");
        }
        return new CallFailed(Reasons.PROVIDER_ERROR, base + "; gave up after " + attempt + " attempts");
    }

    private ModelResponse callWithinDeadline(Model model, ModelRequest request) throws ModelException, InterruptedException, CallFailed {
        Duration remaining = run.meter.remaining();
        if (remaining.isNegative() || remaining.isZero()) {
            throw deadline();
        }
        ModelCallContext context = new ModelCallContext(run.meter.deadline(), run.recorder);
        FutureTask<ModelResponse> task = new FutureTask<>(() -> model.call(request, context));
        Thread.ofVirtual().name("rein-model-" + run.runId).start(task);
        try {
            ModelResponse response = getWithin(task, remaining);
            if (response == null) {
                throw new ModelException(ModelException.Kind.MALFORMED_RESPONSE, 0, "the model returned no response");
            }
            return response;
        } catch (TimeoutException e) {
            task.cancel(true);
            throw deadline();
        } catch (InterruptedException e) {
            task.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            return rethrow(e.getCause());
        }
    }

    /** The task's response; whatever the stream held back is released when the call ends, however it ends. */
    private ModelResponse getWithin(FutureTask<ModelResponse> task, Duration remaining)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            return task.get(remaining.toNanos(), TimeUnit.NANOSECONDS);
        } finally {
            run.recorder.endOfStream();
        }
    }

    private static ModelResponse rethrow(Throwable cause) throws ModelException, InterruptedException {
        if (cause instanceof ModelException me) {
            throw me;
        }
        if (cause instanceof InterruptedException ie) {
            throw ie;
        }
        throw new ModelException(ModelException.Kind.OTHER, 0,
                "the model client failed with " + cause.getClass().getSimpleName() + ": " + cause.getMessage(), false, null, null, cause);
    }

    private CallFailed deadline() {
        return new CallFailed(dev.rein.budget.BudgetKind.DEADLINE.reason(), run.meter.describe(dev.rein.budget.BudgetKind.DEADLINE)
                + " while waiting for the model");
    }
}
