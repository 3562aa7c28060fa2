package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.model.Model;
import dev.rein.store.jdbc.JdbcRunStore;
import java.nio.file.Path;
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
                + " completion is recorded is never repeated. The run goes on with the provider, base URL and price"
                + " it was started with unless --provider, --base-url or --price say otherwise. Exit codes as for 'rein run'.", ""})
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

    /** Defaults: what the run was started with (provider, base URL, price), then REIN_PROVIDER. */
    @Mixin
    ProviderOptions providerOptions;

    ResumeCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        RunSettings stored = home.settings(runId);
        ProviderSelection provider = providerOptions.select(env.env(), stored.provider());
        RunSettings settings = stored.with(provider);
        RunCommand.requirePrice(settings.model(), provider);
        if (trace != null) {
            TraceFile.checkWritable(trace);
        }
        Model client = env.models().create(settings.model(), provider.environment(env.env()));
        try (JdbcRunStore store = home.store(); StatusLine line = new StatusLine(env.err(), env.terminal().animated() && !json)) {
            Agent agent = CliAgent.build(settings, runId, client, home, store, line, quiet, trace);
            return Foreground.run(() -> agent.startResume(runId), env, new RunReport(env, json, quiet, trace)::print);
        } finally {
            RunCommand.closeQuietly(client, env, "rein resume");
        }
    }
}
