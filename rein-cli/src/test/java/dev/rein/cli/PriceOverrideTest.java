package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * {@code --price} gives a model's token rates; what it cannot express and the provider's table has
 * for a known model (a 1-hour cache write class, a per-use web_search price, long-context rates) is
 * kept: the per-use prices as they are, the other token rates as the same multiples of the given
 * ones, so overriding the token prices never makes those uses free or cheaper than the table says.
 */
class PriceOverrideTest {

    private static ModelPrice price(String provider, String model, String spec) {
        return new ProviderSelection(provider, null, PriceSpec.parse(spec)).modelPrice(model);
    }

    @Test
    void aKnownAnthropicModelKeepsItsTablesExtrasScaledToTheGivenTokenPrices() {
        ModelPrice price = price("anthropic", "claude-sonnet-4-5", "2,10");

        assertThat(price.inputPerMTok()).isEqualByComparingTo("2");
        assertThat(price.outputPerMTok()).isEqualByComparingTo("10");
        assertThat(price.cacheReadPerMTok()).isEqualByComparingTo("2");
        assertThat(price.cacheWritePerMTok()).isEqualByComparingTo("2.5");
        assertThat(price.cacheWriteClassPerMTok().get("1h")).isEqualByComparingTo("4"); // 2 x input, as in the table
        assertThat(price.perUse().get("web_search")).isEqualByComparingTo("0.01"); // not a token price: kept
        assertThat(price.longContext()).isNotNull();
        assertThat(price.longContext().aboveInputTokens()).isEqualTo(200_000);
        ModelPrice longRates = price.longContext().price(); // the table's 6/0.60/7.50/22.50 against 3/0.30/3.75/15
        assertThat(longRates.inputPerMTok()).isEqualByComparingTo("4");
        assertThat(longRates.cacheReadPerMTok()).isEqualByComparingTo("4");
        assertThat(longRates.cacheWritePerMTok()).isEqualByComparingTo("5");
        assertThat(longRates.outputPerMTok()).isEqualByComparingTo("15");
        assertThat(longRates.cacheWriteClassPerMTok().get("1h")).isEqualByComparingTo("8");
    }

    @Test
    void aModelTheTableDoesNotKnowGetsTheGivenTokenPricesOnly() {
        ModelPrice price = price("openai", "qwen3:8b", "0,0");
        assertThat(price).isEqualTo(new ModelPrice(BigDecimal.ZERO, BigDecimal.ZERO, new BigDecimal("0.00"), BigDecimal.ZERO,
                java.util.Map.of()));
        assertThat(price.perUse()).isEmpty();
        assertThat(price.longContext()).isNull();
    }

    @Test
    void aFreeOverrideOfAKnownModelMakesItsExtraTokenRatesFreeToo() {
        ModelPrice price = price("anthropic", "claude-sonnet-4-5", "0,0");
        assertThat(price.cacheWriteClassPerMTok().get("1h")).isEqualByComparingTo("0");
        assertThat(price.longContext().price().outputPerMTok()).isEqualByComparingTo("0");
    }

    @Test
    void aTablesServiceTierRatesAreKeptScaledToTheGivenTokenPrices() {
        // no shipped table prices a tier yet; a table that does must not lose it to --price
        ModelPrice table = ModelPrice.of("4", "0.40", "5", "16")
                .withTier("priority", ModelPrice.of("8", "0.80", "10", "32")
                        .withLongContext(100_000, ModelPrice.of("16", "1.60", "20", "64")))
                .withTier("flex", ModelPrice.of("2", "0.20", "2.50", "8"));

        ModelPrice price = PriceSpec.parse("2,8,0.20,2.50").toModelPrice(table);

        assertThat(price.tiers()).containsOnlyKeys("flex", "priority");
        ModelPrice priority = price.tiers().get("priority"); // twice the table's base rates, so twice the given ones
        assertThat(priority.inputPerMTok()).isEqualByComparingTo("4");
        assertThat(priority.cacheReadPerMTok()).isEqualByComparingTo("0.40");
        assertThat(priority.cacheWritePerMTok()).isEqualByComparingTo("5");
        assertThat(priority.outputPerMTok()).isEqualByComparingTo("16");
        assertThat(priority.longContext().aboveInputTokens()).isEqualTo(100_000);
        assertThat(priority.longContext().price().outputPerMTok()).isEqualByComparingTo("32");
        assertThat(price.tiers().get("flex").outputPerMTok()).isEqualByComparingTo("4");
    }
}
