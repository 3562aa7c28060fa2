package dev.rein.cli;

import dev.rein.anthropic.AnthropicProvider;
import dev.rein.model.ModelOption;
import dev.rein.openai.OpenAiProvider;
import dev.rein.openai.OpenAiReasoningEffort;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How much the model thinks before it answers, for every command that runs a real model ({@code run}, {@code eval},
 * {@code example}): {@code --thinking} (Claude's extended thinking) and {@code --reasoning-effort} (Chat Completions'
 * {@code reasoning_effort}), each refused for the other provider.
 */
public final class ReasoningOptions {
    @Option(names = "--thinking", paramLabel = "adaptive|between_tools|N", converter = OptionValues.Thinking.class,
            description = "Let Claude think before answering (extended thinking): adaptive (the model decides how much),"
                    + " between_tools (Claude Sonnet 5.5: none before the first tool call), or a"
                    + " budget of N thinking tokens, at least 1024 and below max_tokens (--max-tokens of rein run; an"
                    + " agent's own, else 8192). Thinking tokens are billed as output. Anthropic provider only.")
    String thinking;

    @Option(names = "--reasoning-effort", paramLabel = "LEVEL", converter = OptionValues.ReasoningEffort.class,
            description = "How much a reasoning model thinks before answering, sent as reasoning_effort: none, minimal, low,"
                    + " medium, high or xhigh (which ones the model takes is its own). none lets OpenAI's gpt-5.4 and later"
                    + " call tools on Chat Completions. Reasoning tokens are billed as output. OpenAI provider only.")
    String reasoningEffort;

    /** The first of the options given, as written on the command line, or null when neither is. */
    String given() {
        return thinking != null ? "--thinking" : reasoningEffort != null ? "--reasoning-effort" : null;
    }

    /**
     * Refuses an option of another provider's API, which that provider would never send.
     *
     * @throws UsageException for --thinking without the Anthropic provider or --reasoning-effort without OpenAI's
     */
    void requireProvider(ProviderSelection provider) {
        if (thinking != null && !provider.provider().equals(AnthropicProvider.NAME)) {
            throw new UsageException("--thinking is an option of the Anthropic Messages API, and the provider is '"
                    + provider.provider() + "': leave --thinking out, or use --provider anthropic");
        }
        if (reasoningEffort != null && !provider.provider().equals(OpenAiProvider.NAME)) {
            throw new UsageException("--reasoning-effort is an option of OpenAI Chat Completions (reasoning_effort), and the"
                    + " provider is '" + provider.provider() + "': leave --reasoning-effort out (Claude's is --thinking), or use"
                    + " --provider openai");
        }
    }

    /** The model options the given values stand for: what every request of the model sends. */
    List<ModelOption> modelOptions() {
        return modelOptions(thinking, reasoningEffort);
    }

    /**
     * The model options of {@code thinking} and {@code reasoningEffort} as the converters return them (either null for
     * none), as a run's settings keep them.
     */
    static List<ModelOption> modelOptions(String thinking, String reasoningEffort) {
        List<ModelOption> options = new ArrayList<>();
        if (thinking != null) {
            options.add(OptionValues.Thinking.option(thinking));
        }
        if (reasoningEffort != null) {
            options.add(OpenAiReasoningEffort.of(reasoningEffort));
        }
        return List.copyOf(options);
    }
}
