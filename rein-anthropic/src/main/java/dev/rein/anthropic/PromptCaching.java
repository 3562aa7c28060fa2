package dev.rein.anthropic;

import dev.rein.ReinException;

/**
 * Prompt caching of the Anthropic Messages API: when enabled, {@link AnthropicModel} places cache
 * breakpoints so each step reads the earlier turns from cache, with entries of lifetime {@code ttl}.
 * Set per agent with {@code Agent.builder().modelOption(AnthropicOptions.caching(...))}, or per model
 * with {@link AnthropicModel.Builder#caching(PromptCaching)}.
 */
public record PromptCaching(boolean enabled, CacheTtl ttl) {
    public static final PromptCaching DEFAULT = new PromptCaching(true, CacheTtl.FIVE_MINUTES);
    public static final PromptCaching DISABLED = new PromptCaching(false, CacheTtl.FIVE_MINUTES);

    public PromptCaching {
        if (ttl == null) {
            throw new ReinException("new PromptCaching(enabled, ttl) was given null for ttl: pass CacheTtl.FIVE_MINUTES or"
                    + " CacheTtl.ONE_HOUR");
        }
    }
}
