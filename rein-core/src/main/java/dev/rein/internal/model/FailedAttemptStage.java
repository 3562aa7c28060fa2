package dev.rein.internal.model;

import dev.rein.budget.BudgetMeter;
import dev.rein.budget.PriceTable;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelDeadlineException;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;

/**
 * Charges the usage a provider reported for a failed attempt ({@link ModelException#usage()}) to the
 * run's budget, priced as {@link PricingStage} prices a response: a provider bills such a call (a
 * stream cut after its usage report), so leaving it out would let a run spend past its limits. It
 * sits just below the retry stage, so each attempt is charged once, a retried one too, and on the
 * run's thread: an attempt the deadline stage gave up on charges nothing later.
 */
public final class FailedAttemptStage implements ModelInterceptor {
    private final BudgetMeter meter;
    private final String agentModel;
    private final PriceTable prices;

    public FailedAttemptStage(BudgetMeter meter, String agentModel, PriceTable prices) {
        this.meter = meter;
        this.agentModel = agentModel;
        this.prices = prices;
    }

    @Override
    public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        try {
            return chain.proceed(call);
        } catch (ModelDeadlineException e) {
            throw e;
        } catch (ModelException e) {
            if (!e.usage().notReported()) {
                PricingStage.charge(meter, agentModel, prices, call.request().model(), e.usage());
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "failed-attempt-pricing";
    }
}
