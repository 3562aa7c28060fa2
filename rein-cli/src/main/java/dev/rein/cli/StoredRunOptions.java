package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.mcp.McpConfig;
import dev.rein.model.Model;
import dev.rein.store.jdbc.JdbcRunStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options and the common path of the commands that continue a stored run in this process
 * ({@code rein resume}, {@code rein reply}): the agent it was started with, on the provider, base URL,
 * price and MCP servers it was started with unless the options say otherwise.
 */
final class StoredRunOptions {
    @ExampleValue("run.jsonl")
    @Option(names = "--trace", paramLabel = "FILE", description = "Append what this process adds to the run's JSONL trace to FILE.")
    Path trace;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout when the run ends (as 'rein run --json').")
    boolean json;

    @Option(names = "--json-stream", description = "Print this continuation's events as they happen, one JSON object per line"
            + " on stdout (as 'rein run --json-stream'), and last the --json result object with \"type\":\"result\".")
    boolean jsonStream;

    @Option(names = {"-q", "--quiet"}, description = "No live view.")
    boolean quiet;

    @ExampleValue("16000")
    @Option(names = "--max-tokens", paramLabel = "N", converter = OptionValues.TokenCount.class,
            description = "Most tokens one model response may have from now on (default: what the run was started with).")
    Integer maxTokens;

    @Mixin
    McpOptions mcp;

    /** Defaults: what the run was started with (provider, base URL, price), then REIN_PROVIDER. */
    @Mixin
    ProviderOptions providerOptions;

    /**
     * Continues the run {@code typedId} names (as typed, or as 'rein runs' shows it: {@link CliHome#storedRunId}):
     * {@code check} refuses, in the command's own terms, a run it cannot continue (before any model is created);
     * {@code start} starts the continuation on the built agent. Each is given the store and the run's id.
     */
    int continueRun(CliEnvironment env, String typedId, String command, BiConsumer<JdbcRunStore, String> check,
                    BiFunction<Agent, String, RunHandle> start, BiFunction<Agent, String, dev.rein.agent.RunStream> stream) {
        if (json && jsonStream) {
            throw new UsageException("--json and --json-stream cannot be used together: --json-stream already ends with the result object");
        }
        CliHome home = CliHome.of(env.env());
        if (!home.hasStore()) {
            throw new UsageException(home.noStoreMessage());
        }
        // opened once, first: the id is resolved in it, and the run continues in it
        try (JdbcRunStore store = home.store()) {
            String runId = home.storedRunId(store, typedId, env.err(), command);
            if (!home.startedByRun(runId)) {
                requireStartedByRun(store, home, runId, command);
            }
            RunSettings stored = home.settings(runId);
            ProviderSelection provider = providerOptions.select(env.env(), stored.provider());
            RunSettings settings = (maxTokens == null ? stored : stored.withMaxTokens(maxTokens)).with(provider);
            // A lower --max-tokens must still leave room for the run's thinking budget, which the API wants below it.
            OptionValues.Thinking.requireBelow(settings.thinking(), settings.maxTokens(), command + " --max-tokens");
            RunCommand.requirePrice(settings.model(), provider);
            if (trace != null) {
                TraceFile.checkWritable(trace);
            }
            check.accept(store, runId);
            home.requireWritable(store);
            // The run's own servers file unless --mcp names another.
            Path serversFile = mcp.file != null ? mcp.file : CliMcp.remembered(home, runId);
            if (mcp.file == null && serversFile != null && !java.nio.file.Files.exists(serversFile)) {
                // The user named no file: say which one the run remembers and how to give another.
                throw new UsageException("run " + runId + " was started with --mcp " + serversFile + ", which no longer exists; put it"
                        + " back, or give the servers file to use with '" + command + " --mcp FILE'");
            }
            if (trace != null) {
                TraceFile.requireOwnFile(trace, "--trace", home, java.util.Collections.singletonMap("--mcp", serversFile), "trace", "run.jsonl");
            }
            McpConfig servers = serversFile == null ? null : CliMcp.load(serversFile, env);
            Map<String, String> modelEnv = provider.environment(env.env());
            Model client = env.models().create(settings.model(), modelEnv);
            try (CliMcp mcpTools = CliMcp.start(serversFile, servers, settings.tools(), settings.finishTool());
                 StatusLine line = new StatusLine(env.err(), env.terminal().animated() && !json && !jsonStream,
                         Terminal.columns(env.env()));
                 CliTelemetry telemetry = CliTelemetry.from(env, home, modelEnv)) {
                if (maxTokens != null) {
                    // later continuations keep the raised limit; saved only now that nothing can refuse the resume
                    home.saveSettings(runId, settings);
                }
                if (settings.webSearch() != null && !provider.provider().equals(dev.rein.anthropic.AnthropicProvider.NAME)) {
                    // rein run refuses the pair; a continuation on another provider goes on, and says what it goes without
                    env.err().println(command + ": run " + runId + " was started with --web-search " + settings.webSearch()
                            + ", a server tool of the Anthropic Messages API that provider '" + provider.provider()
                            + "' does not have: this continuation goes on without web search");
                }
                if (settings.thinking() != null && !provider.provider().equals(dev.rein.anthropic.AnthropicProvider.NAME)) {
                    env.err().println(command + ": run " + runId + " was started with --thinking " + settings.thinking()
                            + ", an option of the Anthropic Messages API that provider '" + provider.provider()
                            + "' does not have: this continuation goes on without it");
                }
                if (settings.reasoningEffort() != null && !provider.provider().equals(dev.rein.openai.OpenAiProvider.NAME)) {
                    env.err().println(command + ": run " + runId + " was started with --reasoning-effort " + settings.reasoningEffort()
                            + ", an option of OpenAI Chat Completions that provider '" + provider.provider()
                            + "' does not have: this continuation goes on without it");
                }
                // the store can still fail after the check above (another process locks it, the disk fills up): watched, so it is said
                WatchedStore watched = new WatchedStore(store, home.storeFile());
                Agent agent = CliAgent.build(settings, runId, client, home, watched, line, quiet || jsonStream, trace, telemetry, mcpTools);
                if (jsonStream) {
                    return JsonStream.run(agent, a -> stream.apply(a, runId), env, telemetry.cancelGrace(), new RunReport(env, false, true, trace,
                            agent.runs()::pending, RunReport.keyVariable(provider, env.env()), settings.outputSchema() != null)
                            .storedIn(watched, command));
                }
                RunReport report = new RunReport(env, json, quiet, trace, agent.runs()::pending,
                        RunReport.keyVariable(provider, env.env()), settings.outputSchema() != null).storedIn(watched, command);
                return Foreground.run(() -> start.apply(agent, runId), env, telemetry.cancelGrace(), report::print);
            } finally {
                RunCommand.closeQuietly(client, env, command);
            }
        }
    }

    /** Why a run without the settings 'rein run' keeps cannot be continued here, in the user's terms. */
    private static void requireStartedByRun(JdbcRunStore store, CliHome home, String runId, String command) {
        if (store.load(runId).isEmpty()) {
            throw home.noSuchRun(runId);
        }
        CliHome.requireContinuable(runId, command);
        // rein runs lists it, so pointing there would go round in a circle
        throw new UsageException("run " + runId + " was stored by an application, not started by 'rein run', so " + command
                + " does not know its model, tools and prompt; continue it from the application (agent.resume, agent.reply)."
                + " " + SuggestedCommand.forRun("rein show", runId) + " and " + SuggestedCommand.forRun("rein approve", runId) + " work on it");
    }
}
