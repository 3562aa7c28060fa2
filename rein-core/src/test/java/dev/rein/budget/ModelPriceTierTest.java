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
                .hasMessage("the price of service tier 'priority', given with withTier before, gives no rate for cache write"
                        + " class '1h', which is being added to the model's price: its writes of that class would be priced as"
                        + " its plain cache writes; give the tier's price again with the class's rate first,"
                        + " withTier(\"priority\", tierPrice.withCacheWriteClass(\"1h\", rate)), then add the class");
        // as it says: the tier given again with the class, then the class added
        assertThat(tiered.withTier("priority", ModelPrice.of("6", "0.6", "7.5", "30").withCacheWriteClass("1h", "12"))
                .withCacheWriteClass("1h", "6").cacheWriteClassPerMTok()).containsOnlyKeys("1h");
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

    @Test
    void aLongContextPriceWithoutTheCacheWriteClassesOfThePriceItExtendsIsRefused() throws Exception {
        ModelPrice tierLong = ModelPrice.of("12", "1.2", "15", "45");
        assertThatThrownBy(() -> BASE.withTier("priority", ModelPrice.of("6", "0.6", "7.5", "30")
                .withCacheWriteClass("1h", "12").withLongContext(200_000, tierLong)))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("the long-context price gives no rate for cache write class '1h'");
        // a tier price built with the constructor is checked when it is given to withTier
        ModelPrice tierBuilt = new ModelPrice(new BigDecimal("6"), new BigDecimal("0.6"), new BigDecimal("7.5"),
                new BigDecimal("30"), java.util.Map.of("1h", new BigDecimal("12")), java.util.Map.of(),
                new ModelPrice.LongContext(200_000, tierLong));
        assertThatThrownBy(() -> BASE.withTier("priority", tierBuilt))
                .isInstanceOf(ReinException.class)
                .hasMessage("the long-context price of service tier 'priority' gives no rate for cache write class '1h',"
                        + " which the tier's price has: its writes of that class in a call of more than 200000 input tokens"
                        + " would be priced as its plain cache writes; give the rate with withCacheWriteClass(\"1h\", ...) on"
                        + " the long-context price");
        assertThatThrownBy(() -> BASE.withLongContext(200_000, ModelPrice.of("6", "0.6", "7.5", "22.5")))
                .isInstanceOf(ReinException.class)
                .hasMessage("the long-context price gives no rate for cache write class '1h', which the model's price has:"
                        + " its writes of that class in a call of more than 200000 input tokens would be priced as its plain"
                        + " cache writes; give the rate with withCacheWriteClass(\"1h\", ...) on the long-context price");
        // Given the other way round: the class added to a price whose long-context price has none
        ModelPrice longer = ModelPrice.of("3", "0.3", "3.75", "15").withLongContext(200_000, ModelPrice.of("6", "0.6", "7.5", "22.5"));
        // It said to give the rate "on the long-context price", which is attached already and cannot be changed there
        assertThatThrownBy(() -> longer.withCacheWriteClass("1h", "6")).isInstanceOf(ReinException.class)
                .hasMessage("the long-context price, given with withLongContext before, gives no rate for cache write class"
                        + " '1h', which is being added to the model's price: its writes of that class in a call of more"
                        + " than 200000 input tokens would be priced as its plain cache writes; give the long-context price"
                        + " again with the class's rate first, withLongContext(200000,"
                        + " longContextPrice.withCacheWriteClass(\"1h\", rate)), then add the class");
        // as it says: the long-context price given again with the class, then the class added
        assertThat(longer.withLongContext(200_000, ModelPrice.of("6", "0.6", "7.5", "22.5").withCacheWriteClass("1h", "12"))
                .withCacheWriteClass("1h", "6").cacheWriteClassPerMTok()).containsOnlyKeys("1h");

        // Given with the class, each prices 1-hour writes above the threshold at its long-context rate
        ModelPrice price = BASE.withLongContext(200_000, ModelPrice.of("6", "0.6", "7.5", "22.5").withCacheWriteClass("1h", "12"))
                .withTier("priority", ModelPrice.of("6", "0.6", "7.5", "30").withCacheWriteClass("1h", "12")
                        .withLongContext(200_000, tierLong.withCacheWriteClass("1h", "24")));
        Usage usage = Usage.of(0, 0, 0, 1_000_000).withCacheWriteDetail("1h", 400_000);
        // all 1,000,000 input tokens are above the threshold: 600,000 writes at 7.5 and 400,000 1-hour writes at 12
        assertThat(price.cost(usage, null)).isEqualByComparingTo(new BigDecimal("9.3"));
        // 600,000 writes at 15 and 400,000 1-hour writes at 24
        assertThat(price.cost(usage, "priority")).isEqualByComparingTo(new BigDecimal("18.6"));

        // A price stored before this check (a replay's recorded price) still loads as it was recorded
        ModelPrice recorded = new ModelPrice(new BigDecimal("3"), new BigDecimal("0.3"), new BigDecimal("3.75"),
                new BigDecimal("15"), java.util.Map.of("1h", new BigDecimal("6")), java.util.Map.of(),
                new ModelPrice.LongContext(200_000, ModelPrice.of("6", "0.6", "7.5", "22.5")),
                java.util.Map.of("priority", new ModelPrice(new BigDecimal("6"), new BigDecimal("0.6"), new BigDecimal("7.5"),
                        new BigDecimal("30"), java.util.Map.of("1h", new BigDecimal("12")), java.util.Map.of(),
                        new ModelPrice.LongContext(200_000, tierLong))));
        String json = dev.rein.json.Json.storedMapper().writeValueAsString(recorded);
        assertThat(dev.rein.json.Json.storedMapper().readValue(json, ModelPrice.class)).isEqualTo(recorded);
    }
}
