package dev.rein.budget;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Prices by model name. Immutable; {@link #with} returns an extended copy. A dated model id such
 * as {@code claude-sonnet-5-20261015} is priced by its base name when only that is listed.
 */
public final class PriceTable {
    private static final PriceTable DEFAULTS = new PriceTable(Map.of())
            .with("claude-sonnet-5", ModelPrice.of("3.00", "0.30", "15.00"))
            .with("claude-haiku-4-5", ModelPrice.of("1.00", "0.10", "5.00"))
            .with("claude-sonnet-4-5", ModelPrice.of("3.00", "0.30", "15.00"))
            .with("claude-sonnet-4", ModelPrice.of("3.00", "0.30", "15.00"))
            .with("claude-opus-4-5", ModelPrice.of("5.00", "0.50", "25.00"))
            .with("claude-opus-4-1", ModelPrice.of("15.00", "1.50", "75.00"));

    private final Map<String, ModelPrice> prices;

    private PriceTable(Map<String, ModelPrice> prices) {
        this.prices = prices;
    }

    /** The built-in table (USD per million tokens, as published by the provider). */
    public static PriceTable defaults() {
        return DEFAULTS;
    }

    /** An empty table. */
    public static PriceTable empty() {
        return new PriceTable(Map.of());
    }

    /** A copy with {@code model} priced at {@code price} (replacing any earlier entry). */
    public PriceTable with(String model, ModelPrice price) {
        Map<String, ModelPrice> copy = new LinkedHashMap<>(prices);
        copy.put(model, price);
        return new PriceTable(java.util.Collections.unmodifiableMap(copy));
    }

    /** The price of {@code model}: an exact entry, else the longest listed name it extends with "-". */
    public Optional<ModelPrice> find(String model) {
        ModelPrice exact = prices.get(model);
        if (exact != null) {
            return Optional.of(exact);
        }
        return prices.entrySet().stream()
                .filter(e -> model.startsWith(e.getKey() + "-"))
                .max((a, b) -> Integer.compare(a.getKey().length(), b.getKey().length()))
                .map(Map.Entry::getValue);
    }

    public Map<String, ModelPrice> entries() {
        return prices;
    }
}
