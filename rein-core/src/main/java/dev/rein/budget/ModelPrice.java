package dev.rein.budget;

import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;

/**
 * USD prices per million tokens for one model. Cache writes are derived from the input price:
 * 1.25x for a 5-minute entry, 2x for a 1-hour entry.
 */
public record ModelPrice(BigDecimal inputPerMTok, BigDecimal cacheReadPerMTok, BigDecimal outputPerMTok) {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);
    private static final BigDecimal WRITE_5M = new BigDecimal("1.25");
    private static final BigDecimal WRITE_1H = new BigDecimal("2");

    public ModelPrice {
        Objects.requireNonNull(inputPerMTok, "inputPerMTok");
        Objects.requireNonNull(cacheReadPerMTok, "cacheReadPerMTok");
        Objects.requireNonNull(outputPerMTok, "outputPerMTok");
        if (inputPerMTok.signum() < 0 || cacheReadPerMTok.signum() < 0 || outputPerMTok.signum() < 0) {
            throw new ReinException("model prices cannot be negative");
        }
    }

    /** Prices in USD per million tokens: input, cache read, output. */
    public static ModelPrice of(String input, String cacheRead, String output) {
        return new ModelPrice(new BigDecimal(input), new BigDecimal(cacheRead), new BigDecimal(output));
    }

    /** The cost in USD of one call's usage, counting every kind of token. */
    public BigDecimal cost(Usage usage) {
        BigDecimal perMillion = inputPerMTok.multiply(BigDecimal.valueOf(usage.inputTokens()))
                .add(outputPerMTok.multiply(BigDecimal.valueOf(usage.outputTokens())))
                .add(cacheReadPerMTok.multiply(BigDecimal.valueOf(usage.cacheReadInputTokens())))
                .add(inputPerMTok.multiply(WRITE_5M).multiply(BigDecimal.valueOf(usage.cacheWrite5mInputTokens())))
                .add(inputPerMTok.multiply(WRITE_1H).multiply(BigDecimal.valueOf(usage.cacheWrite1hInputTokens())));
        return perMillion.divide(MILLION, MathContext.DECIMAL64);
    }
}
