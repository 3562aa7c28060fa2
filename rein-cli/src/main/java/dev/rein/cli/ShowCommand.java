package dev.rein.cli;

import dev.rein.state.Runs;
import dev.rein.store.jdbc.JdbcRunStore;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code rein show RUN}: one stored run in detail. */
@Command(name = "show", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "Show a run: state, pending approvals, handoff and a trace summary.",
        description = {"Shows a stored run: its status and reason, answer, the actions waiting for approval (tool,"
                + " exact arguments, risk, action hash), the handoff (confirmed facts, open questions, attempted"
                + " actions) when a person must take over, and one line per trace event.", ""})
final class ShowCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    ShowCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        try (JdbcRunStore store = CliHome.of(env.env()).existingStore()) {
            // Goal, answer, arguments and trace lines come from people, models and tools: no raw control characters.
            env.out().print(Text.visibleLines(Runs.in(store).show(runId).describe()));
            return ExitCodes.SUCCEEDED;
        }
    }
}
