package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import dev.rein.model.Usage;
import org.junit.jupiter.api.Test;

/**
 * The price table against Anthropic's published prices (platform.claude.com: each model's overview,
 * the pricing page, and the release note of 2026-10-07 that cut Sonnet 5.5's cache reads to USD 0.10).
 * One million tokens of each kind shows every rate at once: input, output, cache read, 5-minute write
 * (1.25x input) and 1-hour write (2x input).
 */
class NewestModelPricesTest {

    /** The cost of 1M input, 1M output, 1M cache read, 1M 5-minute write and 1M 1-hour write. */
    private static String oneMillionOfEach(String model) {
        ModelPrice price = AnthropicProvider.PRICES.find(model)
                .orElseThrow(() -> new AssertionError(model + " has no price"));
        Usage usage = Usage.of(1_000_000, 1_000_000, 1_000_000, 2_000_000).withCacheWriteDetail(ResponseMapper.WRITE_1H, 1_000_000);
        return price.cost(usage).stripTrailingZeros().toPlainString();
    }

    /**
     * A gateway's name for a Claude model (OpenRouter's anthropic/claude-sonnet-4.5, its version with a dot) is priced at
     * Anthropic's row; another vendor's prefix is not.
     */
    @Test
    void aGatewaysNameForAClaudeModelIsPricedAtItsRow() {
        assertThat(AnthropicProvider.PRICES.find("anthropic/claude-sonnet-4.5"))
                .isEqualTo(AnthropicProvider.PRICES.find("claude-sonnet-4-5")).isPresent();
        assertThat(AnthropicProvider.PRICES.find("anthropic/claude-opus-4-1")).isEqualTo(AnthropicProvider.PRICES.find("claude-opus-4-1"));
        assertThat(AnthropicProvider.PRICES.find("openai/claude-sonnet-4-5")).isEmpty();
    }

    @Test
    void theClaude5AndLaterModelsCostWhatAnthropicPublishes() {
        // input + output + read + 5m write + 1h write
        assertThat(oneMillionOfEach("claude-sonnet-5")).as("2 + 10 + 0.20 + 2.50 + 4").isEqualTo("18.7");
        assertThat(oneMillionOfEach("claude-sonnet-5-5")).as("2 + 10 + 0.10 + 2.50 + 4").isEqualTo("18.6");
        assertThat(oneMillionOfEach("claude-opus-5-5")).as("4 + 20 + 0.20 + 5 + 8").isEqualTo("37.2");
        assertThat(oneMillionOfEach("claude-opus-5")).as("5 + 25 + 0.50 + 6.25 + 10").isEqualTo("46.75");
        assertThat(oneMillionOfEach("claude-fable-5-1")).as("10 + 50 + 0.25 + 12.50 + 20").isEqualTo("92.75");
        assertThat(oneMillionOfEach("claude-mythos-5-1")).isEqualTo("92.75");
        assertThat(oneMillionOfEach("claude-fable-5")).as("10 + 50 + 1 + 12.50 + 20").isEqualTo("93.5");
        assertThat(oneMillionOfEach("claude-mythos-5")).isEqualTo("93.5");
        for (String opus : new String[] {"claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5"}) {
            assertThat(oneMillionOfEach(opus)).as(opus + ": 5 + 25 + 0.50 + 6.25 + 10").isEqualTo("46.75");
        }
        assertThat(oneMillionOfEach("claude-sonnet-4-6")).as("3 + 15 + 0.30 + 3.75 + 6").isEqualTo("28.05");
    }

    /**
     * Probe: Opus 4.6 and Sonnet 4.6 have one price across their 1M-token window (their model pages on
     * platform.claude.com list no other; the long-context premium ended when the window became generally
     * available for them, 2026-03-13), where Sonnet 4 and 4.5 cost their long-context rates past 200,000.
     */
    @Test
    void opus46AndSonnet46CostTheirStandardRatesAcrossTheWholeWindow() {
        Usage large = Usage.of(900_000, 10_000, 0, 0);
        assertThat(AnthropicProvider.PRICES.find("claude-opus-4-6").orElseThrow().cost(large)).as("0.9 x 5 + 0.01 x 25")
                .isEqualByComparingTo("4.75");
        assertThat(AnthropicProvider.PRICES.find("claude-sonnet-4-6").orElseThrow().cost(large)).as("0.9 x 3 + 0.01 x 15")
                .isEqualByComparingTo("2.85");
        assertThat(AnthropicProvider.PRICES.find("claude-sonnet-4-5").orElseThrow().cost(large)).as("0.9 x 6 + 0.01 x 22.50")
                .isEqualByComparingTo("5.625");
    }

    @Test
    void haiku55CostsFiveTimesAsMuchForAPromptOverOneHundredThousandTokens() {
        ModelPrice haiku = AnthropicProvider.PRICES.find("claude-haiku-5-5").orElseThrow();
        // Up to 100,000 prompt tokens: input 0.10, output 0.50, cache read 0.01, writes 0.125 / 0.20.
        assertThat(haiku.cost(Usage.of(100_000, 10_000, 0, 0))).isEqualByComparingTo("0.015");
        assertThat(haiku.cost(Usage.of(50_000, 0, 40_000, 10_000))).as("cache reads and writes count toward the 100,000")
                .isEqualByComparingTo("0.00665");
        // Over it: input 0.50, output 2.50, cache read 0.05, writes 0.625 / 1.00, on every token of the request.
        assertThat(haiku.cost(Usage.of(100_001, 10_000, 0, 0))).isEqualByComparingTo("0.0750005");
        assertThat(haiku.cost(Usage.of(50_000, 0, 40_000, 20_000).withCacheWriteDetail(ResponseMapper.WRITE_1H, 10_000)))
                .isEqualByComparingTo("0.04325");
    }

    @Test
    void aNewerModelIsNotPricedAsTheModelItsNameExtends() {
        // claude-sonnet-5-5 reads like claude-sonnet-5 with a date: it is another model with its own price.
        assertThat(AnthropicProvider.PRICES.find("claude-sonnet-5-5").orElseThrow().cacheReadPerMTok())
                .isEqualByComparingTo("0.10");
        assertThat(AnthropicProvider.PRICES.find("claude-sonnet-5").orElseThrow().cacheReadPerMTok())
                .isEqualByComparingTo("0.20");
        // Nor one the table does not list: Fable 5.2 is not Fable 5 (its price differs), so it has none
        // here, and a money budget for it asks for one rather than count it at Fable 5's rates.
        assertThat(AnthropicProvider.PRICES.find("claude-fable-5-2")).isEmpty();
        assertThat(AnthropicProvider.PRICES.find("claude-opus-5-6")).isEmpty();
        // A date still names the same model, and the documented alias of Sonnet 4 is listed.
        assertThat(AnthropicProvider.PRICES.find("claude-haiku-4-5-20251001")).isPresent();
        assertThat(AnthropicProvider.PRICES.find("claude-sonnet-4-0")).isPresent();
    }
}
