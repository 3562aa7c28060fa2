package dev.rein.cli;

import dev.rein.budget.Budget;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * The options a run was started with, kept so another process can resume it with the same agent.
 *
 * @param maxTokens the max_tokens of each model call, or null for the library's default (settings
 *                  written before the option existed have none)
 * @param provider  the provider, base URL and price the run talks to; null in settings written
 *                  before providers could be chosen (then: as {@code REIN_PROVIDER} says)
 */
record RunSettings(String model, List<String> tools, String system, int maxSteps, BigDecimal maxCostUsd, long maxMillis,
                   boolean finishTool, Integer maxTokens, ProviderSelection provider) {
    RunSettings {
        tools = List.copyOf(tools);
        system = system == null ? "" : system;
    }

    /** The same settings talking to {@code selection}. */
    RunSettings with(ProviderSelection selection) {
        return new RunSettings(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, maxTokens, selection);
    }

    /** These settings with another max_tokens ({@code rein resume --max-tokens}). */
    RunSettings withMaxTokens(int tokens) {
        return new RunSettings(model, tools, system, maxSteps, maxCostUsd, maxMillis, finishTool, tokens, provider);
    }

    Budget budget() {
        return Budget.builder().maxSteps(maxSteps).maxCostUsd(maxCostUsd).maxDuration(Duration.ofMillis(maxMillis)).build();
    }
}
