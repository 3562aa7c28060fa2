package dev.rein.provider;

import dev.rein.ReinException;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link ModelProvider} builds a model from: the environment (API keys, base URLs) and
 * explicit settings, which win over the environment.
 */
public record ProviderConfig(Map<String, String> env, Map<String, String> settings) {
    public ProviderConfig {
        if (env == null) {
            throw new ReinException("ProviderConfig was given no env (null): give the environment to read keys from,"
                    + " System.getenv() or Map.of() for none");
        }
        env = copy(env, "env");
        settings = settings == null ? Map.of() : copy(settings, "settings");
    }

    /** An immutable copy, or a ReinException naming the entry with a null name or value (Map.copyOf's is a bare NPE). */
    private static Map<String, String> copy(Map<String, String> map, String what) {
        map.forEach((key, value) -> {
            if (key == null || value == null) {
                throw new ReinException("ProviderConfig's " + what + " has " + (key == null ? "a null name" : "'" + key
                        + "' with a null value") + ": leave it out, or give its value");
            }
        });
        return Map.copyOf(map);
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
     * A host name is what {@link URI} reads as one: the JDK's HTTP client and the OpenAI SDK refuse
     * any other (for example one with {@code '_'}), so it could never be called.
     */
    public static boolean isHttpUrl(String url) {
        if (url == null || !url.startsWith("http://") && !url.startsWith("https://")) {
            return false;
        }
        try {
            return URI.create(url).getHost() != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * What to add to the message of an HTTP error when it is a redirect (a 3xx with a {@code location}): where the
     * server sends requests and the base URL that goes there. The providers follow no redirect (a 301 or 302 turns
     * a POST into a GET without its body), so the base URL must name the server itself, e.g. https:// where
     * http:// was set. {@code endpoint} is the path a provider adds to its base URL ({@code /v1/messages},
     * {@code /chat/completions}); an empty string when there is nothing to add. {@code baseUrl}, the base URL
     * the request was sent to (may be null), lets a location without {@code endpoint} (a server that sends every
     * request to its https:// front page) or a relative one still name a base URL: the location's scheme, host and
     * port with the base URL's path.
     */
    public static String redirectAdvice(int status, String location, String endpoint, URI baseUrl) {
        String to = status / 100 == 3 && location != null ? location.strip() : "";
        if (to.isEmpty()) {
            return "";
        }
        URI target = null;
        try {
            target = baseUrl == null ? null : baseUrl.resolve(to);
        } catch (IllegalArgumentException e) {
            // not a URI: only the generic advice
        }
        String absolute = target != null && target.getRawAuthority() != null ? target.toString() : to;
        int path = absolute.indexOf(endpoint);
        String base;
        if (path > 0) {
            base = absolute.substring(0, path);
        } else if (target != null && target.getRawAuthority() != null && target.getScheme() != null
                && !(target.getScheme() + "://" + target.getRawAuthority()).equalsIgnoreCase(baseUrl.getScheme() + "://"
                        + baseUrl.getRawAuthority())) {
            // another scheme, host or port: where the base URL's path most likely lives now
            String basePath = baseUrl.getRawPath() == null ? "" : baseUrl.getRawPath().replaceAll("/+$", "");
            base = target.getScheme() + "://" + target.getRawAuthority() + basePath;
        } else {
            base = "the server's own address";
        }
        return " (the server redirects requests to " + to + ", and Rein does not follow redirects: set the base URL to "
                + base + ")";
    }

    /**
     * What to add to a message refusing {@code url} as a base URL: advice for a host name with
     * {@code '_'} (a Docker Compose service such as {@code ollama_server}), which resolves but which
     * Java's HTTP clients cannot address; otherwise an empty string.
     */
    public static String hostAdvice(String url) {
        if (url == null || isHttpUrl(url) || !url.startsWith("http://") && !url.startsWith("https://")) {
            return "";
        }
        try {
            String authority = URI.create(url).getRawAuthority();
            if (authority != null && authority.substring(authority.lastIndexOf('@') + 1).contains("_")) {
                return "; Java's HTTP clients cannot address a host name with '_': use a name without it"
                        + " (rename the service or give it a network alias) or the server's IP address";
            }
        } catch (IllegalArgumentException e) {
            // not a URI at all: nothing to add to "must be a URL with a host"
        }
        return "";
    }
}
