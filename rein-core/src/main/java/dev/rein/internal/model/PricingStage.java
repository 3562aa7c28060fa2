package dev.rein.internal.model;

import dev.rein.budget.BudgetMeter;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.context.TokenEstimator;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;

/**
 * Charges each response's usage to the run's budget, priced by the model name of the request as
 * it reaches this stage (so a fallback model set by an application stage is priced as itself; one
 * without a price is refused before it is called while a money limit is set, so no call is free).
 * A response whose provider reported no usage is charged an estimate, marked estimated, and
 * goes on with it: counting it as zero would let token and money limits never bind. A response served at a
 * service tier whose price is known ({@link ModelPrice#withTier}) is charged at that tier's rates.
 */
public final class PricingStage implements BuiltInStage {
    private final BudgetMeter meter;
    private final String agentModel;
    private final PriceTable prices;

    public PricingStage(BudgetMeter meter, String agentModel, PriceTable prices) {
        this.meter = meter;
        this.agentModel = agentModel;
        this.prices = prices;
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
            ModelPrice callPrice = model.equals(agentModel) ? null : prices.find(model).orElse(null);
            if (!model.equals(agentModel) && callPrice == null) {
                meter.requirePriced(model); // before the call: an unpriced model would make a money limit never trigger
            }
            ModelResponse response = next.proceed(call);
            if (response.usage().notReported()) {
                response = response.withUsage(Usage.estimate(TokenEstimator.estimate(call.request()),
                        TokenEstimator.estimate(response.content())));
            }
            // at the rates of the service tier the provider served it at, when that tier has a price (else the base price,
            // which the call's model_response then says: see TracingStage)
            meter.record(response.usage(), model.equals(agentModel) ? meter.price() : callPrice, response.serviceTier(), model);
            return response;
        }
    }

    @Override
    public String toString() {
        return "pricing";
    }
}
