package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import dev.rein.model.Usage;
import org.junit.jupiter.api.Test;

/**
 * Claude Sonnet 4 and 4.5 with the 1M-token context window (AnthropicBetas.of("context-1m-2025-08-07"))
 * charge a request of more than 200K input tokens, cache reads and writes included, at the long
 * context rates: input USD 6 and output USD 22.50 per million, cache prices derived from that input.
 */
class LongContextPricingTest {

    @Test
    void aSonnet45RequestOverTwoHundredThousandInputTokensCostsTheLongContextRates() {
        ModelPrice sonnet45 = AnthropicProvider.PRICES.find("claude-sonnet-4-5-20250929").orElseThrow();
        assertThat(sonnet45.cost(Usage.of(200_000, 1_000, 0, 0))).as("at the threshold: the standard rates")
                .isEqualByComparingTo("0.615");
        assertThat(sonnet45.cost(Usage.of(250_000, 1_000, 0, 0))).isEqualByComparingTo("1.5225");
        // Cache reads and writes count toward the threshold and are priced from the long-context input.
        assertThat(sonnet45.cost(Usage.of(10_000, 1_000, 190_001, 1_000))).isEqualByComparingTo("0.2040006");
        assertThat(sonnet45.cost(Usage.of(10_000, 0, 0, 200_000).withCacheWriteDetail("1h", 200_000)))
                .as("1-hour writes at 2x the long-context input").isEqualByComparingTo("2.46");
        // Web searches cost the same either way.
        assertThat(sonnet45.cost(Usage.of(250_000, 1_000, 0, 0).withServerToolUses("web_search", 2)))
                .isEqualByComparingTo("1.5425");
        assertThat(AnthropicProvider.PRICES.find("claude-sonnet-4").orElseThrow().cost(Usage.of(250_000, 1_000, 0, 0)))
                .isEqualByComparingTo("1.5225");
    }

    @Test
    void modelsWithoutLongContextRatesKeepTheirRatesAtAnySize() {
        assertThat(AnthropicProvider.PRICES.find("claude-haiku-4-5").orElseThrow().cost(Usage.of(250_000, 1_000, 0, 0)))
                .isEqualByComparingTo("0.255");
    }

    @Test
    void thePriceTableKeepsItsLongContextAndPerUsePricesThroughJson() throws Exception {
        // A Temporal run carries its agent's price table in its input, written and read with the stored mapper.
        for (java.util.Map.Entry<String, ModelPrice> entry : AnthropicProvider.PRICES.entries().entrySet()) {
            String json = dev.rein.json.Json.storedMapper().writeValueAsString(entry.getValue());
            assertThat(dev.rein.json.Json.storedMapper().readValue(json, ModelPrice.class)).as(entry.getKey() + ": " + json)
                    .isEqualTo(entry.getValue());
        }
    }
}
