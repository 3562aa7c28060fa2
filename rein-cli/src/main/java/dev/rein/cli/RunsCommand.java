package dev.rein.cli;

import dev.rein.state.RunSummary;
import dev.rein.store.jdbc.JdbcRunStore;
import java.math.RoundingMode;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code rein runs [--json]}: the stored runs, newest first. */
@Command(name = "runs", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "List the stored runs with their status, step and cost.",
        description = {"Lists the runs stored in $REIN_HOME (default .rein in the working directory), newest first."
                + " Listing never creates the store: where there is none, it says so.", ""})
final class RunsCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @Option(names = "--json", description = "Print one JSON object on stdout, {\"runs\": [...]}, newest first (schema in docs/cli.md).")
    boolean json;

    RunsCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        if (!home.hasStore()) {
            // Listing is reading: no store is created just to find it empty.
            print(List.of());
            env.err().println("rein runs: " + home.noStoreMessage());
            return ExitCodes.SUCCEEDED;
        }
        try (JdbcRunStore store = home.existingStore()) {
            // a row edited outside Rein that cannot be read is left out, and said, rather than hide every other run
            List<RunSummary> runs = store.list(unlisted -> env.err().println("rein runs: " + Text.visible(unlisted)));
            print(runs);
            if (runs.isEmpty()) {
                env.err().println("rein runs: no runs stored in " + home.directory().toAbsolutePath() + "; start one with 'rein run GOAL'");
            }
            return ExitCodes.SUCCEEDED;
        }
    }

    private void print(List<RunSummary> runs) {
        if (json) {
            env.out().println(ResultJson.line(StoredRunJson.runs(runs)));
            return;
        }
        if (runs.isEmpty()) {
            return;
        }
        env.out().printf("%-26s %-21s %-22s %5s %10s  %s%n", "RUN", "STATUS", "REASON", "STEPS", "COST USD", "GOAL");
        for (RunSummary run : runs) {
            String status = run.status().name() + (run.pendingApprovals() > 0 ? " (" + run.pendingApprovals() + ")" : "");
            env.out().printf("%-26s %-21s %-22s %5d %10s  %s%n", Text.visible(run.runId()), status, Text.visible(run.reason()),
                    run.steps(), run.costUsd().setScale(6, RoundingMode.HALF_UP).toPlainString(), Text.shorten(run.goal(), 60));
        }
    }
}
