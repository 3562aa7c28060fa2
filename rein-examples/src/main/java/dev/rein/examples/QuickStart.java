package dev.rein.examples;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.anthropic.AnthropicModel;
import dev.rein.budget.Budget;
import dev.rein.tool.builtin.BuiltinTools;
import java.math.BigDecimal;
import java.time.Duration;

/**
 * The README's library quick start, compiled with the project so it cannot drift from the API.
 * Needs {@code ANTHROPIC_API_KEY}; the goal can be given as arguments.
 */
public final class QuickStart {
    private QuickStart() {}

    public static void main(String[] args) {
        String goal = args.length > 0 ? String.join(" ", args) : "What date is 100 days from today?";
        RunResult result = Agent.builder()
                .model(AnthropicModel.fromEnv())            // reads ANTHROPIC_API_KEY, honours ANTHROPIC_BASE_URL
                .modelName("claude-sonnet-5")
                .systemPrompt("You are a careful assistant. Use tools for dates and arithmetic.")
                .tools(BuiltinTools.all())
                .budget(Budget.builder().maxSteps(10).maxCostUsd(new BigDecimal("0.50"))
                        .maxDuration(Duration.ofSeconds(120)).build())
                .build()
                .run(goal);

        switch (result.status()) {
            case SUCCEEDED -> System.out.println(result.answer());
            case STOPPED_BUDGET -> System.out.println("Partial: " + result.answer());
            default -> System.out.println(result.status() + " (" + result.reason() + "): " + result.message());
        }
    }
}
