package dev.rein.internal.model;

import dev.rein.ReinException;
import dev.rein.budget.BudgetMeter;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;
import dev.rein.provider.ModelDefaults;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;

/**
 * Records each logical model call: the request, then the response with its cost (what the budget
 * was charged while the call ran) or the final failure. A deadline is not a provider failure and
 * is reported by the run's end instead.
 */
public final class TracingStage implements BuiltInStage {
    /**
     * The {@code error_kind} of a call that a stage, not the provider, failed (it threw or broke the
     * chain's contract: the run ends internal_error; or it was refused a model without a price: the run
     * ends configuration_error), and a replay does not count the call as a recorded model call, since
     * no model answered it.
     */
    public static final String STAGE_FAILED = "STAGE_FAILED";

    private final Tracer tracer;
    private final BudgetMeter meter;
    /** False for a later attempt of a call an engine retries: the first attempt traced the request. */
    private final boolean traceRequest;
    /** The stage below the application's that traces the failed attempts they moved on from; null when there is none. */
    private final AttemptStage attempts;

    public TracingStage(Tracer tracer, BudgetMeter meter) {
        this(tracer, meter, true);
    }

    /** @param traceRequest false when an earlier attempt of this logical call (on an engine) traced its request */
    public TracingStage(Tracer tracer, BudgetMeter meter, boolean traceRequest) {
        this(tracer, meter, traceRequest, null);
    }

    /**
     * @param attempts the stage right below the application's model-call stages (null: there are none), told where
     *                 each logical call begins and ends, so that the failed attempt a stage moved on from without
     *                 another is traced before the call's outcome
     */
    public TracingStage(Tracer tracer, BudgetMeter meter, boolean traceRequest, AttemptStage attempts) {
        this.tracer = tracer;
        this.meter = meter;
        this.traceRequest = traceRequest;
        this.attempts = attempts;
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
            int step = tracer.step();
            if (traceRequest) {
                tracer.emit(new TraceEvent.ModelRequested(tracer.runId(), step, tracer.now(), call.purpose(), call.request(),
                        providerName(call.model()), serverUri(call.model())));
            }
            BigDecimal before = meter.costUsd();
            boolean estimatedBefore = meter.usage().estimated();
            Instant started = tracer.now();
            if (attempts != null) {
                attempts.begin();
            }
            try {
                meter.takeUnpricedTiers(); // nothing a call before this one left
                ModelResponse response = next.proceed(call);
                ended(null);
                Instant now = tracer.now();
                // every model call made for this one (an interceptor's second call too), as its cost counts them all; each
                // named by the model whose price the pricing stage used: the request's as it reached that stage (a fallback
                // stage's choice), not the response's (which may be a dated snapshot of it)
                String pricing = notes(meter.takeUnpricedModels(), pricing(meter.takeUnpricedTiers(), call.request().model()));
                tracer.emit(new TraceEvent.ModelResponded(tracer.runId(), step, now, response, response.usage(),
                        meter.costUsd().subtract(before), meter.costUsd(), Duration.between(started, now).toMillis(), pricing));
                if (response.usage().estimated() && !estimatedBefore) { // once: the run's usage is estimated from here on
                    tracer.emit(new TraceEvent.UsageEstimated(tracer.runId(), step, now, call.request().model(),
                            response.usage(), estimatedMessage(call.request().model(), response.usage())));
                }
                return response;
            } catch (ModelDeadlineException | RetryStage.RetryLater e) {
                ended(e);
                throw e; // a deadline is reported by the run's end; a retry was traced and the call goes on
            } catch (ModelException e) {
                ended(e);
                String message = e instanceof RetryStage.GaveUp gaveUp ? gaveUp.providerMessage() : e.getMessage();
                tracer.emit(new TraceEvent.ModelFailed(tracer.runId(), step, tracer.now(), e.kind().name(), e.httpStatus(), message,
                        e.requestId(), e.reportedUsage().orElse(null)));
                throw e;
            } catch (InterruptedException e) {
                ended(e);
                throw e;
            } catch (ReinException e) {
                ended(e);
                // A stage further in threw or broke the chain's contract (named by ModelChain): the call failed
                // too, and its model_request gets its model_failed, as every logical call's does
                tracer.emit(new TraceEvent.ModelFailed(tracer.runId(), step, tracer.now(), STAGE_FAILED, 0, e.getMessage(), null));
                throw e;
            } catch (RuntimeException e) {
                // A built-in stage further in threw (bound to this one, with no chain link between to name it): named here,
                // so that the call's model_request gets its model_failed and the attempts their end, as above
                ReinException named = chain != null ? chain.threwBelow(this, e) : ModelChain.threw(TracingStage.this, e);
                ended(named);
                tracer.emit(new TraceEvent.ModelFailed(tracer.runId(), step, tracer.now(), STAGE_FAILED, 0, named.getMessage(), null));
                throw named;
            }
        }

        @Override
        public long proceedCount(ModelCall call) throws ModelException, InterruptedException {
            Instant started = tracer.now();
            long tokens;
            try {
                tokens = next.proceedCount(call);
            } catch (ModelException e) {
                // A failed count is traced as unknown (-1) with why, as the run goes on with its estimate: a replay answers the
                // counts in order, and without it would answer this one with the next count the run made
                Instant now = tracer.now();
                tracer.emit(new TraceEvent.TokensCounted(tracer.runId(), tracer.step(), now, call.purpose(), call.request().model(),
                        -1, Duration.between(started, now).toMillis(), failure(e)));
                throw e;
            }
            Instant now = tracer.now();
            tracer.emit(new TraceEvent.TokensCounted(tracer.runId(), tracer.step(), now, call.purpose(), call.request().model(),
                    tokens, Duration.between(started, now).toMillis()));
            return tokens;
        }
    }

    /** The call ended with {@code outcome} (null: an answer): a failed attempt a stage moved on from is traced first. */
    private void ended(Throwable outcome) {
        if (attempts != null) {
            attempts.end(outcome);
        }
    }

    /**
     * The model_response event's pricing: that each of {@code unpricedModels} was counted as costing USD 0 (it has no
     * price), then {@code tiers}, what it says of tiers (null: nothing).
     */
    private static String notes(java.util.List<String> unpricedModels, String tiers) {
        java.util.List<String> notes = new java.util.ArrayList<>();
        for (String model : unpricedModels) {
            notes.add("no price is known for model '" + model + "': its calls are counted as USD 0 in the run's cost. Add it"
                    + " with price(\"" + model + "\", ModelPrice.of(input, cacheRead, output)) on the agent builder"
                    + " (ModelPrice.of(\"0\", \"0\", \"0\") for a model that costs nothing, such as a local one)");
        }
        if (tiers != null) {
            notes.add(tiers);
        }
        return notes.isEmpty() ? null : String.join("; ", notes);
    }

    /**
     * What the model_response event says of tiers charged at the base price (null: none): a call served at a tier
     * without rates, or, when an interceptor called the model more than once for it, each such tier, and where each
     * tier's rates go: one model's price, or, when the calls went to several models, each model's own. ModelPrice.withTier
     * refuses a tier's price without a rate for each cache write class of the model's price, so the advice names them,
     * where there are any.
     */
    private static String pricing(java.util.List<BudgetMeter.UnpricedTier> unpricedTiers, String asked) {
        if (unpricedTiers.isEmpty()) {
            return null;
        }
        // the tiers of each model, in the order first recorded (a model named by none is the one asked for), and the
        // cache write classes of its price
        java.util.Map<String, java.util.List<String>> tiersOf = new java.util.LinkedHashMap<>();
        java.util.Map<String, java.util.Set<String>> classesOf = new java.util.HashMap<>();
        for (BudgetMeter.UnpricedTier u : unpricedTiers) {
            String model = u.model() == null ? asked : u.model();
            java.util.List<String> tiers = tiersOf.computeIfAbsent(model, m -> new java.util.ArrayList<>());
            if (!tiers.contains(u.tier())) {
                tiers.add(u.tier());
            }
            java.util.Set<String> classes = classesOf.computeIfAbsent(model, m -> new java.util.TreeSet<>());
            if (u.price() != null) {
                classes.addAll(u.price().cacheWriteClassPerMTok().keySet());
            }
        }
        String classesAdvice = classesOf.values().stream().anyMatch(c -> !c.isEmpty())
                ? ": a tier's price needs a rate for each cache write class the model's price has" : "";
        if (tiersOf.size() == 1) {
            String model = tiersOf.keySet().iterator().next();
            java.util.List<String> tiers = tiersOf.get(model);
            String withTier = withTier(tiers, classesOf.get(model));
            if (tiers.size() == 1) {
                return "served at service tier '" + tiers.get(0) + "', which the price of model '" + model + "' has no"
                        + " rates for: charged at its base price, which can be more or less than the call was billed."
                        + " Add the tier's rates with " + withTier + " on the model's price" + classesAdvice;
            }
            return "its model calls served at service tiers " + and(tiers.stream().map(t -> "'" + t + "'").toList())
                    + ", which the price of model '" + model + "' has no rates for: charged at its base price, which can be"
                    + " more or less than they were billed. Add the tiers' rates with " + withTier + " on the model's price"
                    + classesAdvice;
        }
        // calls to several models (a fallback stage's backup): each was charged at its own model's base price
        java.util.List<String> served = new java.util.ArrayList<>();
        java.util.List<String> advice = new java.util.ArrayList<>();
        tiersOf.forEach((model, tiers) -> {
            tiers.forEach(tier -> served.add("service tier '" + tier + "' of model '" + model + "'"));
            advice.add(withTier(tiers, classesOf.get(model)) + " on the price of model '" + model + "'");
        });
        return "its model calls served at " + and(served) + ", which those models' prices have no rates for: each"
                + " charged at its model's base price, which can be more or less than it was billed. Add each tier's rates"
                + " on its model's price: " + String.join("; ", advice) + classesAdvice;
    }

    /** "a", "a and b", "a, b and c". */
    private static String and(java.util.List<String> items) {
        return items.size() == 1 ? items.get(0)
                : String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /**
     * How to give {@code tiers} their rates: {@code ModelPrice.withTier("flex", ...)} for each, joined by "and", the
     * tier's price with a rate for each of {@code classes} (the model's price's cache write classes).
     */
    private static String withTier(java.util.List<String> tiers, java.util.Set<String> classes) {
        StringBuilder price = new StringBuilder("ModelPrice.of(input, cacheRead, output)");
        classes.forEach(c -> price.append(".withCacheWriteClass(\"").append(c).append("\", rate)"));
        return String.join(" and ", tiers.stream().map(t -> "ModelPrice.withTier(\"" + t + "\", " + price + ")").toList());
    }

    /** The provider the model names, null when it names none or fails to (an application's model: tracing must not fail the call). */
    private static String providerName(Model model) {
        try {
            return model instanceof ModelDefaults defaults ? defaults.providerName() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The server the model names, null when it names none or fails to (as {@link #providerName}). */
    private static URI serverUri(Model model) {
        try {
            return model instanceof ModelDefaults defaults ? defaults.serverUri() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String estimatedMessage(String model, Usage usage) {
        return "the provider reported no token usage for model '" + model + "'; Rein charged an estimate instead"
                + " (" + usage.totalInputTokens() + " input tokens from the request, " + usage.outputTokens()
                + " output tokens from the response) against the token and cost limits, and does so for every call"
                + " without a report: the run's usage and cost are estimates, marked \"estimated\"";
    }

    /** Why a count failed, for a trace reader: its kind, HTTP status (when any) and message. */
    private static String failure(ModelException e) {
        return e.kind() + (e.httpStatus() > 0 ? " (HTTP " + e.httpStatus() + ")" : "") + ": " + e.getMessage();
    }

    @Override
    public String toString() {
        return "tracing";
    }
}
