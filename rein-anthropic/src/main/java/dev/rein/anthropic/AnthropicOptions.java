package dev.rein.anthropic;

import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;
import java.util.Objects;

/**
 * Anthropic-specific request features, carried as a {@link ModelOption} on the neutral request:
 * prompt caching. Server-side context edits come from the agent's context policy (the neutral
 * {@link dev.rein.model.ServerContextEdits} option), which {@link AnthropicModel} maps to
 * {@code context_management}.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicOptions.caching(new PromptCaching(true, CacheTtl.ONE_HOUR)))
 * }</pre>
 */
public record AnthropicOptions(PromptCaching caching) implements ModelOption {
    /** No caching: what a request without this option gets from the request mappers themselves. */
    static final AnthropicOptions NONE = new AnthropicOptions(PromptCaching.DISABLED);

    public AnthropicOptions {
        Objects.requireNonNull(caching, "caching");
    }

    /** Options with the given prompt caching. */
    public static AnthropicOptions caching(PromptCaching caching) {
        return new AnthropicOptions(caching);
    }

    /** The options of {@code request}, or {@link #NONE}. */
    static AnthropicOptions of(ModelRequest request) {
        return request.option(AnthropicOptions.class).orElse(NONE);
    }
}
