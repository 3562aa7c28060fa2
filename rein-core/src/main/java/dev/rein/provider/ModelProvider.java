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

    /** Every provider on the class path (or module path), in {@link ServiceLoader} order. */
    static List<ModelProvider> available() {
        List<ModelProvider> found = new ArrayList<>();
        ServiceLoader.load(ModelProvider.class, ModelProvider.class.getClassLoader()).forEach(found::add);
        if (found.isEmpty() && Thread.currentThread().getContextClassLoader() != null) {
            ServiceLoader.load(ModelProvider.class).forEach(found::add);
        }
        return List.copyOf(found);
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
        return named(name).orElseThrow(() -> new ReinException("no model provider named '" + name
                + "' is installed; available: " + String.join(", ", available().stream().map(ModelProvider::name).toList())
                + ". Add the provider's module (e.g. rein-" + name + ") to the class path."));
    }
}
