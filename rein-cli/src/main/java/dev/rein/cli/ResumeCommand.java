package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.mcp.McpConfig;
import dev.rein.model.Model;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalRequest;
import dev.rein.state.RunSnapshot;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein resume RUN}: continues a stored run in this process. */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Continue a run after its approvals were decided, or after its process died.",
        description = {"Continues a stored run with the agent it was started with (model, tools, system prompt, budget)."
                + " Decided actions run (approved, edited) or answer the model (rejected); a side effect whose"
                + " completion is recorded is never repeated. The run's MCP servers (its --mcp file) are started again."
                + " The run goes on with the provider, base URL and price it was started with unless --provider,"
                + " --base-url or --price say otherwise. Exit codes as for 'rein run'.", ""})
final class ResumeCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @Option(names = "--trace", paramLabel = "FILE", description = "Append the resumed run's JSONL trace to FILE.")
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

    ResumeCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        if (!home.hasStore()) {
            throw new UsageException(home.noStoreMessage());
        }
        RunSettings stored = home.settings(runId);
        ProviderSelection provider = providerOptions.select(env.env(), stored.provider());
        RunSettings settings = (maxTokens == null ? stored : stored.withMaxTokens(maxTokens)).with(provider);
        RunCommand.requirePrice(settings.model(), provider);
        if (trace != null) {
            TraceFile.checkWritable(trace);
        }
        try (JdbcRunStore store = home.store()) {
            requireResumable(store);
            if (maxTokens != null) {
                home.saveSettings(runId, settings); // later resumes keep the raised limit
            }
            // The run's own servers file unless --mcp names another.
            Path serversFile = mcp.file != null ? mcp.file : CliMcp.remembered(home, runId);
            McpConfig servers = serversFile == null ? null : CliMcp.load(serversFile, env);
            Model client = env.models().create(settings.model(), provider.environment(env.env()));
            try (CliMcp mcpTools = CliMcp.start(serversFile, servers, settings.tools());
                 StatusLine line = new StatusLine(env.err(), env.terminal().animated() && !json);
                 CliTelemetry telemetry = CliTelemetry.from(env, home)) {
                Agent agent = CliAgent.build(settings, runId, client, home, store, line, quiet, trace, telemetry, mcpTools);
                RunReport report = new RunReport(env, json, quiet, trace, agent.runs()::pending);
                return Foreground.run(() -> agent.startResume(runId), env, report::print);
            } finally {
                RunCommand.closeQuietly(client, env, "rein resume");
            }
        }
    }

    /** Refuses, in the command's own terms, a run that cannot continue, before any model is created. */
    private void requireResumable(JdbcRunStore store) {
        RunSnapshot snapshot = store.load(runId).orElseThrow(() -> new UsageException("there is no run " + runId
                + " in the run store; list the stored runs with 'rein runs'"));
        if (snapshot.status().terminal()) {
            throw new UsageException("run " + runId + " already ended " + snapshot.status() + " (" + snapshot.reason()
                    + "); there is nothing to resume; see 'rein show " + runId + "', or start a new run with 'rein run GOAL'");
        }
        List<ApprovalRequest> pending = snapshot.pendingApprovals();
        if (!pending.isEmpty()) {
            throw new UsageException("run " + runId + " still waits for a decision on " + pending.stream()
                    .map(r -> r.tool() + " (action " + ActionHash.shortForm(r.actionHash()) + ")").distinct()
                    .collect(Collectors.joining(", ")) + "; decide with 'rein approve " + runId + "' (see 'rein show " + runId
                    + "'), then run 'rein resume " + runId + "' again");
        }
    }
}
