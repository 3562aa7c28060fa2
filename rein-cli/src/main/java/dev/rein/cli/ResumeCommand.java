package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalRequest;
import dev.rein.state.RunSnapshot;
import java.util.List;
import java.util.stream.Collectors;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @ExampleValue("run_3f1c9a7e5b2d4c8e6a0b")
    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @Mixin
    StoredRunOptions options;

    ResumeCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        // the id as 'rein runs' shows it names the run too (CliHome.storedRunId)
        return options.continueRun(env, runId, "rein resume", this::requireResumable, Agent::startResume, Agent::streamResume);
    }

    /** Refuses, in the command's own terms, a run that cannot continue, before any model is created. */
    private void requireResumable(JdbcRunStore store, String runId) {
        RunSnapshot snapshot = store.load(runId).orElseThrow(() -> CliHome.of(env.env()).noSuchRun(runId));
        if (snapshot.status().terminal()) {
            throw new UsageException("run " + runId + " already ended " + snapshot.status() + " (" + snapshot.reason()
                    + "); there is nothing to resume; see " + SuggestedCommand.forRun("rein show", runId) + ", or " + nextTurn(snapshot));
        }
        List<ApprovalRequest> pending = snapshot.pendingApprovals();
        if (!pending.isEmpty()) {
            throw new UsageException("run " + runId + " still waits for a decision on " + pending.stream()
                    .map(r -> r.tool() + " (action " + ActionHash.shortForm(r.actionHash()) + ")").distinct()
                    .collect(Collectors.joining(", ")) + "; decide with " + SuggestedCommand.forRun("rein approve", runId)
                    + " (see " + SuggestedCommand.forRun("rein show", runId) + "), then run " + SuggestedCommand.forRun("rein resume", runId) + " again");
        }
        if (snapshot.status() == dev.rein.run.RunStatus.RUNNING) {
            // The store keeps no owner or heartbeat, so whether a process still runs it cannot be known: say what is
            // assumed and what the store's compare-and-set saves make of two processes on one run.
            env.err().println("run " + runId + " is stored as RUNNING: it is taken to have stopped with its process and is"
                    + " continued here; if another process is still running it, the one that saves second stops"
                    + " (store_conflict) and the other carries the run on");
        }
    }

    /**
     * What continues an ended run: a run that asked for input, answered or was cancelled takes the person's reply
     * as its next turn (starting over would lose what it knows); any other starts again.
     */
    static String nextTurn(RunSnapshot snapshot) {
        if (asked(snapshot)) {
            return "answer its question with " + SuggestedCommand.forRun("rein reply", snapshot.runId(), "\"TEXT\"");
        }
        if (snapshot.status() == dev.rein.run.RunStatus.SUCCEEDED) {
            return "ask a follow-up with " + SuggestedCommand.forRun("rein reply", snapshot.runId(), "\"TEXT\"");
        }
        if (snapshot.status() == dev.rein.run.RunStatus.CANCELLED) {
            return "continue it with " + SuggestedCommand.forRun("rein reply", snapshot.runId(), "\"TEXT\"") + " (the calls the cancel left without a"
                    + " result are answered as cancelled first)";
        }
        return "start a new run with 'rein run GOAL'";
    }

    /** Whether a reply continues the ended run (Agent.reply): it answered, asked for input or was cancelled. */
    static boolean takesReply(RunSnapshot snapshot) {
        return asked(snapshot) || snapshot.status() == dev.rein.run.RunStatus.SUCCEEDED
                || snapshot.status() == dev.rein.run.RunStatus.CANCELLED;
    }

    private static boolean asked(RunSnapshot snapshot) {
        return snapshot.status() == dev.rein.run.RunStatus.FAILED && dev.rein.run.Reasons.NEEDS_USER_INPUT.equals(snapshot.reason());
    }
}
