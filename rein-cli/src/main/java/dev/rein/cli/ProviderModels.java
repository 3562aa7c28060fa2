package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;
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

    static Model create(String modelName, Map<String, String> env) {
        ModelProvider provider = provider(env);
        try {
            return provider.create(ProviderConfig.of(env));
        } catch (ReinException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
