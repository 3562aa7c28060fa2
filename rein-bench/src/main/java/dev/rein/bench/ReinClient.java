package dev.rein.bench;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.anthropic.AnthropicModel;
import dev.rein.budget.Budget;
import dev.rein.tool.Tool;

/** Rein with its defaults (in-memory store, trace, guards, caching), through {@link AnthropicModel}. */
final class ReinClient implements Client {
    private final AnthropicModel model;
    private final Agent agent;

    ReinClient(String baseUrl, boolean slow) {
        this.model = AnthropicModel.builder().apiKey("k").baseUrl(baseUrl).build();
        Tool lookup = Tool.builder("lookup")
                .description(Scenario.TOOL_DESCRIPTION)
                .inputSchema(Scenario.SCHEMA)
                .handler((args, context) -> {
                    if (slow) {
                        Scenario.slowLookup();
                    }
                    return Scenario.lookup(args.path("q").asText());
                })
                .build();
        this.agent = Agent.builder()
                .model(model)
                .modelName(Scenario.MODEL)
                .systemPrompt(Scenario.SYSTEM)
                .tools(lookup)
                .budget(Budget.builder().maxSteps(100).build())
                .build();
    }

    @Override
    public int run() {
        RunResult result = agent.run(Scenario.GOAL);
        if (result.status() != RunStatus.SUCCEEDED) {
            throw new IllegalStateException("the Rein run ended " + result.status() + ": " + result.reason() + " " + result.message());
        }
        return result.steps();
    }

    @Override
    public void close() {
        model.close();
    }
}
