package dev.rein.temporal.internal;

import dev.rein.agent.Agent;
import dev.rein.agent.DrivenRun;
import dev.rein.agent.RunResult;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import io.temporal.failure.ApplicationFailure;
import java.util.List;
import java.util.Map;

/**
 * The activities of one agent on one worker. A provider's retryable failure is a retryable
 * activity failure (Temporal retries it with backoff); any other failure is non-retryable and ends
 * the run FAILED with its reason.
 */
public final class AgentActivitiesImpl implements AgentActivities {
    private final DrivenRun run;

    public AgentActivitiesImpl(Agent agent) {
        this.run = new DrivenRun(agent, new HistoryStore(agent.config().safety().store()));
    }

    @Override
    public RunSnapshot begin(String runId, String goal) {
        return guarded(() -> run.begin(runId, goal));
    }

    @Override
    public DrivenRun.ModelStep callModel(RunSnapshot snapshot) {
        return guarded(() -> {
            try {
                return run.callModel(snapshot);
            } catch (DrivenRun.Failed failed) {
                throw failed.retryable()
                        ? ApplicationFailure.newFailure(failed.getMessage(), failed.reason())
                        : ApplicationFailure.newNonRetryableFailure(failed.getMessage(), failed.reason());
            }
        });
    }

    @Override
    public DrivenRun.Outcome act(RunSnapshot snapshot, ToolUses uses) {
        return guarded(() -> run.act(snapshot, uses.uses()));
    }

    @Override
    public DrivenRun.Checked verify(RunSnapshot snapshot, NextStep.Answer answer) {
        return guarded(() -> run.verify(snapshot, answer));
    }

    @Override
    public DrivenRun.Outcome stopForBudget(RunSnapshot snapshot, String budgetReason) {
        return guarded(() -> run.stopForBudget(snapshot, DrivenRun.budgetKind(budgetReason)));
    }

    @Override
    public void intervene(RunSnapshot snapshot, String kind, String message, Map<String, Object> details) {
        guarded(() -> {
            run.intervene(snapshot, kind, message, details);
            return null;
        });
    }

    @Override
    public RunSnapshot paused(RunSnapshot snapshot) {
        return guarded(() -> run.paused(snapshot));
    }

    @Override
    public RunSnapshot resumed(RunSnapshot snapshot) {
        return guarded(() -> run.resumed(snapshot));
    }

    @Override
    public RunResult end(RunSnapshot snapshot, RunStatus status, String reason, String message, String answer,
                         FinishReport report) {
        return guarded(() -> run.end(snapshot, status, reason, message, answer, report));
    }

    private interface Body<T> {
        T run() throws InterruptedException;
    }

    /** An interrupted attempt (the worker is stopping) is retried elsewhere; a bug is not retried. */
    private static <T> T guarded(Body<T> body) {
        try {
            return body.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApplicationFailure.newFailure("the activity was interrupted (the worker is stopping)", "interrupted");
        } catch (ApplicationFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw ApplicationFailure.newNonRetryableFailure("internal error: " + e, Reasons.INTERNAL_ERROR);
        }
    }
}
