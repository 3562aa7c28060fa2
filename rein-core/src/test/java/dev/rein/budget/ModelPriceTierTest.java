package dev.rein.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * A service tier's price and the base price's cache write classes: a provider prices a tier's cache writes as the same
 * multiples of the tier's own input rate, so neither the base's rates nor the tier's plain cache write rate is right
 * for a class the tier's price leaves out.
 */
class ModelPriceTierTest {
    private static final ModelPrice BASE = ModelPrice.of("3", "0.3", "3.75", "15").withCacheWriteClass("1h", "6");

    @Test
    void aTierPriceWithoutTheBaseCacheWriteClassesIsRefusedSayingWhatToGive() {
        assertThatThrownBy(() -> BASE.withTier("priority", ModelPrice.of("6", "0.6", "30")))
                .isInstanceOf(ReinException.class)
                .hasMessage("the price of service tier 'priority' gives no rate for cache write class '1h', which the"
                        + " model's price has: its writes of that class would be priced as its plain cache writes; give"
                        + " the tier's rate with withCacheWriteClass(\"1h\", ...) on the tier's price");
        // Given the other way round: the class added to a price whose tier has none
        ModelPrice tiered = ModelPrice.of("3", "0.3", "3.75", "15").withTier("priority", ModelPrice.of("6", "0.6", "7.5", "30"));
        assertThatThrownBy(() -> tiered.withCacheWriteClass("1h", "6")).isInstanceOf(ReinException.class)
                .hasMessageContaining("service tier 'priority' gives no rate for cache write class '1h'");
    }

    @Test
    void aTierWithItsOwnCacheWriteClassRatesPricesItsWritesAtThem() {
        ModelPrice price = BASE.withTier("priority", ModelPrice.of("6", "0.6", "7.5", "30").withCacheWriteClass("1h", "12"));
        Usage usage = Usage.of(0, 0, 0, 1_000_000).withCacheWriteDetail("1h", 400_000);
        // 600,000 5-minute writes at 7.5 and 400,000 1-hour writes at 12
        assertThat(price.cost(usage, "priority")).isEqualByComparingTo(new BigDecimal("9.3"));
        assertThat(price.cost(usage, null)).isEqualByComparingTo(new BigDecimal("4.65"));
        // A price without cache write classes takes a tier as before
        assertThat(ModelPrice.of("3", "0.3", "15").withTier("flex", ModelPrice.of("1.5", "0.15", "7.5")).pricesTier("flex"))
                .isTrue();
    }
}
