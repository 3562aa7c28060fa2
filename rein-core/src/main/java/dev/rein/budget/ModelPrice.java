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
        Map<String, BigDecimal> named = new java.util.LinkedHashMap<>();
        named.put("input", inputPerMTok);
        named.put("cache read", cacheReadPerMTok);
        named.put("cache write", cacheWritePerMTok);
        named.put("output", outputPerMTok);
        cacheWriteClassPerMTok.forEach((writeClass, price) -> named.put("cache write of class '" + writeClass + "'", price));
        named.forEach((name, price) -> {
            if (price.signum() < 0) {
                throw new ReinException("model prices cannot be negative, was " + name + " " + price.toPlainString());
            }
        });
    }

    /** A price given as text: a configuration error naming it when it is missing or not a decimal number. */
    private static BigDecimal price(String name, String text) {
        if (text == null) {
            throw new ReinException("the " + name + " price is missing (null): give USD per million tokens as a decimal,"
                    + " e.g. \"3.00\" (\"0\" for free)");
        }
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw new ReinException("the " + name + " price '" + text + "' is not a number: write USD per million tokens as"
                    + " a decimal with a point, e.g. \"3.00\"");
        }
    }

    /**
     * Prices in USD per million tokens: input, cache read, output; cache writes cost like input.
     *
     * @throws ReinException naming the price when one is null, negative or not a decimal number
     */
    public static ModelPrice of(String input, String cacheRead, String output) {
        return of(input, cacheRead, input, output);
    }

    /**
     * Prices in USD per million tokens: input, cache read, cache write, output.
     *
     * @throws ReinException naming the price when one is null, negative or not a decimal number
     */
    public static ModelPrice of(String input, String cacheRead, String cacheWrite, String output) {
        return new ModelPrice(price("input", input), price("cache read", cacheRead), price("cache write", cacheWrite),
                price("output", output), Map.of());
    }

    /** A copy that prices cache writes of the provider-specific class {@code writeClass} at {@code perMTok}. */
    public ModelPrice withCacheWriteClass(String writeClass, String perMTok) {
        Map<String, BigDecimal> classes = new TreeMap<>(cacheWriteClassPerMTok);
        classes.put(writeClass, price("cache write of class '" + writeClass + "'", perMTok));
        return new ModelPrice(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, classes);
    }

    /** The cost in USD of one call's usage, counting every kind of token. */
    public BigDecimal cost(Usage usage) {
        long plainWrites = usage.cacheWriteInputTokens();
        Sum perMillion = new Sum();
        perMillion.add(inputPerMTok, usage.inputTokens());
        perMillion.add(outputPerMTok, usage.outputTokens());
        perMillion.add(cacheReadPerMTok, usage.cacheReadInputTokens());
        if (!usage.cacheWriteDetail().isEmpty()) {
            for (Map.Entry<String, Long> detail : usage.cacheWriteDetail().entrySet()) {
                BigDecimal price = cacheWriteClassPerMTok.get(detail.getKey());
                if (price != null) {
                    perMillion.add(price, detail.getValue());
                    plainWrites -= detail.getValue();
                }
            }
        }
        perMillion.add(cacheWritePerMTok, plainWrites);
        return perMillion.total().divide(MILLION, MathContext.DECIMAL64);
    }

    /**
     * The exact sum of price × tokens over the kinds of token. A kind not used adds a zero, which
     * changes nothing but the scale of the sum (an exact sum has the larger scale of its terms, and
     * the scale carries into the quotient); so it is not multiplied and added, only its scale is
     * kept. The total has the value and the scale of adding every product.
     */
    private static final class Sum {
        private BigDecimal sum;
        private int scale = Integer.MIN_VALUE;

        void add(BigDecimal price, long tokens) {
            scale = Math.max(scale, price.scale()); // the product's scale: the price's plus 0
            if (tokens != 0) {
                BigDecimal product = price.multiply(BigDecimal.valueOf(tokens));
                sum = sum == null ? product : sum.add(product);
            }
        }

        BigDecimal total() {
            if (sum == null) {
                return BigDecimal.valueOf(0, scale);
            }
            return sum.scale() < scale ? sum.setScale(scale) : sum;
        }
    }
}
