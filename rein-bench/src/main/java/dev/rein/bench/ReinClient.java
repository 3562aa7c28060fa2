package dev.rein.bench;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.anthropic.AnthropicModel;
import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.tool.Tool;

/**
 * Rein with its defaults (in-memory store, trace, guards, caching), through {@link AnthropicModel}.
 * With {@code inlineTools} its tool declares that it aborts on interrupt (it only reads a map, or
 * sleeps), so its calls run on the run's own thread instead of a thread each.
 */
final class ReinClient implements Client {
    private final AnthropicModel model;
    private final Agent agent;

    ReinClient(String baseUrl, boolean slow, boolean inlineTools) {
        this.model = AnthropicModel.builder().apiKey("k").baseUrl(baseUrl).build();
        Tool lookup = Tool.builder("lookup")
                .description(Scenario.TOOL_DESCRIPTION)
                .inputSchema(Scenario.SCHEMA)
                .abortsOnInterrupt(inlineTools)
                .handler((args, context) -> {
                    if (slow) {
                        Scenario.slowLookup();
                    }
                    return Scenario.lookup(args.path("q").asText());
                })
                .build();
        this.agent = agent(model, lookup).build();
    }

    /** The scenario's agent over {@code model} with its {@code lookup} tool; the in-process client uses it too. */
    static Agent.Builder agent(Model model, Tool lookup) {
        return Agent.builder()
                .model(model)
                .modelName(Scenario.MODEL)
                .systemPrompt(Scenario.SYSTEM)
                .tools(lookup)
                .budget(Budget.builder().maxSteps(100).build());
    }

    @Override
    public int run() {
        return runToEnd(agent);
    }

    /** One run of the scenario's goal; a run that does not succeed fails the benchmark. */
    static int runToEnd(Agent agent) {
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
