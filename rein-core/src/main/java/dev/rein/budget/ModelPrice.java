package dev.rein.budget;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rein.ReinException;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;
import java.util.TreeMap;

/**
 * USD prices per million tokens for one model: uncached input, cache reads, cache writes and
 * output, plus optional prices for provider-specific cache write classes (see
 * {@link Usage#cacheWriteDetail()}); writes of a class without its own price cost
 * {@code cacheWritePerMTok}. Tools the provider runs itself and bills per use (see {@link
 * Usage#serverToolUses()}) cost {@code perUse} USD per use, on top of the tokens; one without a
 * price here costs nothing more than its tokens. A model whose provider charges other token rates
 * for a request beyond a size ({@code longContext}: a 1M-token context window's request of more
 * than 200K input tokens) prices such a call's tokens at those rates. A provider that serves a call at another
 * service tier than its standard one, at other rates, names that tier on the response ({@link
 * dev.rein.model.ModelResponse#serviceTier()}); {@code tiers} holds those tiers' token rates by the provider's name
 * for them (such as {@code "flex"} or {@code "priority"}), and a call served at a tier without a price here is
 * priced at this (base) price, which the run's trace then says.
 */
public record ModelPrice(BigDecimal inputPerMTok, BigDecimal cacheReadPerMTok, BigDecimal cacheWritePerMTok,
                         BigDecimal outputPerMTok, Map<String, BigDecimal> cacheWriteClassPerMTok,
                         Map<String, BigDecimal> perUse, LongContext longContext,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, ModelPrice> tiers) {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /**
     * The token rates of a call whose input, cache reads and writes included ({@link
     * Usage#totalInputTokens()}), is more than {@code aboveInputTokens}; its per-use prices are the
     * model's own.
     */
    public record LongContext(long aboveInputTokens, ModelPrice price) {
        public LongContext {
            if (price == null) {
                throw new ReinException("the long-context price is missing (null): give the token rates of a call of more"
                        + " than " + aboveInputTokens + " input tokens, e.g. ModelPrice.of(\"6\", \"0.6\", \"22.5\"), with"
                        + " withCacheWriteClass(writeClass, rate) for each cache write class the model's price has");
            }
            if (aboveInputTokens < 0) {
                throw new ReinException("a long-context threshold cannot be negative, was " + aboveInputTokens);
            }
            if (price.longContext() != null) {
                throw new ReinException("the long-context price of a model cannot have a long-context price of its own");
            }
            if (!price.tiers().isEmpty()) {
                // a call's tier is looked up on the model's price, so these rates would be silently never used
                String tier = price.tiers().keySet().iterator().next();
                throw new ReinException("the long-context price cannot have service tier prices of its own (it has '"
                        + String.join("', '", price.tiers().keySet()) + "'): give a tier's long-context rates on the tier's"
                        + " price, e.g. withTier(\"" + tier + "\", tierPrice.withLongContext(" + aboveInputTokens
                        + ", ModelPrice.of(input, cacheRead, output))) on the model's price, with withCacheWriteClass(writeClass, rate)"
                        + " on the long-context price for each cache write class the tier's price has");
            }
        }
    }

    /**
     * @throws ReinException naming the price when one is null or negative, or a cache write class or tool priced
     *                       without a name
     */
    public ModelPrice {
        Map<String, BigDecimal> named = new java.util.LinkedHashMap<>();
        named.put("input", inputPerMTok);
        named.put("cache read", cacheReadPerMTok);
        named.put("cache write", cacheWritePerMTok);
        named.put("output", outputPerMTok);
        if (cacheWriteClassPerMTok != null) {
            cacheWriteClassPerMTok.forEach((writeClass, price) -> named.put("cache write of class '"
                    + requireName(writeClass, "a cache write class price was given for no class") + "'", price));
        }
        if (perUse != null) {
            perUse.forEach((tool, price) -> named.put("per-use '" + requireName(tool, "a per-use price was given for no tool")
                    + "'", price));
        }
        named.forEach((name, price) -> {
            if (price == null) {
                throw new ReinException("the " + name + " price is missing (null): give USD as a decimal, e.g."
                        + " new BigDecimal(\"3.00\") (BigDecimal.ZERO for free), or build the price with ModelPrice.of(...)");
            }
            if (price.signum() < 0) {
                throw new ReinException("model prices cannot be negative, was " + name + " " + price.toPlainString());
            }
        });
        cacheWriteClassPerMTok = cacheWriteClassPerMTok == null ? Map.of() : Map.copyOf(cacheWriteClassPerMTok);
        perUse = perUse == null ? Map.of() : Map.copyOf(perUse);
        if (tiers != null) {
            tiers.forEach((tier, price) -> requireTier(tier, price));
        }
        // absent in a price recorded before tiers were priced: no tier has its own rates
        tiers = tiers == null ? Map.of() : Map.copyOf(tiers);
    }

    /** Prices per million tokens and per use, with a long-context price or none, and no service tier of other rates. */
    public ModelPrice(BigDecimal inputPerMTok, BigDecimal cacheReadPerMTok, BigDecimal cacheWritePerMTok,
                      BigDecimal outputPerMTok, Map<String, BigDecimal> cacheWriteClassPerMTok, Map<String, BigDecimal> perUse,
                      LongContext longContext) {
        this(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, cacheWriteClassPerMTok, perUse, longContext,
                Map.of());
    }

    /** A service tier's name and price, refused when either is missing or the price has tiers of its own. */
    private static void requireTier(String tier, ModelPrice price) {
        if (tier == null || tier.isBlank()) {
            throw new ReinException("a service tier price was given for no tier (" + (tier == null ? "null" : "a blank name")
                    + "): name the tier as the provider's response does, e.g. \"flex\" or \"priority\"");
        }
        if (price == null) {
            throw new ReinException("the price of service tier '" + tier + "' is missing (null): give its token rates, e.g."
                    + " ModelPrice.of(\"1.25\", \"0.125\", \"10\")");
        }
        if (!price.tiers().isEmpty()) {
            throw new ReinException("the price of service tier '" + tier + "' cannot have service tier prices of its own:"
                    + " give each tier's price on the model's price with withTier(...)");
        }
    }

    /**
     * A tier's price prices each cache write class the model's price has: a provider prices a tier's cache writes as the
     * same multiples of the tier's own input rate as the standard ones, so neither the base's rate for a class (another
     * tier's money) nor the tier's plain cache write rate (what a class left out costs) is the tier's; the tier must say.
     */
    private static void requireClasses(String tier, ModelPrice price, Map<String, BigDecimal> classes) {
        for (String writeClass : classes.keySet()) {
            if (!price.cacheWriteClassPerMTok().containsKey(writeClass)) {
                throw new ReinException("the price of service tier '" + tier + "' gives no rate for cache write class '"
                        + writeClass + "', which the model's price has: its writes of that class would be priced as its"
                        + " plain cache writes; give the tier's rate with withCacheWriteClass(\"" + writeClass + "\", ...) on"
                        + " the tier's price");
            }
        }
    }

    /**
     * A long-context price prices each cache write class of the price it extends, for the same reason as a tier's
     * ({@link #requireClasses}): a class it left out would be priced above the threshold as its plain cache writes.
     * Checked where a price is built, not in {@link LongContext}'s constructor, so a price recorded before this check
     * (a replay's) still loads as it was recorded.
     */
    private static void requireLongContextClasses(String tier, LongContext longContext, Map<String, BigDecimal> classes) {
        if (longContext == null) {
            return;
        }
        for (String writeClass : classes.keySet()) {
            if (!longContext.price().cacheWriteClassPerMTok().containsKey(writeClass)) {
                throw new ReinException("the long-context price" + (tier == null ? "" : " of service tier '" + tier + "'")
                        + " gives no rate for cache write class '" + writeClass + "', which the "
                        + (tier == null ? "model's" : "tier's") + " price has: its writes of that class in a call of more"
                        + " than " + longContext.aboveInputTokens() + " input tokens would be priced as its plain cache"
                        + " writes; give the rate with withCacheWriteClass(\"" + writeClass + "\", ...) on the long-context"
                        + " price");
            }
        }
    }

    /** A cache write class's or a server tool's name, which its price is looked up by. */
    private static String requireName(String name, String refusal) {
        if (name == null) {
            throw new ReinException(refusal + " (null): name it as the provider's usage does (a cache write class such as"
                    + " \"ephemeral_1h_input_tokens\", a server tool such as \"web_search\")");
        }
        return name;
    }

    /** Prices per million tokens, with no server tool priced per use and the same rates at any size. */
    public ModelPrice(BigDecimal inputPerMTok, BigDecimal cacheReadPerMTok, BigDecimal cacheWritePerMTok,
                      BigDecimal outputPerMTok, Map<String, BigDecimal> cacheWriteClassPerMTok) {
        this(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, cacheWriteClassPerMTok, Map.of(), null);
    }

    /** Prices per million tokens and per use, with the same rates at any size. */
    public ModelPrice(BigDecimal inputPerMTok, BigDecimal cacheReadPerMTok, BigDecimal cacheWritePerMTok,
                      BigDecimal outputPerMTok, Map<String, BigDecimal> cacheWriteClassPerMTok, Map<String, BigDecimal> perUse) {
        this(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, cacheWriteClassPerMTok, perUse, null);
    }

    /** A price given as text: a configuration error naming it when it is missing or not a decimal number. */
    private static BigDecimal price(String name, String text) {
        return price(name, text, "USD per million tokens", "3.00");
    }

    private static BigDecimal price(String name, String text, String unit, String example) {
        if (text == null) {
            throw new ReinException("the " + name + " price is missing (null): give " + unit + " as a decimal,"
                    + " e.g. \"" + example + "\" (\"0\" for free)");
        }
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw new ReinException("the " + name + " price '" + text + "' is not a number: write " + unit + " as"
                    + " a decimal with a point, e.g. \"" + example + "\"");
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

    /**
     * A copy that prices cache writes of the provider-specific class {@code writeClass} at {@code perMTok}.
     *
     * @throws ReinException when the rate is missing or not a decimal, or a service tier priced here gives no rate for
     *                       that class, or the long-context price gives none (give that price again with the class, with
     *                       {@link #withTier} or {@link #withLongContext}, before adding it here)
     */
    public ModelPrice withCacheWriteClass(String writeClass, String perMTok) {
        requireName(writeClass, "a cache write class price was given for no class");
        Map<String, BigDecimal> classes = new TreeMap<>(cacheWriteClassPerMTok);
        classes.put(writeClass, price("cache write of class '" + writeClass + "'", perMTok));
        // the tier and long-context prices are attached already: the advice is to give them again with the class, not
        // to add it "on" a price that can no longer be changed where it is
        tiers.forEach((tier, price) -> {
            if (!price.cacheWriteClassPerMTok().containsKey(writeClass)) {
                throw new ReinException("the price of service tier '" + tier + "', given with withTier before, gives no"
                        + " rate for cache write class '" + writeClass + "', which is being added to the model's price: its"
                        + " writes of that class would be priced as its plain cache writes; give the tier's price again with"
                        + " the class's rate first, withTier(\"" + tier + "\", tierPrice.withCacheWriteClass(\"" + writeClass
                        + "\", rate)), then add the class");
            }
        });
        if (longContext != null && !longContext.price().cacheWriteClassPerMTok().containsKey(writeClass)) {
            throw new ReinException("the long-context price, given with withLongContext before, gives no rate for cache"
                    + " write class '" + writeClass + "', which is being added to the model's price: its writes of that"
                    + " class in a call of more than " + longContext.aboveInputTokens() + " input tokens would be priced"
                    + " as its plain cache writes; give the long-context price again with the class's rate first,"
                    + " withLongContext(" + longContext.aboveInputTokens() + ", longContextPrice.withCacheWriteClass(\""
                    + writeClass + "\", rate)), then add the class");
        }
        // the classes given before, which a price built with the constructor may still lack
        tiers.forEach((tier, price) -> requireClasses(tier, price, classes));
        requireLongContextClasses(null, longContext, classes);
        return new ModelPrice(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, classes, perUse, longContext,
                tiers);
    }

    /**
     * A copy that prices each use of the provider's server tool {@code tool} (as named in {@link
     * Usage#serverToolUses()}, such as {@code web_search}) at {@code usd}, on top of the tokens.
     *
     * @throws ReinException naming the price when it is null, negative or not a decimal number
     */
    public ModelPrice withPerUse(String tool, String usd) {
        requireName(tool, "a per-use price was given for no tool");
        Map<String, BigDecimal> prices = new TreeMap<>(perUse);
        prices.put(tool, price("per-use '" + tool + "'", usd, "USD per use", "0.01"));
        return new ModelPrice(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, cacheWriteClassPerMTok, prices,
                longContext, tiers);
    }

    /**
     * A copy whose calls of more than {@code aboveInputTokens} input tokens (cache reads and writes
     * included) have their tokens priced at {@code price}'s rates, as the provider bills a long
     * context; per-use prices stay this model's.
     *
     * @throws ReinException when the price is missing, the threshold negative, or {@code price} gives no rate for a
     *                       cache write class this price has ({@link #withCacheWriteClass})
     */
    public ModelPrice withLongContext(long aboveInputTokens, ModelPrice price) {
        LongContext longContext = new LongContext(aboveInputTokens, price);
        requireLongContextClasses(null, longContext, cacheWriteClassPerMTok);
        return new ModelPrice(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, cacheWriteClassPerMTok, perUse,
                longContext, tiers);
    }

    /**
     * A copy that prices the tokens of a call the provider served at service tier {@code tier} (as the response names
     * it, {@link dev.rein.model.ModelResponse#serviceTier()}, such as {@code "flex"} or {@code "priority"}) at {@code
     * price}'s rates, its long-context price included; per-use prices stay this model's.
     *
     * @throws ReinException when the tier is unnamed, the price missing, the price has tier prices of its own, or it
     *                       gives no rate for a cache write class this price has ({@link #withCacheWriteClass}), or its long-context
     *                       price none for a class the tier's price has
     */
    public ModelPrice withTier(String tier, ModelPrice price) {
        requireTier(tier, price);
        requireClasses(tier, price, cacheWriteClassPerMTok);
        requireLongContextClasses(tier, price.longContext(), price.cacheWriteClassPerMTok());
        Map<String, ModelPrice> prices = new TreeMap<>(tiers);
        prices.put(tier, price);
        return new ModelPrice(inputPerMTok, cacheReadPerMTok, cacheWritePerMTok, outputPerMTok, cacheWriteClassPerMTok, perUse,
                longContext, prices);
    }

    /** Whether service tier {@code tier} has rates of its own here; null (no tier named) is the base price's. */
    public boolean pricesTier(String tier) {
        return tier == null || tiers.containsKey(tier);
    }

    /**
     * The cost in USD of one call's usage served at service tier {@code tier}: at that tier's rates when it has a
     * price here, else (a null tier too) at this base price, as {@link #cost(Usage)}.
     */
    public BigDecimal cost(Usage usage, String tier) {
        ModelPrice rates = tier == null ? null : tiers.get(tier);
        if (rates == null) {
            return cost(usage);
        }
        // the tier's token rates (its long-context ones beyond its threshold), this model's per-use prices
        return withUses(rates.withLongContextRates(usage).tokenCost(usage), usage);
    }

    /** The cost in USD of one call's usage, counting every kind of token and every use priced per use. */
    public BigDecimal cost(Usage usage) {
        return withUses(withLongContextRates(usage).tokenCost(usage), usage);
    }

    /** The rates {@code usage}'s tokens are priced at: the long-context ones beyond its threshold, else these. */
    private ModelPrice withLongContextRates(Usage usage) {
        return longContext != null && usage.totalInputTokens() > longContext.aboveInputTokens() ? longContext.price() : this;
    }

    /** {@code tokens} plus the cost of {@code usage}'s server tool uses at this model's per-use prices. */
    private BigDecimal withUses(BigDecimal tokens, Usage usage) {
        if (usage.serverToolUses().isEmpty()) {
            return tokens;
        }
        // Billed per use, not per token: a call that searched the web 3 times pays for 3 searches.
        BigDecimal uses = BigDecimal.ZERO;
        for (Map.Entry<String, Long> use : usage.serverToolUses().entrySet()) {
            BigDecimal price = perUse.get(use.getKey());
            if (price != null) {
                uses = uses.add(price.multiply(BigDecimal.valueOf(use.getValue())));
            }
        }
        return uses.signum() == 0 ? tokens : tokens.add(uses);
    }

    /** The cost in USD of one call's tokens at these rates. */
    private BigDecimal tokenCost(Usage usage) {
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
