package dev.rein.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * A money limit given with an exponent ("1e-7", "-1e1") is said as the plain decimal USD amount it is,
 * as every other message and the price refusals do: it was said as "USD 1E-7" and "was -1E+1".
 */
class MoneyLimitWordingTest {
    @Test
    void aLimitGivenWithAnExponentIsSaidAsAPlainDecimal() {
        Budget budget = Budget.builder().maxCostUsd("1e-7").build();
        BudgetMeter meter = new BudgetMeter(budget, PriceTable.empty().with("m", ModelPrice.of("1000", "0", "1000")), "m",
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), Instant.EPOCH);
        meter.record(Usage.of(100, 0, 0, 0));
        assertThat(meter.check()).contains(BudgetKind.COST);
        assertThat(meter.describe(BudgetKind.COST)).startsWith("the cost limit of USD 0.0000001 was reached (spent USD 0.1");
        assertThatThrownBy(() -> Budget.builder().maxCostUsd("-1e1").build()).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("maxCostUsd must be positive, was -10");
    }
}
