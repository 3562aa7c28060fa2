package dev.rein.provider;

import dev.rein.ReinException;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * A model provider plug-in: a module that maps Rein's neutral model calls to one provider's API.
 * Providers are found with {@link ServiceLoader} (a {@code META-INF/services/dev.rein.provider.ModelProvider}
 * entry on the class path, or {@code provides} in a module descriptor), so the CLI, the eval
 * harness and the examples pick one by {@link #name()} and the core names none.
 */
public interface ModelProvider {

    /** The provider's name, lower case, e.g. as given to {@code --provider}. */
    String name();

    /** The model name used when none is given. */
    String defaultModel();

    /** The provider's published prices (USD per million tokens), for the money budget. */
    PriceTable prices();

    /**
     * Builds a model from {@code config} (environment variables and settings such as an API key
     * or base URL).
     *
     * @throws ReinException when the configuration is missing or wrong; the message says what to set
     */
    Model create(ProviderConfig config);

    /**
     * Every provider on the class path (or module path), in {@link ServiceLoader} order. A plug-in
     * that cannot be loaded (its class or a dependency missing, its constructor failing) or whose
     * {@link #name()} or {@link #prices()} throws or returns nothing is left out, so it does not take
     * the others down with it; {@link #require} names it.
     */
    static List<ModelProvider> available() {
        List<ModelProvider> found = new ArrayList<>();
        load(found);
        return List.copyOf(found);
    }

    /** Adds the providers that load to {@code found}; returns why the others could not be loaded. */
    private static List<String> load(List<ModelProvider> found) {
        List<String> broken = new ArrayList<>();
        loadWith(ServiceLoader.load(ModelProvider.class, ModelProvider.class.getClassLoader()), found, broken);
        if (found.isEmpty() && Thread.currentThread().getContextClassLoader() != null) {
            loadWith(ServiceLoader.load(ModelProvider.class), found, broken);
        }
        return broken;
    }

    private static void loadWith(ServiceLoader<ModelProvider> loader, List<ModelProvider> found, List<String> broken) {
        var providers = loader.iterator();
        // ServiceLoader goes on to the next entry after a failed one; the bound only guards against one that never does
        for (int failures = 0; failures < 100; ) {
            try {
                if (!providers.hasNext()) {
                    return;
                }
                ModelProvider provider = providers.next();
                String unusable = unusable(provider);
                if (unusable == null) {
                    found.add(provider);
                } else {
                    broken.add(unusable);
                }
            } catch (java.util.ServiceConfigurationError e) {
                failures++;
                broken.add(e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            }
        }
    }

    /**
     * Why a loaded plug-in cannot be used, or null: its name and prices are read by every lookup and
     * every Agent build, so one that throws there (a price file it cannot read) would take the others
     * down with it, as one that cannot be loaded would.
     */
    private static String unusable(ModelProvider provider) {
        String type = provider.getClass().getName();
        try {
            String name = provider.name();
            if (name == null || name.isBlank()) {
                return "ModelProvider " + type + " has no name (name() returned " + (name == null ? "null" : "'" + name + "'") + ")";
            }
            if (provider.prices() == null) {
                return "ModelProvider " + type + " ('" + name + "'): prices() returned null; return PriceTable.empty() for none";
            }
            return null;
        } catch (RuntimeException e) {
            return "ModelProvider " + type + " failed to give its name or prices: " + e;
        }
    }

    /** The provider called {@code name}, if one is installed. */
    static Optional<ModelProvider> named(String name) {
        return available().stream().filter(p -> p.name().equalsIgnoreCase(name)).findFirst();
    }

    /**
     * The provider called {@code name}.
     *
     * @throws ReinException when none is installed, naming the ones that are
     */
    static ModelProvider require(String name) {
        return named(name).orElseThrow(() -> {
            List<ModelProvider> found = new ArrayList<>();
            List<String> broken = load(found);
            return new ReinException("no model provider named '" + name + "' is installed; available: "
                    + String.join(", ", found.stream().map(ModelProvider::name).toList())
                    + ". Add the provider's module (e.g. rein-" + name + ") to the class path."
                    + (broken.isEmpty() ? "" : " These plug-ins could not be loaded: " + String.join("; ", broken)));
        });
    }
}
