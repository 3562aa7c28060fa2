package dev.rein.cli;

import dev.rein.budget.ModelPrice;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The value of {@code --price INPUT,OUTPUT[,CACHE_READ[,CACHE_WRITE]]}: USD per million tokens of
 * uncached input, output, input read from the prompt cache and input written to it. An omitted
 * cache-read price is the input price and an omitted cache-write price 1.25 x the input price, so
 * a short price never counts a call as cheaper than it may be.
 */
record PriceSpec(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite) {
    static final String FORMAT = "INPUT,OUTPUT[,CACHE_READ[,CACHE_WRITE]]";
    private static final BigDecimal WRITE_FACTOR = new BigDecimal("1.25");
    /** The highest price taken: USD 1,000,000 per million tokens, a dollar a token. */
    static final BigDecimal MOST = new BigDecimal("1000000");

    PriceSpec {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(cacheRead, "cacheRead");
        Objects.requireNonNull(cacheWrite, "cacheWrite");
    }

    /** The core's price: input, cache read, cache write, output. */
    ModelPrice toModelPrice() {
        return new ModelPrice(input, cacheRead, cacheWrite, output, Map.of());
    }

    /**
     * The core's price with what {@code table} (the provider's price of the same model, or null)
     * has beyond the four token rates: per-use prices (a web search) as they are, and the rates of
     * provider-specific cache write classes (Anthropic's 1-hour writes), of long requests and of
     * service tiers as the same multiples of these rates as in the table. A user who overrides the token prices (a
     * discount, a gateway, a price change) so still pays the provider's extras, and a {@code 0,0}
     * price makes the extra token rates free too.
     */
    ModelPrice toModelPrice(ModelPrice table) {
        if (table == null) {
            return toModelPrice();
        }
        ModelPrice price = withLongContext(new ModelPrice(input, cacheRead, cacheWrite, output,
                classes(table.cacheWriteClassPerMTok(), table), table.perUse(), null), table, table);
        for (Map.Entry<String, ModelPrice> tier : table.tiers().entrySet()) {
            // a service tier's rates (OpenAI's flex, priority) as the same multiples of the given ones as in the table
            price = price.withTier(tier.getKey(), withLongContext(scaled(tier.getValue(), table), tier.getValue(), table));
        }
        return price;
    }

    /** {@code price} with {@code rates}' long-context rates scaled as {@link #scaled(ModelPrice, ModelPrice)} does. */
    private ModelPrice withLongContext(ModelPrice price, ModelPrice rates, ModelPrice table) {
        if (rates.longContext() == null) {
            return price;
        }
        return price.withLongContext(rates.longContext().aboveInputTokens(), scaled(rates.longContext().price(), table));
    }

    /** {@code rates}' token rates as the same multiples of this spec's rates as they are of {@code table}'s. */
    private ModelPrice scaled(ModelPrice rates, ModelPrice table) {
        return new ModelPrice(
                scaled(rates.inputPerMTok(), table.inputPerMTok(), input),
                scaled(rates.cacheReadPerMTok(), table.cacheReadPerMTok(), cacheRead),
                scaled(rates.cacheWritePerMTok(), table.cacheWritePerMTok(), cacheWrite),
                scaled(rates.outputPerMTok(), table.outputPerMTok(), output),
                classes(rates.cacheWriteClassPerMTok(), table), rates.perUse(), null);
    }

    /** Cache write classes, priced as multiples of the input rate (Anthropic's: 2 x input for 1-hour writes). */
    private Map<String, BigDecimal> classes(Map<String, BigDecimal> rates, ModelPrice table) {
        Map<String, BigDecimal> scaled = new java.util.TreeMap<>();
        rates.forEach((writeClass, rate) -> scaled.put(writeClass, scaled(rate, table.inputPerMTok(), input)));
        return scaled;
    }

    /** {@code rate} times given / base; a rate the table has over a free base cannot be scaled and is kept. */
    private static BigDecimal scaled(BigDecimal rate, BigDecimal base, BigDecimal given) {
        if (base.signum() == 0) {
            return rate.signum() == 0 ? given : rate;
        }
        return rate.multiply(given).divide(base, java.math.MathContext.DECIMAL64).stripTrailingZeros();
    }

    /** Parses {@code 2.50,10} or {@code 2.50,10,1.25,0}. */
    static PriceSpec parse(String value) {
        String[] parts = value.strip().split(",", -1);
        if (parts.length < 2 || parts.length > 4) {
            throw new TypeConversionException("'" + value + "' is not " + FORMAT + " (USD per million tokens),"
                    + " e.g. 2.50,10 or, for a local server, 0,0");
        }
        BigDecimal input = number(parts[0], "INPUT", value);
        BigDecimal output = number(parts[1], "OUTPUT", value);
        BigDecimal read = parts.length > 2 ? number(parts[2], "CACHE_READ", value) : input;
        BigDecimal write = parts.length > 3 ? number(parts[3], "CACHE_WRITE", value) : input.multiply(WRITE_FACTOR);
        return new PriceSpec(input, output, read, write);
    }

    private static BigDecimal number(String text, String part, String value) {
        try {
            BigDecimal number = new BigDecimal(text.strip());
            if (number.signum() < 0) {
                throw new TypeConversionException(part + " in '" + value + "' is negative; prices are USD per million tokens, 0 or more");
            }
            if (number.compareTo(MOST) > 0) {
                // the dearest models cost a few hundred: more is a slip, and 1e400 was taken and its cost printed in full
                throw new TypeConversionException(part + " in '" + value + "' is " + text.strip() + ", more than "
                        + MOST.toPlainString() + " USD per million tokens (a dollar a token); give " + FORMAT
                        + " in USD per million tokens, each from 0 to " + MOST.toPlainString() + ", e.g. 2.50,10");
            }
            return number;
        } catch (NumberFormatException e) {
            throw new TypeConversionException(part + " in '" + value + "' is not a number; give " + FORMAT
                    + " in USD per million tokens, e.g. 2.50,10");
        }
    }

    /** The picocli converter. */
    static final class Converter implements ITypeConverter<PriceSpec> {
        @Override
        public PriceSpec convert(String value) {
            return parse(value);
        }
    }
}
