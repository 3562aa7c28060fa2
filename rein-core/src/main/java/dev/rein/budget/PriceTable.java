package dev.rein.budget;

import dev.rein.ReinException;
import dev.rein.model.ModelIds;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Prices by model name. Immutable; {@link #with} returns an extended copy. A dated model id such
 * as {@code some-model-20261015} is priced by its base name {@code some-model} when only that is
 * listed. Each model provider publishes its table ({@code ModelProvider#prices()}).
 */
public final class PriceTable {
    private final Map<String, ModelPrice> prices;

    private PriceTable(Map<String, ModelPrice> prices) {
        this.prices = prices;
    }

    /** An empty table. */
    public static PriceTable empty() {
        return new PriceTable(Map.of());
    }

    /**
     * A copy with {@code model} priced at {@code price} (replacing any earlier entry).
     *
     * @throws ReinException when the model name is null or blank, or the price is null
     */
    public PriceTable with(String model, ModelPrice price) {
        if (model == null || model.isBlank()) {
            throw new ReinException("a price table entry was given " + (model == null ? "no model name (null)"
                    : "a blank model name ('" + model + "')") + ": name the model as requests name it, e.g."
                    + " with(\"claude-sonnet-5\", ModelPrice.of(\"3\", \"0.3\", \"15\"))");
        }
        if (price == null) {
            throw new ReinException("the price table entry for '" + model + "' was given no price (null): give one, e.g."
                    + " ModelPrice.of(\"3\", \"0.3\", \"15\") (ModelPrice.of(\"0\", \"0\", \"0\") for a free local model)");
        }
        Map<String, ModelPrice> copy = new LinkedHashMap<>(prices);
        copy.put(model, price);
        return new PriceTable(java.util.Collections.unmodifiableMap(copy));
    }

    /**
     * The price of {@code model}: an exact entry, else that of the listed name it extends with a date
     * ({@link ModelIds#dates}: {@code -20261015}, {@code -2024-08-06}, {@code -2026}: "-", at least four digits, then digits and
     * hyphens only). A name extended otherwise is another model, often a dearer one ({@code o3-pro}
     * costs ten times {@code o3}), so it is not priced as its stem; so is one extended by a shorter
     * number, a version ({@code claude-fable-5-2} is not {@code claude-fable-5}, and costs less).
     */
    public Optional<ModelPrice> find(String model) {
        ModelPrice exact = prices.get(model);
        if (exact != null) {
            return Optional.of(exact);
        }
        return prices.entrySet().stream()
                .filter(e -> ModelIds.dates(e.getKey(), model))
                .max((a, b) -> Integer.compare(a.getKey().length(), b.getKey().length()))
                .map(Map.Entry::getValue);
    }

    /** A copy with every entry of {@code other} added (replacing entries of the same name). */
    public PriceTable withAll(PriceTable other) {
        if (other == null) {
            throw new ReinException("withAll was given no price table (null): pass one, e.g. PriceTable.empty().with(...)");
        }
        Map<String, ModelPrice> copy = new LinkedHashMap<>(prices);
        copy.putAll(other.prices);
        return new PriceTable(java.util.Collections.unmodifiableMap(copy));
    }

    public Map<String, ModelPrice> entries() {
        return prices;
    }
}
