package dev.rein.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link ModelPrice#cost} skips the kinds of token a call did not use; the cost must keep the exact
 * value and scale of the full sum (a budget compares it, a trace and a snapshot print it).
 */
class ModelPriceCostTest {
    private static final List<String> PRICES = List.of("0", "0.0", "0.00", "3", "0.3", "0.30", "15", "3.75", "1E+1", "2E+3",
            "0.000001", "1.23456789012345678901", "99999999999999.99");

    @Test
    void sameValueAndScaleAsAddingEveryProduct() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            ModelPrice price = ModelPrice.of(pick(random), pick(random), pick(random), pick(random));
            if (random.nextBoolean()) {
                price = price.withCacheWriteClass("1h", pick(random));
            }
            long write = tokens(random);
            Usage usage = Usage.of(tokens(random), tokens(random), tokens(random), write);
            if (random.nextInt(3) == 0) {
                usage = usage.withCacheWriteDetail(random.nextBoolean() ? "1h" : "5m", write == 0 ? 0 : random.nextLong(write + 1));
            }
            BigDecimal expected = everyProduct(price, usage);
            BigDecimal actual = price.cost(usage);
            assertThat(actual).as(price + " " + usage).isEqualTo(expected); // equals compares value and scale
            assertThat(actual.scale()).isEqualTo(expected.scale());
        }
    }

    @Test
    void serverToolUsesCostTheirPerUsePriceOnTopOfTheTokens() {
        ModelPrice price = ModelPrice.of("3.00", "0.30", "15.00").withPerUse("web_search", "0.01");
        Usage tokens = Usage.of(1_000, 100, 0, 0);
        assertThat(price.cost(tokens.withServerToolUses("web_search", 3))).isEqualByComparingTo("0.0345");
        assertThat(price.cost(tokens.withServerToolUses("web_fetch", 2))).as("a tool without a per-use price: its tokens only")
                .isEqualTo(price.cost(tokens));
        assertThat(ModelPrice.of("3.00", "0.30", "15.00").cost(tokens.withServerToolUses("web_search", 3)))
                .as("a price without per-use prices: the tokens only").isEqualByComparingTo("0.0045");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> price.withPerUse("web_search", "ten"))
                .hasMessageContaining("per-use 'web_search' price 'ten' is not a number: write USD per use");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> price.withPerUse("web_search", "-0.01"))
                .hasMessageContaining("cannot be negative");
        // Carried by the other copy methods.
        assertThat(price.withCacheWriteClass("1h", "6.00").perUse()).containsKey("web_search");
    }

    /** The definition: every kind's product added, used or not, divided to 16 digits. */
    private static BigDecimal everyProduct(ModelPrice p, Usage u) {
        long plainWrites = u.cacheWriteInputTokens();
        BigDecimal perMillion = p.inputPerMTok().multiply(BigDecimal.valueOf(u.inputTokens()))
                .add(p.outputPerMTok().multiply(BigDecimal.valueOf(u.outputTokens())))
                .add(p.cacheReadPerMTok().multiply(BigDecimal.valueOf(u.cacheReadInputTokens())));
        for (Map.Entry<String, Long> detail : new TreeMap<>(u.cacheWriteDetail()).entrySet()) {
            BigDecimal classPrice = p.cacheWriteClassPerMTok().get(detail.getKey());
            if (classPrice != null) {
                perMillion = perMillion.add(classPrice.multiply(BigDecimal.valueOf(detail.getValue())));
                plainWrites -= detail.getValue();
            }
        }
        perMillion = perMillion.add(p.cacheWritePerMTok().multiply(BigDecimal.valueOf(plainWrites)));
        return perMillion.divide(BigDecimal.valueOf(1_000_000), MathContext.DECIMAL64);
    }

    private static String pick(Random random) {
        return PRICES.get(random.nextInt(PRICES.size()));
    }

    private static long tokens(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(1000);
            case 2 -> random.nextInt(2_000_000);
            default -> random.nextLong(Long.MAX_VALUE / 1_000_000_000L);
        };
    }
}
