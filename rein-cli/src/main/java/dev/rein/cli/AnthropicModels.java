package dev.rein.cli;

import dev.rein.model.Model;
import java.util.Map;

/** The CLI's model factory: the Anthropic Messages API, configured from the environment. */
final class AnthropicModels {
    static final String API_KEY = "ANTHROPIC_API_KEY";
    static final String MISSING_KEY = API_KEY + " is not set: set it with 'export " + API_KEY
            + "=<your key>' (create one at https://console.anthropic.com/settings/keys), or try './rein demo', which needs no key";

    private AnthropicModels() {}

    static Model create(String modelName, Map<String, String> env) {
        String key = env.get(API_KEY);
        if (key == null || key.isBlank()) {
            throw new UsageException(MISSING_KEY);
        }
        throw new UsageException("the Anthropic provider is not built into this CLI yet");
    }
}
