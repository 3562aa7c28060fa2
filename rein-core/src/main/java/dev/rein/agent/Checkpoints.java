package dev.rein.agent;

import dev.rein.state.BudgetUsage;
import dev.rein.state.RunSnapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Turns a run into its stored snapshot and saves it; the store refuses a save that lost a race. */
final class Checkpoints {
    private Checkpoints() {}

    /** @param result the final or pausing result, or null while the run is going on */
    static void save(Run run, RunResult result) {
        RunSnapshot snapshot = snapshot(run, result);
        run.config.safety().store().save(snapshot);
        run.saved(snapshot.version());
    }

    /** The run as a snapshot, secrets masked; not saved. */
    static RunSnapshot snapshot(Run run, RunResult result) {
        Instant now = run.now();
        long active = run.activeMillis();
        run.noteBudget(new BudgetUsage(run.step(), run.meter.usage(), run.meter.costUsd(), active));
        RunSnapshot snapshot = new RunSnapshot(RunSnapshot.FORMAT, run.runId, run.version() + 1, run.goal, run.config.modelName(),
                run.status(), result == null ? "" : result.reason(), result == null ? "" : result.message(),
                result == null ? "" : result.answer(), run.createdAt, now, active, run.principal, run.history(), run.step(),
                run.meter.usage(), run.meter.costUsd(), run.decisions().verificationFailures(), run.executor.callCounts(), run.state(),
                run.approvals.snapshot(), result == null ? null : result.finish(), run.conversation, handedOut(run),
                run.criticRounds, run.keptSchema != null ? run.keptSchema
                        : run.config.outputSchema().map(dev.rein.state.StoredOutputSchema::of).orElse(null));
        // masks secrets that became known late, and any that reached text Rein cannot mask on entry (thinking)
        return run.redactor.redactValue(snapshot);
    }

    /** The names of the secrets a lookup handed out in this run: what a resumed run asks for again to mask them. */
    private static List<String> handedOut(Run run) {
        Map<String, String> known = run.secrets.known();
        if (known.isEmpty()) {
            return List.of();
        }
        Map<String, String> registered = run.config.secrets().known();
        return known.keySet().stream().filter(name -> !registered.containsKey(name)).toList();
    }
}
