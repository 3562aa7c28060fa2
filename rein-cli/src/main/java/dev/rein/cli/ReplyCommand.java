package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.mcp.McpConfig;
import dev.rein.model.Model;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein reply RUN TEXT}: continues an ended run with the next turn of the conversation. */
@Command(name = "reply", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Answer a run that asked for input, or ask a follow-up after its answer.",
        description = {"Continues an ended run (SUCCEEDED, or FAILED with needs_user_input) as its next turn, with the agent"
                + " it was started with (model, tools, system prompt). The run keeps its history, facts and approvals;"
                + " the budget applies to this turn. Exit codes as for 'rein run'.", ""})
final class ReplyCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @Parameters(index = "1", paramLabel = "TEXT", description = "The reply: the answer to the run's question, or a follow-up.")
    String text;

    @Option(names = "--trace", paramLabel = "FILE", description = "Append the turn's JSONL trace to FILE.")
    Path trace;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout when the run ends (as 'rein run --json').")
    boolean json;

    @Option(names = {"-q", "--quiet"}, description = "No live view.")
    boolean quiet;

    @Option(names = "--max-tokens", paramLabel = "N", converter = OptionValues.TokenCount.class,
            description = "Most tokens one model response may have from now on (default: what the run was started with).")
    Integer maxTokens;

    @Mixin
    McpOptions mcp;

    /** Defaults: what the run was started with (provider, base URL, price), then REIN_PROVIDER. */
    @Mixin
    ProviderOptions providerOptions;

    ReplyCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        if (!home.hasStore()) {
            throw new UsageException(home.noStoreMessage());
        }
        RunSettings stored = home.settings(runId);
        // As for resume: the provider, base URL and price the run was started with unless options say otherwise.
        ProviderSelection provider = providerOptions.select(env.env(), stored.provider());
        RunSettings settings = (maxTokens == null ? stored : stored.withMaxTokens(maxTokens)).with(provider);
        RunCommand.requirePrice(settings.model(), provider);
        if (trace != null) {
            TraceFile.checkWritable(trace);
        }
        try (JdbcRunStore store = home.store()) {
            requireReplyable(store);
            if (maxTokens != null) {
                home.saveSettings(runId, settings); // later resumes keep the raised limit
            }
            // The run's own MCP servers file unless --mcp names another.
            Path serversFile = mcp.file != null ? mcp.file : CliMcp.remembered(home, runId);
            McpConfig servers = serversFile == null ? null : CliMcp.load(serversFile, env);
            Model client = env.models().create(settings.model(), provider.environment(env.env()));
            try (CliMcp mcpTools = CliMcp.start(serversFile, servers, settings.tools());
                 StatusLine line = new StatusLine(env.err(), env.terminal().animated() && !json);
                 CliTelemetry telemetry = CliTelemetry.from(env, home)) {
                Agent agent = CliAgent.build(settings, runId, client, home, store, line, quiet, trace, telemetry, mcpTools);
                RunReport report = new RunReport(env, json, quiet, trace, agent.runs()::pending);
                return Foreground.run(() -> agent.startReply(runId, text), env, report::print);
            } finally {
                RunCommand.closeQuietly(client, env, "rein reply");
            }
        }
    }

    /** Refuses, in the command's own terms, a run that cannot take a reply, before any model is created. */
    private void requireReplyable(JdbcRunStore store) {
        if (text == null || text.isBlank()) {
            throw new UsageException("the reply is empty: give the answer or the follow-up question as TEXT");
        }
        RunSnapshot snapshot = store.load(runId).orElseThrow(() -> new UsageException("there is no run " + runId
                + " in the run store; list the stored runs with 'rein runs'"));
        boolean answered = snapshot.status() == RunStatus.SUCCEEDED;
        boolean asked = snapshot.status() == RunStatus.FAILED && Reasons.NEEDS_USER_INPUT.equals(snapshot.reason());
        if (answered || asked) {
            return;
        }
        if (!snapshot.status().terminal()) {
            throw new UsageException("run " + runId + " has not ended (" + snapshot.status() + "); continue it with 'rein resume "
                    + runId + "' (after 'rein approve' if it waits for a decision)");
        }
        throw new UsageException("run " + runId + " ended " + snapshot.status() + " (" + snapshot.reason() + "); only a run"
                + " that answered (SUCCEEDED) or asked for input (needs_user_input) takes a reply; start a new run with 'rein run GOAL'");
    }
}
