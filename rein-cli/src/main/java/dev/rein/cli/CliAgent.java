package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.anthropic.AnthropicServerTools;
import dev.rein.context.ContextPolicy;
import dev.rein.context.DirectoryOutputStore;
import dev.rein.model.Model;
import dev.rein.model.OutputSchema;
import dev.rein.state.RunStore;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;

/** Builds the agent of a CLI run from its settings, the same way for {@code run} and {@code resume}. */
final class CliAgent {
    private CliAgent() {}

    static Agent build(RunSettings settings, String runId, Model client, CliHome home, RunStore store,
                       StatusLine line, boolean quiet, Path trace, CliTelemetry telemetry, CliMcp mcp) {
        Agent.Builder agent = Agent.builder()
                .model(client)
                .modelName(settings.model())
                .systemPrompt(settings.system())
                .tools(home.tools().select(String.join(",", settings.tools())))
                .secrets(mcp.secrets())
                .budget(settings.budget())
                .store(store)
                .finishTool(settings.finishTool())
                // Truncated tool output is kept in full beside the runs, so nothing is lost when the process ends.
                .contextPolicy(ContextPolicy.builder().outputStore(new DirectoryOutputStore(home.directory().resolve("outputs"))).build())
                .runIds(() -> runId);
        mcp.offerTo(agent);
        if (settings.maxTokens() != null) {
            agent.maxTokens(settings.maxTokens());
        }
        if (settings.provider() != null && settings.provider().price() != null) {
            // --price overrides the provider's token rates for this model, for every call of the run; the table's extras stay.
            agent.price(settings.model(), settings.provider().modelPrice(settings.model()));
        }
        if (settings.webSearch() != null) {
            // A provider other than Anthropic ignores the option (a run resumed with --provider openai).
            agent.modelOption(AnthropicServerTools.webSearch(settings.webSearch()));
        }
        // A provider other than the option's does not read it (a run resumed with another --provider), as for web search.
        ReasoningOptions.modelOptions(settings.thinking(), settings.reasoningEffort()).forEach(agent::modelOption);
        if (settings.outputSchema() != null) {
            agent.outputSchema(OutputSchema.fromJson("output", settings.outputSchema()));
        }
        if (!quiet) {
            agent.listener(id -> new LiveView(line));
        }
        if (trace != null) {
            agent.listener(JsonlTraceListener.to(trace));
        }
        if (store instanceof WatchedStore watched) {
            agent.listener(id -> watched.counter());
        }
        return telemetry.install(agent).build();
    }
}
