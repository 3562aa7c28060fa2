package dev.rein.cli;

import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.provider.ModelProvider;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The provider a command talks to, the base URL given with {@code --base-url} (or null) and the
 * price given with {@code --price} (or null). Kept with a run's settings so {@code resume}
 * continues on the same server at the same price.
 */
record ProviderSelection(String provider, String baseUrl, PriceSpec price) {
    /** The installed plug-in. */
    ModelProvider plugin() {
        return ModelProvider.require(provider);
    }

    /**
     * The environment the model is configured from: {@code env} with {@code REIN_PROVIDER} set to
     * the provider and, with {@code --base-url}, the provider's {@code NAME_BASE_URL} variable
     * (ANTHROPIC_BASE_URL, OPENAI_BASE_URL) set to it, so a model factory needs nothing but the
     * environment.
     */
    Map<String, String> environment(Map<String, String> env) {
        Map<String, String> effective = new HashMap<>(env);
        effective.put(ProviderModels.PROVIDER_ENV, provider);
        if (baseUrl != null) {
            effective.put(provider.toUpperCase(Locale.ROOT) + "_BASE_URL", baseUrl);
        }
        return Map.copyOf(effective);
    }

    /** The model's price: the {@code --price} value, else the provider's table. */
    boolean priced(String model) {
        return price != null || plugin().prices().find(model).isPresent();
    }

    /** The prices of {@code model} the money budget uses: the provider's table with the {@code --price} value on top. */
    PriceTable prices(String model) {
        PriceTable table = plugin().prices();
        return price == null ? table : table.with(model, price.toModelPrice(table.find(model).orElse(null)));
    }

    /**
     * The {@code --price} value as the core's price of {@code model}, or null: with the extras of the
     * provider's table for the model, if it has one ({@link PriceSpec#toModelPrice(ModelPrice)}).
     */
    ModelPrice modelPrice(String model) {
        if (price == null) {
            return null;
        }
        return price.toModelPrice(model == null ? null : plugin().prices().find(model).orElse(null));
    }
}
