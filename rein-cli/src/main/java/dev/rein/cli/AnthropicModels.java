package dev.rein.cli;

import dev.rein.anthropic.AnthropicModel;
import dev.rein.model.Model;
import java.util.Map;

/**
 * The CLI's model factory: the Anthropic Messages API, configured from {@code ANTHROPIC_API_KEY}
 * and, when set, {@code ANTHROPIC_BASE_URL}. Both are checked here so that a wrong setting is a
 * one-line usage error before any request, not a failed run.
 */
final class AnthropicModels {
    static final String API_KEY = "ANTHROPIC_API_KEY";
    static final String BASE_URL = "ANTHROPIC_BASE_URL";
    static final String PUBLIC_API = "https://api.anthropic.com";
    static final String MISSING_KEY = API_KEY + " is not set: set it with 'export " + API_KEY
            + "=<your key>' (create one at https://console.anthropic.com/settings/keys), or try './rein demo', which needs no key";

    private AnthropicModels() {}

    static Model create(String modelName, Map<String, String> env) {
        String key = env.get(API_KEY);
        if (key == null || key.isBlank()) {
            throw new UsageException(MISSING_KEY);
        }
        AnthropicModel.Builder builder = AnthropicModel.builder().apiKey(key.strip());
        String baseUrl = env.getOrDefault(BASE_URL, "").strip();
        if (!baseUrl.isEmpty() && !baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
            throw new UsageException(BASE_URL + " must be an http:// or https:// URL, was '" + baseUrl
                    + "'; unset it to use the public API");
        }
        // Always explicit: the SDK would otherwise read an empty ANTHROPIC_BASE_URL itself and fail at the first call.
        return builder.baseUrl(baseUrl.isEmpty() ? PUBLIC_API : baseUrl).build();
    }
}
