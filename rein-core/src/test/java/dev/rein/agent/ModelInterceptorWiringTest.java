package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The builder's model interceptors sit in every model call of a run, as documented. */
class ModelInterceptorWiringTest {
    private static final PriceTable PRICES = PriceTable.empty()
            .with("main", ModelPrice.of("1", "0", "0")).with("backup", ModelPrice.of("2", "0", "0"));

    @Test
    void aFallbackInterceptorSeesOneLogicalCallAndItsModelIsPricedAsItself() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Model flaky = (request, context) -> {
            seen.add("model:" + request.model());
            if (request.model().equals("main")) {
                throw new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "main refuses");
            }
            return new ModelResponse("r", request.model(), List.of(new TextBlock("from " + request.model())),
                    StopReason.END_TURN, null, Usage.of(1_000_000, 0, 0, 0));
        };
        ModelInterceptor fallback = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                seen.add("fallback:" + call.purpose());
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withRequest(call.request().withModel("backup")));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        ModelInterceptor outer = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                seen.add("first");
                return chain.proceed(call);
            }
        };
        RunResult result = Agent.builder().model(flaky).modelName("main").prices(PRICES)
                .budget(Budget.builder().maxCostUsd("10").build())
                .modelInterceptor(outer).modelInterceptor(fallback).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("from backup");
        assertThat(seen).containsExactly("first", "fallback:step", "model:main", "model:backup");
        assertThat(result.costUsd()).as("priced as the fallback model").isEqualByComparingTo("2");
    }
}
