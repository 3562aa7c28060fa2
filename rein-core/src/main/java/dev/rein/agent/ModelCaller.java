package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.internal.model.AroundModelStage;
import dev.rein.internal.model.AttemptStage;
import dev.rein.internal.model.DeadlineStage;
import dev.rein.internal.model.MaskingStage;
import dev.rein.internal.model.ModelChain;
import dev.rein.internal.model.PricingStage;
import dev.rein.internal.model.RetryStage;
import dev.rein.internal.model.TracingStage;
import dev.rein.internal.secret.MaskedText;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelGateway;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.trace.Tracer;
import java.util.ArrayList;
import java.util.List;

/**
 * The decide stage's effect: every model call of a run passes one chain of stages, assembled in
 * {@link #stages}. This class only turns the chain's failures into the run's reasons.
 */
final class ModelCaller {
    private final Run run;
    private final ModelChain chain;

    ModelCaller(Run run) {
        this(run, 0);
    }

    /**
     * @param engineAttempt 0 when the chain retries by itself; else the attempt (from 1) of an engine
     *                      that retries the call (Temporal): a retryable failure is a {@link CallFailed}
     *                      with a {@code retryDelay}, traced as a retry, and only the first attempt traces the request
     */
    ModelCaller(Run run, int engineAttempt) {
        this.run = run;
        this.chain = new ModelChain(stages(run, engineAttempt));
    }

    /**
     * The model-call chain, outermost first. Tracing sees one logical call with its final outcome,
     * its response already masked;
     * the application's stages sit above pricing, so a fallback model they choose is priced as
     * itself and a cached answer costs nothing; retries happen below them; no attempt outlives
     * the deadline.
     */
    static List<ModelInterceptor> stages(Run run) {
        return stages(run, 0);
    }

    private static List<ModelInterceptor> stages(Run run, int engineAttempt) {
        Tracer tracer = new RunTracer(run);
        List<ModelInterceptor> stages = new ArrayList<>();
        // with application stages only: a failed attempt one of them moved on from (a fallback) is traced
        AttemptStage attempts = run.config.modelInterceptors().isEmpty() ? null : new AttemptStage(tracer);
        stages.add(new TracingStage(tracer, run.meter, engineAttempt <= 1, attempts));        // request, response + cost, failure
        stages.add(new MaskingStage(run.redactor::redactValue, (original, masked) -> auditMasked(run, original))); // no secret in what the run acts on
        stages.addAll(run.config.modelInterceptors());                                        // the application's stages
        if (attempts != null) {
            stages.add(attempts);                                                             // each attempt they made
        }
        stages.add(new PricingStage(run.meter, run.config.modelName(), run.config.prices())); // usage charged to the budget
        stages.add(engineAttempt == 0 ? new RetryStage(run.config.retryPolicy(), run.meter, tracer, run::cancelled)
                : RetryStage.engineAttempt(run.config.retryPolicy(), run.meter, tracer, engineAttempt)); // provider's classification
        if (!run.config.modelInterceptors().isEmpty()) {
            // Left out with no application stage (it would pass every call on as it is): each stage is a frame pair on
            // the stack a run parks with while it waits for the model, and at 10,000 runs those stacks are the heap.
            stages.add(new AroundModelStage(run.config.modelInterceptors()));                 // the stages' wrappers, on any model
        }
        stages.add(new DeadlineStage(run.meter, run.runId, run.recorder::endOfStream));       // within the run's deadline
        stages.add(ModelChain.MODEL);
        return List.copyOf(stages);
    }

    /**
     * A secret the model wrote (echoing one it saw) is masked before anything acts on it, and audited
     * as a masked tool result is: an attempt to move a secret is a security-relevant event.
     */
    private static void auditMasked(Run run, ContentBlock original) {
        if (original instanceof ToolUseBlock use) {
            RunTools.audit(run, "secret_masked", use.name(), use.id(), MaskedText.audited("the arguments the model gave tool '"
                    + use.name() + "'", RunTools.secretsIn(run, Json.write(use.input())), "the tool, an approval or the trace"));
        } else if (original instanceof TextBlock text) {
            RunTools.audit(run, "secret_masked", null, null, MaskedText.audited("the model's text",
                    RunTools.secretsIn(run, text.text()), "the answer, the store or the trace"));
        }
    }

    /** The call failed for good; {@code reason} is a {@link Reasons} value or a budget reason. */
    static final class CallFailed extends Exception {
        final String reason;
        /** For an engine that retries by itself: wait this long, then make the next attempt; null when final. */
        final java.time.Duration retryDelay;

        CallFailed(String reason, String message) {
            this(reason, message, null);
        }

        CallFailed(String reason, String message, java.time.Duration retryDelay) {
            super(message, null, false, false);
            this.reason = reason;
            this.retryDelay = retryDelay;
        }
    }

    /**
     * A call to the run's model. Not through the overload below: a run waiting for its model parks with this stack,
     * and at thousands of runs in flight each frame of it is copied to the heap at each park (docs/performance-log.md,
     * 2026-12-07, perf5).
     */
    ModelResponse call(ModelRequest request, String purpose) throws CallFailed, InterruptedException {
        run.tracedBeforeTheCall = false; // the call goes out: what follows is this attempt's own
        try {
            return chain.call(new ModelCall(run.config.model(), request, purpose, context()));
        } catch (ModelException e) {
            throw failed(e);
        }
    }

    /** A call to another model (a critic): priced by the request's model name. */
    ModelResponse call(Model model, ModelRequest request, String purpose) throws CallFailed, InterruptedException {
        try {
            return chain.call(new ModelCall(model, request, purpose, context()));
        } catch (ModelException e) {
            throw failed(e);
        }
    }

    /** The run's reason for a call that failed for good. */
    private static CallFailed failed(ModelException e) {
        if (e instanceof ModelDeadlineException) {
            return new CallFailed(dev.rein.budget.BudgetKind.DEADLINE.reason(), e.getMessage());
        }
        return new CallFailed(Reasons.PROVIDER_ERROR, "the model provider failed" + callFacts(e) + ": " + e.getMessage(),
                e instanceof RetryStage.RetryLater later ? later.delay() : null);
    }

    /**
     * The HTTP status and the provider's request id of a failed call, for the run's message:
     * providers ask for the request id when a failed request is reported to their support, and
     * without it here the id reached no trace, log or message.
     */
    private static String callFacts(ModelException e) {
        String status = e.httpStatus() > 0 ? "HTTP " + e.httpStatus() : "";
        String id = e.requestId() == null || e.requestId().isBlank() ? "" : "request-id " + e.requestId();
        String facts = status.isEmpty() || id.isEmpty() ? status + id : status + ", " + id;
        return facts.isEmpty() ? "" : " (" + facts + ")";
    }

    /**
     * A retryable failure of a critic's review under an engine's attempt ({@link RetryStage.RetryLater}), on its way
     * back to the engine: unchecked, so that the critic, which takes a {@link ModelException} for an unreachable critic
     * and accepts the answer unreviewed, lets it pass. The engine makes the review again in its next attempt.
     */
    static final class HandedBack extends RuntimeException {
        final CallFailed failed;

        HandedBack(CallFailed failed) {
            super(failed.getMessage(), null, false, false);
            this.failed = failed;
        }
    }

    /**
     * The critic's reviews: as {@link #gateway()}, but a retryable failure an engine's attempt hands back (it retries
     * by itself) is a {@link HandedBack}, not the critic's failure. A review in place (no engine) never meets one.
     */
    ModelGateway reviews() {
        ModelGateway gateway = gateway();
        return new ModelGateway() {
            @Override
            public ModelResponse call(Model model, ModelRequest request, String purpose) throws ModelException, InterruptedException {
                run.tracedBeforeTheCall = false; // the review goes out: what follows is this attempt's own
                try {
                    return gateway.call(model, request, purpose);
                } catch (RetryStage.RetryLater later) {
                    throw new HandedBack(failed(later));
                }
            }

            @Override
            public long countTokens(Model model, ModelRequest request) throws ModelException, InterruptedException {
                return gateway.countTokens(model, request);
            }
        };
    }

    /** Extra calls on the run's behalf (compaction, critic) and token counts, through the same chain. */
    ModelGateway gateway() {
        return new ModelGateway() {
            @Override
            public ModelResponse call(Model model, ModelRequest request, String purpose) throws ModelException, InterruptedException {
                return chain.call(new ModelCall(model, request, purpose, context()));
            }

            @Override
            public long countTokens(Model model, ModelRequest request) throws ModelException, InterruptedException {
                return chain.count(new ModelCall(model, request, "count_tokens", context()));
            }
        };
    }

    private ModelCallContext context() {
        return new ModelCallContext(run.meter.deadline(), run.recorder);
    }
}
