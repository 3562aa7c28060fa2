package dev.rein.provider;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link ModelProvider} builds a model from: the environment (API keys, base URLs) and
 * explicit settings, which win over the environment.
 */
public record ProviderConfig(Map<String, String> env, Map<String, String> settings) {
    public ProviderConfig {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        settings = settings == null ? Map.of() : Map.copyOf(settings);
    }

    /** The process environment, no settings. */
    public static ProviderConfig fromEnvironment() {
        return new ProviderConfig(System.getenv(), Map.of());
    }

    /** {@code env} only. */
    public static ProviderConfig of(Map<String, String> env) {
        return new ProviderConfig(env, Map.of());
    }

    /** A setting, else the environment variable {@code envName}; blank values count as unset. */
    public Optional<String> value(String setting, String envName) {
        String v = settings.get(setting);
        if (v == null || v.isBlank()) {
            v = env.get(envName);
        }
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v.strip());
    }

    /**
     * Whether {@code url} is an {@code http://} or {@code https://} URL with a host: what a base URL
     * must be before any request is sent (a space or a missing host would fail only at the first call).
     */
    public static boolean isHttpUrl(String url) {
        if (url == null || !url.startsWith("http://") && !url.startsWith("https://")) {
            return false;
        }
        try {
            URI uri = URI.create(url);
            if (uri.getHost() != null) {
                return true;
            }
            // java.net.URI gives no host for a name with '_' (a Docker Compose service such as
            // http://ollama_server:11434), which the providers' HTTP clients accept: the authority decides
            String authority = uri.getRawAuthority();
            return authority != null && !authority.substring(authority.lastIndexOf('@') + 1).replaceFirst(":\\d*$", "").isEmpty();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
