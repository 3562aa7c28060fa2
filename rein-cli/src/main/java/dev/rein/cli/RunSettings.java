package dev.rein.cli;

import dev.rein.budget.Budget;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * The options a run was started with, kept so another process can resume it with the same agent.
 *
 * @param maxTokens    the max_tokens of each model call, or null for the library's default (settings
 *                     written before the option existed have none)
 * @param provider     the provider, base URL and price the run talks to; null in settings written
 *                     before providers could be chosen (then: as {@code REIN_PROVIDER} says)
 * @param outputSchema the JSON Schema the final answer must validate against ({@code --output-schema}), or null
 * @param webSearch    the most web searches of Claude's web search server tool per request ({@code --web-search N}),
 *                     or null when the run does not offer it (settings written before the option existed have none)
 * @param thinking     Claude's extended thinking ({@code --thinking}): {@code adaptive} or a budget of thinking
 *                     tokens, or null for none (settings written before the option existed have none)
 * @param reasoningEffort Chat Completions' {@code reasoning_effort} ({@code --reasoning-effort}), such as {@code none}, or
 *                     null for none sent (settings written before the option existed have none)
 */
record RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                   boolean finishTool, Integer maxTokens, ProviderSelection provider, String outputSchema, Integer webSearch,
                   String thinking, String reasoningEffort) {
    RunSettings {
        tools = List.copyOf(tools);
        system = system == null ? "" : system;
    }

    RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                boolean finishTool, Integer maxTokens, ProviderSelection provider, String outputSchema, Integer webSearch,
                String thinking) {
        this(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, provider, outputSchema, webSearch, thinking,
                null);
    }

    RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                boolean finishTool, Integer maxTokens, ProviderSelection provider, String outputSchema, Integer webSearch) {
        this(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, provider, outputSchema, webSearch, null);
    }

    RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                boolean finishTool, Integer maxTokens, ProviderSelection provider, String outputSchema) {
        this(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, provider, outputSchema, null);
    }

    RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                boolean finishTool, Integer maxTokens, ProviderSelection provider) {
        this(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, provider, null);
    }

    RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                boolean finishTool, Integer maxTokens) {
        this(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, (ProviderSelection) null);
    }

    /** The same settings talking to {@code selection}. */
    RunSettings with(ProviderSelection selection) {
        return new RunSettings(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, selection, outputSchema, webSearch, thinking, reasoningEffort);
    }

    /** These settings with another system prompt ({@code rein run --mcp-instructions}). */
    RunSettings withSystem(String prompt) {
        return new RunSettings(model, tools, prompt, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, provider, outputSchema, webSearch, thinking, reasoningEffort);
    }

    /** These settings with another max_tokens ({@code rein resume --max-tokens}). */
    RunSettings withMaxTokens(int tokens) {
        return new RunSettings(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, tokens, provider, outputSchema, webSearch, thinking, reasoningEffort);
    }

    Budget budget() {
        return Budget.builder().maxSteps(maxSteps).maxCostUsd(maxCostUsd).maxDuration(Duration.ofMillis(maxMillis)).build();
    }
}
