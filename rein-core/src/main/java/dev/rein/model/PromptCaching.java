package dev.rein.model;

import java.util.Objects;

/**
 * Prompt caching hints for a request. Providers that support caching place breakpoints so each
 * step reads the earlier turns from cache; others ignore this.
 */
public record PromptCaching(boolean enabled, CacheTtl ttl) {
    public static final PromptCaching DEFAULT = new PromptCaching(true, CacheTtl.FIVE_MINUTES);
    public static final PromptCaching DISABLED = new PromptCaching(false, CacheTtl.FIVE_MINUTES);

    public PromptCaching {
        Objects.requireNonNull(ttl, "ttl");
    }
}
