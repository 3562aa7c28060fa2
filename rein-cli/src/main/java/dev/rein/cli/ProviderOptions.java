package dev.rein.cli;

import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The provider options of every command that talks to a model ({@code run}, {@code resume},
 * {@code eval}, {@code example}): {@code --provider}, {@code --base-url} and {@code --price}.
 */
public final class ProviderOptions {
    @ExampleValue("openai")
    @Option(names = "--provider", paramLabel = "NAME",
            description = "The model provider: anthropic or openai (OpenAI and every compatible server: Ollama, vLLM,"
                    + " LM Studio, llama.cpp). Default: $REIN_PROVIDER, else anthropic.")
    String provider;

    @ExampleValue("http://localhost:11434/v1")
    @Option(names = "--base-url", paramLabel = "URL",
            description = "The provider's API base URL, overriding ANTHROPIC_BASE_URL or OPENAI_BASE_URL"
                    + " (e.g. http://localhost:11434/v1 for Ollama).")
    String baseUrl;

    @ExampleValue("3,15")
    @Option(names = "--price", paramLabel = PriceSpec.FORMAT, converter = PriceSpec.Converter.class,
            description = "The model's price in USD per million tokens, overriding the built-in table: uncached input,"
                    + " output, and optionally cache read (default: INPUT) and cache write (default: 1.25 x INPUT)."
                    + " For a model in the table, its other prices stay: per-use prices (Anthropic's web search, USD 0.01)"
                    + " as they are, 1-hour cache writes and long-context rates as the same multiples of these."
                    + " For a local server: --price 0,0.")
    PriceSpec price;

    /**
     * What the options select; for {@code resume}, {@code stored} (the run's own choice) fills
     * what is not given, before {@code REIN_PROVIDER} and the default.
     *
     * @throws UsageException for an unknown provider or a base URL that is not http(s)
     */
    ProviderSelection select(Map<String, String> env, ProviderSelection stored) {
        // An empty option ('--provider "$P"' with P unset) names no provider; the default would override REIN_PROVIDER.
        if (provider != null && provider.isBlank()) {
            throw new UsageException("--provider is empty: give a provider name, one of: "
                    + String.join(", ", ModelProvider.available().stream().map(ModelProvider::name).toList()));
        }
        String name = provider != null ? provider.strip() : stored != null && stored.provider() != null ? stored.provider()
                : env.getOrDefault(ProviderModels.PROVIDER_ENV, "").strip();
        if (name.isEmpty()) {
            name = ProviderModels.DEFAULT_PROVIDER;
        }
        if (ModelProvider.named(name).isEmpty()) {
            String source = provider != null ? "--provider" : ProviderModels.PROVIDER_ENV;
            throw new UsageException(source + ": no model provider named '" + name + "'; use one of: "
                    + String.join(", ", ModelProvider.available().stream().map(ModelProvider::name).toList()));
        }
        String resolved = name.toLowerCase(java.util.Locale.ROOT);
        // A stored base URL belongs to the stored provider; switching providers leaves it behind.
        boolean sameProvider = stored != null && resolved.equals(stored.provider());
        // an unset shell variable (--base-url "$URL"): say what to give, since leaving the option out is often the fix
        if (baseUrl != null && baseUrl.isBlank()) {
            throw new UsageException("--base-url is empty: give the provider's API base URL, an http:// or https:// URL with a host"
                    + " (e.g. http://localhost:11434/v1), or leave --base-url out to use "
                    + (sameProvider && stored.baseUrl() != null ? "the run's own"
                            : resolved.toUpperCase(java.util.Locale.ROOT) + "_BASE_URL or the provider's public API"));
        }
        String url = baseUrl != null ? baseUrl.strip() : sameProvider ? stored.baseUrl() : null;
        if (url != null && !ProviderConfig.isHttpUrl(url)) {
            throw new UsageException("--base-url must be an http:// or https:// URL with a host, was '" + url + "'"
                    + ProviderConfig.hostAdvice(url));
        }
        PriceSpec spec = price != null ? price : stored != null ? stored.price() : null;
        return new ProviderSelection(resolved, url, spec);
    }
}
