package dev.rein.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.budget.BudgetMeter;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The usage a provider reported for a failed call travels with the failure. */
class FailedCallUsageTest {
    private static final Usage REPORTED = Usage.of(1200, 30, 200, 0);

    private static ModelException failure(String message) {
        return new ModelException(ModelException.Kind.SERVER_ERROR, 0, message, true, null, "req_1", null, REPORTED);
    }

    @Test
    void aFailureCarriesTheReportedUsageAndEveryWrapperKeepsIt() throws Exception {
        assertThat(new ModelException(ModelException.Kind.SERVER_ERROR, 500, "boom").usage()).isEqualTo(Usage.NOT_REPORTED);
        assertThat(failure("boom").usage()).isEqualTo(REPORTED);
        assertThat(new RetryStage.GaveUp(failure("boom"), "; gave up after 3 attempts").usage()).isEqualTo(REPORTED);
        assertThat(new RetryStage.RetryLater(failure("boom"), 1, Duration.ofSeconds(1)).usage()).isEqualTo(REPORTED);

        Model silent = (request, context) -> {
            throw failure(null); // no message: the chain names the client, and keeps the usage
        };
        ModelRequest request = ModelRequest.builder("main").maxTokens(10).addMessage(Message.user("hi")).build();
        ModelChain chain = new ModelChain(List.of(ModelChain.MODEL));
        try {
            chain.call(new ModelCall(silent, request, "step", ModelCallContext.until(Instant.now().plusSeconds(60))));
        } catch (ModelException e) {
            assertThat(e.getMessage()).contains("no message");
            assertThat(e.usage()).isEqualTo(REPORTED);
            return;
        }
        throw new AssertionError("the call did not fail");
    }

    /** A failed attempt to another model than the agent's (a fallback) is charged at that model's own price, once. */
    @Test
    void aFailedAttemptIsChargedOnceAtThePriceOfTheModelItCalled() throws Exception {
        PriceTable prices = PriceTable.empty().with("main", ModelPrice.of("1", "0", "0")).with("fallback", ModelPrice.of("2", "0", "0"));
        BudgetMeter meter = new BudgetMeter(Budget.builder().maxCostUsd(new BigDecimal("100")).build(), prices, "main",
                Clock.systemUTC(), Instant.now());
        Model failing = (request, context) -> {
            throw new ModelException(ModelException.Kind.SERVER_ERROR, 0, "cut", false, null, null, null,
                    Usage.of(1_000_000, 0, 0, 0));
        };
        ModelChain chain = new ModelChain(List.of(new PricingStage(meter, "main", prices),
                new FailedAttemptStage(meter, "main", prices), ModelChain.MODEL));
        for (String model : List.of("fallback", "main")) {
            ModelRequest request = ModelRequest.builder(model).maxTokens(10).addMessage(Message.user("hi")).build();
            try {
                chain.call(new ModelCall(failing, request, "step", ModelCallContext.until(Instant.now().plusSeconds(60))));
                throw new AssertionError("the call did not fail");
            } catch (ModelException expected) {
                // charged below
            }
        }
        assertThat(meter.costUsd()).isEqualByComparingTo("3"); // 1M input tokens at $2/M, then 1M at $1/M
        assertThat(meter.usage().inputTokens()).isEqualTo(2_000_000);
    }
}
