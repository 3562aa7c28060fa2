package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The CLI's model factory: the {@link ModelProvider} named by {@code REIN_PROVIDER} (default
 * {@value #DEFAULT_PROVIDER}), found with {@link java.util.ServiceLoader} and configured from the
 * environment. A wrong setting is a one-line usage error before any request, not a failed run.
 */
final class ProviderModels {
    static final String PROVIDER_ENV = "REIN_PROVIDER";
    static final String DEFAULT_PROVIDER = "anthropic";

    private ProviderModels() {}

    /** The provider {@code env} selects. */
    static ModelProvider provider(Map<String, String> env) {
        String name = env.getOrDefault(PROVIDER_ENV, "").strip();
        try {
            return ModelProvider.require(name.isEmpty() ? DEFAULT_PROVIDER : name);
        } catch (ReinException e) {
            throw new UsageException(PROVIDER_ENV + ": " + e.getMessage());
        }
    }

    /**
     * The price table that prices {@code model} for a command that calls no model (a replay): that of the provider
     * {@code REIN_PROVIDER} names when it lists the model, else of the first installed provider that does, else an
     * empty one. A name no provider has is no error here, as the provider is not used.
     */
    static PriceTable pricing(String model, Map<String, String> env) {
        String name = env.getOrDefault(PROVIDER_ENV, "").strip();
        List<ModelProvider> providers = ModelProvider.available().stream()
                .sorted(Comparator.comparing(p -> !p.name().equalsIgnoreCase(name.isEmpty() ? DEFAULT_PROVIDER : name)))
                .toList();
        return providers.stream().map(ModelProvider::prices).filter(t -> model != null && t.find(model).isPresent())
                .findFirst().orElse(PriceTable.empty());
    }

    static Model create(String modelName, Map<String, String> env) {
        ModelProvider provider = provider(env);
        try {
            return provider.create(ProviderConfig.of(env));
        } catch (ReinException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
