package dev.rein.budget;

import dev.rein.ReinException;
import dev.rein.model.ModelIds;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Prices by model name. Immutable; {@link #with} returns an extended copy. A dated model id such
 * as {@code some-model-20261015} is priced by its base name {@code some-model} when only that is
 * listed. Each model provider publishes its table ({@code ModelProvider#prices()}), its rows marked as its vendor's
 * ({@link #ofVendor}), so that a gateway's name for one of them ({@code openai/gpt-5}) finds its price.
 */
public final class PriceTable {
    /** A dot between two digits: a version's, as OpenRouter writes it (claude-sonnet-4.5 for claude-sonnet-4-5). */
    private static final java.util.regex.Pattern VERSION_DOT = java.util.regex.Pattern.compile("(?<=\\d)\\.(?=\\d)");
    private final Map<String, ModelPrice> prices;
    /** The vendor each marked row's model is of ({@link #ofVendor}); a row not in it is of no known vendor. */
    private final Map<String, String> vendors;

    private PriceTable(Map<String, ModelPrice> prices, Map<String, String> vendors) {
        this.prices = prices;
        this.vendors = vendors;
    }

    /** An empty table. */
    public static PriceTable empty() {
        return new PriceTable(Map.of(), Map.of());
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
        // a row priced again keeps its vendor: the vendor names whose model it is, not who set the price
        return new PriceTable(java.util.Collections.unmodifiableMap(copy), vendors);
    }

    /**
     * A copy whose every row is marked as a model of {@code vendor} (a provider's table: {@code openai},
     * {@code anthropic}), so a gateway's name for it, {@code vendor/model} as OpenRouter and other gateways name the
     * models they route to ({@code openai/gpt-5}), finds its price ({@link #find}). Rows added later are not marked.
     *
     * @throws ReinException when {@code vendor} is null, blank or holds a {@code /}
     */
    public PriceTable ofVendor(String vendor) {
        if (vendor == null || vendor.isBlank() || vendor.contains("/")) {
            throw new ReinException("ofVendor was given " + (vendor == null ? "no vendor name (null)"
                    : "the vendor name '" + vendor + "'") + ": give the prefix a gateway names the vendor's models"
                    + " with, without '/', e.g. ofVendor(\"openai\") for openai/gpt-5");
        }
        Map<String, String> marked = new java.util.HashMap<>(vendors);
        prices.keySet().forEach(model -> marked.put(model, vendor));
        return new PriceTable(prices, java.util.Collections.unmodifiableMap(marked));
    }

    /**
     * The price of {@code model}: an exact entry, else that of the listed name it extends with a date
     * ({@link ModelIds#dates}: {@code -20261015}, {@code -2024-08-06}, {@code -2026}: "-", at least four digits, then digits and
     * hyphens only). A name extended otherwise is another model, often a dearer one ({@code o3-pro}
     * costs ten times {@code o3}), so it is not priced as its stem; so is one extended by a shorter
     * number, a version ({@code claude-fable-5-2} is not {@code claude-fable-5}, and costs less).
     * A gateway's name {@code vendor/model} with no row of its own is priced as {@code model} (exact or dated) when that
     * row is marked as {@code vendor}'s ({@link #ofVendor}): {@code openai/gpt-5} as OpenAI's {@code gpt-5}; the
     * version's dots (between digits) read as hyphens when no row has them ({@code anthropic/claude-sonnet-4.5}, OpenRouter's name, as
     * {@code claude-sonnet-4-5}). Any other prefix, or a row of no or another vendor, leaves the name unpriced rather
     * than priced as another maker's model.
     */
    public Optional<ModelPrice> find(String model) {
        Optional<ModelPrice> own = find(model, null);
        int slash = model == null ? -1 : model.indexOf('/');
        if (own.isPresent() || slash <= 0 || slash == model.length() - 1 || model.indexOf('/', slash + 1) >= 0) {
            return own;
        }
        String vendor = model.substring(0, slash);
        String name = model.substring(slash + 1);
        Optional<ModelPrice> found = find(name, vendor);
        // only a version's dot, between digits (claude-sonnet-4.5): a dot elsewhere (gpt.5) is no spelling of a row's name
        String hyphened = VERSION_DOT.matcher(name).replaceAll("-");
        return found.isPresent() || hyphened.equals(name) ? found : find(hyphened, vendor);
    }

    /** The price of {@code model}, exact or dated, among the rows of {@code vendor} (null: every row). */
    private Optional<ModelPrice> find(String model, String vendor) {
        ModelPrice exact = prices.get(model);
        if (exact != null && (vendor == null || vendor.equals(vendors.get(model)))) {
            return Optional.of(exact);
        }
        return prices.entrySet().stream()
                .filter(e -> vendor == null || vendor.equals(vendors.get(e.getKey())))
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
        Map<String, String> marked = new java.util.HashMap<>(vendors);
        marked.putAll(other.vendors); // a row other replaces unmarked keeps this table's mark, as with() keeps it
        return new PriceTable(java.util.Collections.unmodifiableMap(copy), java.util.Collections.unmodifiableMap(marked));
    }

    public Map<String, ModelPrice> entries() {
        return prices;
    }
}
