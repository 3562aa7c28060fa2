package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;

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
        if (caching == null) {
            throw new ReinException("AnthropicOptions.caching(...) was given null: pass PromptCaching.DEFAULT (on, 5-minute"
                    + " entries), PromptCaching.DISABLED or new PromptCaching(true, CacheTtl.ONE_HOUR)");
        }
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
