package dev.rein.cli;

import dev.rein.model.Model;
import java.util.Map;

/**
 * Creates the model a {@code run} talks to. The CLI uses the provider plug-in that {@code
 * REIN_PROVIDER} in {@code env} names (the commands set it from {@code --provider}); tests plug in fakes.
 */
@FunctionalInterface
public interface ModelFactory {
    /**
     * @param modelName the {@code --model} value
     * @param env       the process environment (API key, base URL)
     * @throws UsageException when the model cannot be configured, e.g. the API key is missing
     */
    Model create(String modelName, Map<String, String> env);
}
