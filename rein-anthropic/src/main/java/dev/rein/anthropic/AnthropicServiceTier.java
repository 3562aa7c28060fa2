package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;

/**
 * Which capacity serves the request, sent as the Messages API's {@code service_tier}: {@code auto}
 * (the API's default) uses Priority Tier capacity when the organization has it and standard
 * capacity otherwise; {@code standard_only} always uses standard capacity. The value is sent as
 * given, so one this class has no constant for can be used too ({@link #of(String)}); the API
 * refuses one it does not know. Not sent to count_tokens, which takes no service tier.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicServiceTier.STANDARD_ONLY)
 * }</pre>
 *
 * @param tier the wire value, such as {@code "standard_only"}
 */
public record AnthropicServiceTier(String tier) implements ModelOption {
    public static final AnthropicServiceTier AUTO = new AnthropicServiceTier("auto");
    public static final AnthropicServiceTier STANDARD_ONLY = new AnthropicServiceTier("standard_only");

    public AnthropicServiceTier {
        if (tier == null || tier.isBlank()) {
            throw new ReinException("a service tier is auto or standard_only, not " + (tier == null ? "null" : "blank text"));
        }
    }

    /** The service tier {@code tier} as the API names it (for example {@code "auto"}). */
    public static AnthropicServiceTier of(String tier) {
        return new AnthropicServiceTier(tier);
    }
}
