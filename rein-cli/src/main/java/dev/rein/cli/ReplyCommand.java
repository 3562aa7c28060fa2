package dev.rein.cli;

import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.state.RunSnapshot;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code rein reply RUN TEXT}: continues an ended run with the next turn of the conversation. */
@Command(name = "reply", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Answer a run that asked for input, or ask a follow-up after its answer.",
        description = {"Continues an ended run (SUCCEEDED, FAILED with needs_user_input, or CANCELLED) as its next turn, with the agent"
                + " it was started with (model, tools, system prompt). The run keeps its history, facts and approvals;"
                + " the budget applies to this turn. Exit codes as for 'rein run'.", ""})
final class ReplyCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("run_3f1c9a7e5b2d4c8e6a0b")
    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @ExampleValue("\"Room B, please\"")
    @Parameters(index = "1", paramLabel = "TEXT", description = "The reply: the answer to the run's question, or a follow-up.")
    String text;

    @Mixin
    StoredRunOptions options;

    ReplyCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        // the id as 'rein runs' shows it names the run too (CliHome.storedRunId)
        return options.continueRun(env, runId, "rein reply", this::requireReplyable, (agent, id) -> agent.startReply(id, text),
                (agent, id) -> agent.streamReply(id, text));
    }

    /** Refuses, in the command's own terms, a run that cannot take a reply, before any model is created. */
    private void requireReplyable(JdbcRunStore store, String runId) {
        if (Text.showsNothing(text)) {
            throw new UsageException("the reply is empty: give the answer or the follow-up question as TEXT");
        }
        // the reply is the run's next goal: bytes the JVM replaced would reach the model silently changed
        CommandLineArgs.requireUtf8("TEXT", text);
        RunSnapshot snapshot = store.load(runId).orElseThrow(() -> CliHome.of(env.env()).noSuchRun(runId));
        if (snapshot.status().takesReply(snapshot.reason())) {
            return;
        }
        if (!snapshot.status().terminal()) {
            throw new UsageException("run " + runId + " has not ended (" + snapshot.status() + "); continue it with "
                    + SuggestedCommand.forRun("rein resume", runId) + " (after 'rein approve' if it waits for a decision)");
        }
        throw new UsageException("run " + runId + " ended " + snapshot.status() + " (" + snapshot.reason() + "); only a run"
                + " that answered (SUCCEEDED), asked for input (needs_user_input) or was cancelled (CANCELLED) takes a reply; start a new run with 'rein run GOAL'");
    }
}
