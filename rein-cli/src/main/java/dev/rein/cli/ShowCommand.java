package dev.rein.cli;

import dev.rein.state.RunView;
import dev.rein.state.Runs;
import dev.rein.store.jdbc.JdbcRunStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein show RUN [--json]}: one stored run in detail. */
@Command(name = "show", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Show a run: state, pending approvals, handoff and a trace summary.",
        description = {"Shows a stored run: its status and reason, answer, the actions waiting for approval (tool,"
                + " exact arguments, risk, action hash), the handoff (confirmed facts, open questions, attempted"
                + " actions) when a person must take over, and one line per trace event.", ""})
final class ShowCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("run_3f1c9a7e5b2d4c8e6a0b")
    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @Option(names = "--json", description = "Print the run as one JSON object on stdout (schema in docs/cli.md):"
            + " run_id, status, reason, goal, model, steps, usage (as in 'rein run --json'), cost_usd, pending_approvals,"
            + " created_at, updated_at, message, answer, pending_actions, handoff, trace, replies.")
    boolean json;

    ShowCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        try (JdbcRunStore store = home.existingStore()) {
            // the id as 'rein runs' shows it names the run too: an older Rein's id with a control character, escaped
            runId = home.storedRunId(store, runId, env.err(), "rein show");
            Runs runs = Runs.in(store);
            if (dev.rein.internal.text.RunIds.unstorable(runId) != null || runs.find(runId).isEmpty()) {
                throw home.noSuchRun(runId);
            }
            RunView view = runs.show(runId);
            // Goal, answer, arguments and trace lines come from people, models and tools: no raw control characters.
            env.out().print(json ? ResultJson.line(StoredRunJson.show(view)) + System.lineSeparator()
                    : Text.visibleLines(view.describe()));
            return ExitCodes.SUCCEEDED;
        }
    }
}
