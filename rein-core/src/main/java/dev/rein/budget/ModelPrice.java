package dev.rein.budget;

import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * USD prices per million tokens for one model: uncached input, cache reads, cache writes and
 * output, plus optional prices for provider-specific cache write classes (see
 * {@link Usage#cacheWriteDetail()}); writes of a class without its own price cost
 * {@code cacheWritePerMTok}.
 */
public record ModelPrice(BigDecimal inputPerMTok, BigDecimal cacheReadPerMTok, BigDecimal cacheWritePerMTok,
                         BigDecimal outputPerMTok, Map<String, BigDecimal> cacheWriteClassPerMTok) {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    public ModelPrice {
        Objects.requireNonNull(inputPerMTok, "inputPerMTok");
        Objects.requireNonNull(cacheReadPerMTok, "cacheReadPerMTok");
        Objects.requireNonNull(cacheWritePerMTok, "cacheWritePerMTok");
        Objects.requireNonNull(outputPerMTok, "outputPerMTok");
        cacheWriteClassPerMTok = cacheWriteClassPerMTok == null ? Map.of() : Map.copyOf(cacheWriteClassPerMTok);
        if (inputPerMTok.signum() < 0 || cacheReadPerMTok.signum() < 0 || cacheWritePerMTok.signum() < 0
                || outputPerMTok.signum() < 0 || cacheWriteClassPerMTok.values().stream().anyMatch(p -> p.signum() < 0)) {
            throw new ReinException("model prices cannot be negative");
        }
    }

    /** Prices in USD per million tokens: input, cache read, output; cache writes cost like input. */
    public static ModelPrice of(String input, String cacheRead, String output) {
        return of(input, cacheRead, input, output);
    }

    /** Prices in USD per million tokens: input, cache read, cache write, output. */
    public static ModelPrice of(String input, String cacheRead, String cacheWrite, String output) {
        return new ModelPrice(new BigDecimal(input), new BigDecimal(cacheRead), new BigDecimal(cacheWrite),
                new BigDecimal(output), Map.of());
    }

    /** A copy that prices cache writes of the provider-specific class {@code writeClass} at {@code perMTok}. */
    public ModelPrice withCacheWriteClass(String writeClass, String perMTok) {
        Map<String, BigDecimal> classes = new TreeMap<>(cacheWriteClassPerMTok);
        classes.put(writeClass, new BigDecimal(perMTok));
        return new ModelPrice(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, classes);
    }

    /** The cost in USD of one call's usage, counting every kind of token. */
    public BigDecimal cost(Usage usage) {
        long plainWrites = usage.cacheWriteInputTokens();
        BigDecimal perMillion = inputPerMTok.multiply(BigDecimal.valueOf(usage.inputTokens()))
                .add(outputPerMTok.multiply(BigDecimal.valueOf(usage.outputTokens())))
                .add(cacheReadPerMTok.multiply(BigDecimal.valueOf(usage.cacheReadInputTokens())));
        for (Map.Entry<String, Long> detail : usage.cacheWriteDetail().entrySet()) {
            BigDecimal price = cacheWriteClassPerMTok.get(detail.getKey());
            if (price != null) {
                perMillion = perMillion.add(price.multiply(BigDecimal.valueOf(detail.getValue())));
                plainWrites -= detail.getValue();
            }
        }
        perMillion = perMillion.add(cacheWritePerMTok.multiply(BigDecimal.valueOf(plainWrites)));
        return perMillion.divide(MILLION, MathContext.DECIMAL64);
    }
}
