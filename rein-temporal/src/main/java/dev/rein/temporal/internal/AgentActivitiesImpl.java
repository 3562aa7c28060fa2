package dev.rein.temporal.internal;

import dev.rein.agent.Agent;
import dev.rein.agent.DrivenRun;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalState;
import dev.rein.context.OutputStore;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.security.TraceRedactor;
import dev.rein.state.RunSnapshot;
import dev.rein.temporal.internal.Payloads.Acted;
import dev.rein.temporal.internal.Payloads.CallDone;
import dev.rein.temporal.internal.Payloads.Checked;
import dev.rein.temporal.internal.Payloads.Edit;
import dev.rein.temporal.internal.Payloads.ModelStep;
import dev.rein.temporal.internal.Payloads.Planned;
import dev.rein.temporal.internal.Payloads.RunRef;
import dev.rein.temporal.internal.Payloads.Turn;
import dev.rein.tool.ToolCall;
import io.temporal.activity.Activity;
import io.temporal.failure.ApplicationFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The activities of one agent on one worker. Each rebuilds the run from its stored snapshot,
 * performs one effect with the agent's own chains, stores the next snapshot and returns its
 * reference. A provider's retryable failure is a retryable activity failure (Temporal retries it
 * with backoff); any other failure is non-retryable and ends the run FAILED with its reason.
 */
public final class AgentActivitiesImpl implements AgentActivities {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AgentActivitiesImpl.class);
    private final Agent agent;
    private final DrivenRun run;
    private final Blobs blobs;
    /** Failure messages become part of the workflow history (the run's record on Temporal): masked as the trace is. */
    private final TraceRedactor masker;
    /** The worker's converter once found to be Rein's (see {@link #requireReinsConverter}). */
    private volatile io.temporal.common.converter.DataConverter checkedConverter;

    /** @param store where snapshots and tool results are kept by hash: one store shared by every worker of the queue */
    public AgentActivitiesImpl(Agent agent, OutputStore store) {
        this.agent = agent;
        this.run = new DrivenRun(agent, new HistoryStore(agent.config().safety().store()));
        this.blobs = new Blobs(store);
        this.masker = new TraceRedactor(agent.config().secrets()::known);
    }

    @Override
    public RunRef begin(String runId, String goal) {
        return guarded(() -> {
            // a workflow started around TemporalAgentClient.start (a raw stub, the Temporal CLI) under an id no run can
            // have: said in the workflow's terms and ended configuration_error, not as an internal error of begin(...)
            String problem = runId == null ? null : dev.rein.internal.text.RunIds.problem(runId);
            if (problem != null) {
                throw new dev.rein.ConfigurationException("the workflow id '" + dev.rein.internal.text.RunIds.shown(runId)
                        + "' cannot be a run's id: " + problem + "; start runs with TemporalAgentClient.start, which refuses"
                        + " such an id before anything starts");
            }
            // a server whose limit.maxIDLength was raised takes a longer workflow id, which begin(...) refuses
            String overLimit = runId == null ? null : dev.rein.internal.text.RunIds.overLimit(runId);
            if (overLimit != null) {
                throw new dev.rein.ConfigurationException("the workflow id " + overLimit + ": start runs with"
                        + " TemporalAgentClient.start, which refuses such an id before anything starts");
            }
            return ref(run.begin(runId, goal));
        });
    }

    @Override
    public ModelStep callModel(Turn turn) {
        return callingTheModel(turn, (snapshot, attempt) -> {
            DrivenRun.ModelStep step = run.callModel(snapshot, attempt);
            return new ModelStep(ref(step.snapshot()), step.response(), step.answerText(), step.outputLimitCut());
        });
    }

    /** An effect whose model call Temporal retries as this activity's attempts ({@link #callingTheModel}). */
    private interface ModelEffect<T> {
        T run(RunSnapshot snapshot, int attempt) throws DrivenRun.Failed, InterruptedException;
    }

    /**
     * Runs {@code effect} as attempt N of its model call (the step's, the summary, the critic's review), N the provider's
     * failures so far plus one, which the last attempt's heartbeats carry: Temporal's attempt number also counts attempts
     * lost with their worker, which are not the provider's errors the agent's retry policy is about. A retryable failure
     * is this attempt's, with the delay the policy chose (traced as locally), which Temporal waits.
     */
    private <T> T callingTheModel(Turn turn, ModelEffect<T> effect) {
        int failedBefore = Activity.getExecutionContext().getHeartbeatDetails(Integer.class).orElse(0);
        long sinceScheduled = sinceScheduled(Activity.getExecutionContext().getInfo());
        return guarded(failedBefore, alive -> {
            try {
                // the Turn is the call's at its scheduling: the delays waited and the attempts made since count toward
                // the deadline, as a local run's retries do, so a retry whose delay would pass it is not made
                return effect.run(resolve(turn, sinceScheduled), failedBefore + 1);
            } catch (DrivenRun.Failed failed) {
                String message = masker.redact(failed.getMessage());
                if (failed.retryable()) {
                    alive.details(failedBefore + 1);
                    throw ApplicationFailure.newFailureWithCauseAndDelay(message, failed.reason(), null,
                            AgentWorkflowImpl.failureDelay(failed.retryDelay()));
                }
                // the run after the call (the step counted) goes with a final failure: the run ends from it, as locally
                throw failed.snapshot() == null ? ApplicationFailure.newNonRetryableFailure(message, failed.reason())
                        : ApplicationFailure.newNonRetryableFailure(message, failed.reason(), ref(failed.snapshot()));
            }
        });
    }

    @Override
    public Planned planTools(Turn turn, ToolUses uses) {
        return guarded(() -> {
            DrivenRun.ToolPlan plan = run.planTools(resolve(turn), uses.uses());
            return new Planned(ref(plan.snapshot()), plan.next(), plan.calls(), plan.sideEffecting());
        });
    }

    @Override
    public CallDone callTool(Turn turn, ToolCall call, Map<String, Integer> callCounts) {
        return guarded(() -> {
            DrivenRun.CallOutcome outcome = run.callTool(resolve(turn), call, callCounts);
            // the result goes out of band: a long output (the truncation stage off, or its preview) never becomes a payload
            String result = outcome.result() == null ? null : blobs.put(outcome.result());
            return new CallDone(call.id(), call.name(), result, outcome.request(), outcome.counted());
        });
    }

    @Override
    public Acted completeTools(Turn turn, ToolUses uses, List<CallDone> outcomes) {
        return guarded(() -> {
            List<DrivenRun.CallOutcome> resolved = new ArrayList<>();
            for (CallDone done : outcomes) {
                resolved.add(new DrivenRun.CallOutcome(done.callId(), done.result() == null ? null : blobs.result(done.result()),
                        done.request(), done.counted()));
            }
            DrivenRun.Outcome outcome = run.completeTools(resolve(turn), uses.uses(), resolved);
            return new Acted(ref(outcome.snapshot()), outcome.next());
        });
    }

    @Override
    public Checked verify(Turn turn, NextStep.Answer answer) {
        return callingTheModel(turn, (snapshot, attempt) -> {
            DrivenRun.Checked checked = run.verify(snapshot, answer, turn.criticRounds(), attempt);
            return new Checked(ref(checked.snapshot()), checked.missing(), checked.invalidOutput(), checked.outOfTime(),
                    checked.criticRounds());
        });
    }

    @Override
    public Acted stopForBudget(Turn turn, String budgetReason) {
        return callingTheModel(turn, (snapshot, attempt) -> {
            DrivenRun.Outcome outcome = run.stopForBudget(snapshot, DrivenRun.budgetKind(budgetReason), attempt);
            return new Acted(ref(outcome.snapshot()), outcome.next());
        });
    }

    @Override
    public void intervene(Turn turn, String kind, String message, Map<String, Object> details) {
        guarded(() -> {
            run.intervene(resolve(turn), kind, message, details);
            return null;
        });
    }

    @Override
    public RunRef paused(Turn turn) {
        return guarded(() -> ref(run.paused(resolve(turn))));
    }

    @Override
    public RunRef resumed(Turn turn) {
        return guarded(() -> ref(run.resumed(resolve(turn))));
    }

    @Override
    public RunResult end(Turn turn, RunStatus status, String reason, String message, String answer, FinishReport report) {
        // the time the end waited for a worker is the run's too (the workflow's own end counts it when none comes):
        // resolve counts it, as for every activity
        return guarded(() -> {
            RunSnapshot snapshot = resolve(turn);
            // a cancel ending a pause: DrivenRun.end tells the decisions taken on it first, to the listeners of the end
            RunResult full = run.end(snapshot, status, reason, message, answer, report);
            return Results.light(full, blobs.put(full));
        });
    }

    /**
     * How long before this attempt started the call was first scheduled, in milliseconds: the retries' delays, earlier
     * attempts (a lost worker's among them) and the wait for a worker. Both times are the Temporal server's, so a
     * worker's clock that differs does not count; 0 when the context does not give them (a test double).
     */
    static long sinceScheduled(io.temporal.activity.ActivityInfo info) {
        if (info == null) {
            return 0;
        }
        long scheduled = info.getScheduledTimestamp();
        long started = info.getStartedTimestamp();
        return scheduled <= 0 || started <= scheduled ? 0 : started - scheduled;
    }

    /**
     * The stored snapshot with what the workflow knows newer than it, the run's time counted to this attempt's start:
     * the Turn is the activity's at its scheduling, so an attempt after a lost worker (or one that waited for a worker)
     * would count the deadline from its own start, and a tool or verifier could run past the run's real deadline.
     */
    private RunSnapshot resolve(Turn turn) {
        return resolve(turn, sinceScheduled(Activity.getExecutionContext().getInfo()));
    }

    /** As {@link #resolve(Turn)}, {@code laterMillis} more of the run's time gone since the workflow made the Turn. */
    private RunSnapshot resolve(Turn turn, long laterMillis) {
        RunSnapshot s = blobs.snapshot(turn.snapshot());
        s = DrivenRun.at(s, turn.activeMillis() + laterMillis, turn.verificationFailures());
        s = DrivenRun.withApprovals(s, new ApprovalState(turn.requests(), turn.decisions(), s.approvals().completed()));
        for (Edit edit : turn.edits()) {
            s = edit.appendText() != null ? DrivenRun.appendUserText(s, edit.appendText()) : DrivenRun.observe(s, edit.observe());
        }
        return s;
    }

    private RunRef ref(RunSnapshot s) {
        return new RunRef(blobs.put(s), s.steps(), s.usage(), s.costUsd(), s.approvals().requests(), s.approvals().decisions(),
                s.toolCallCounts(), s.verificationFailures());
    }

    /**
     * This worker's client must use Rein's converter: the worker's client is not visible when the agent is registered,
     * and a worker without it would read this activity's input with fields left empty, and write a result the
     * workflow cannot read, again on each retry until the run's deadline. Checked once per converter; not at all when
     * the context does not show the client.
     */
    void requireReinsConverter(io.temporal.activity.ActivityExecutionContext context) {
        io.temporal.client.WorkflowClient client = context.getWorkflowClient();
        if (client == null || client.getOptions() == null || client.getOptions().getDataConverter() == null) {
            return; // a context that does not show its worker's client (a test double, say): there is nothing to check
        }
        io.temporal.common.converter.DataConverter converter = client.getOptions().getDataConverter();
        if (converter == checkedConverter) {
            return;
        }
        String problem = WorkerConverter.activityWorkerProblem(converter, context.getInfo().getActivityTaskQueue());
        if (problem != null) {
            throw ApplicationFailure.newNonRetryableFailure(problem, WorkerConverter.UNREADABLE);
        }
        checkedConverter = converter;
    }

    /**
     * An operator paused or reset the activity and its call was stopped for it: the attempt fails retryably, whatever
     * the interrupted call answered, so that Temporal makes the call again once the activity is unpaused.
     */
    private static void throwIfStoppedByAnOperator(Heartbeats alive) {
        ApplicationFailure stopped = alive.stoppedByAnOperator();
        if (stopped != null) {
            throw stopped;
        }
    }

    /**
     * The worker is stopping and the attempt's code ended on the interrupt shutdownNow sent its thread in a way of its
     * own, not with InterruptedException: it returned or threw with the thread's interrupt status set again (as
     * Tool.abortsOnInterrupt and Model.abortsOnInterrupt allow: "returning or throwing", "or any failure"), or threw an
     * exception the interrupt caused. Its outcome is the stop's, not the call's, so the attempt fails retryably as one
     * ended by InterruptedException does. An interrupt of Rein's own (the run cancelled, an operator's pause) is not
     * taken for it, nor an interrupt while the worker is not stopping, nor a failure during a graceful stop (no interrupt).
     */
    private static void throwIfTheWorkerStopped(Heartbeats alive, Throwable ended) {
        if (!alive.interruptedTheCall() && (Thread.currentThread().isInterrupted() || Interrupts.caused(ended))
                && alive.workerStopping()) {
            throw workerStopped();
        }
    }

    private static ApplicationFailure workerStopped() {
        return ApplicationFailure.newFailure("the activity was interrupted (the worker is stopping)", "interrupted");
    }

    private interface Body<T> {
        T run() throws InterruptedException;
    }

    /** A body that sets what its heartbeats carry. */
    private interface Beating<T> {
        T run(Heartbeats alive) throws InterruptedException;
    }

    private <T> T guarded(Body<T> body) {
        return guarded(null, alive -> body.run());
    }

    /**
     * An interrupted attempt (the worker is stopping) is retried elsewhere; a bug is not retried. The attempt
     * heartbeats while it runs: a model or tool call (the step's, a summary's, a critic's) may take longer than one
     * attempt timeout, and only a dead worker's attempt is to be started again. No attempt ends with its thread's
     * interrupt set (the run cancelled, the worker stopping): the SDK reports the outcome on that thread, which gRPC
     * would refuse, and the thread goes back to its pool.
     */
    private <T> T guarded(Object details, Beating<T> body) {
        requireReinsConverter(Activity.getExecutionContext());
        Heartbeats alive = Heartbeats.start(Activity.getExecutionContext(), details);
        try {
            T value = body.run(alive);
            throwIfStoppedByAnOperator(alive); // a call that answered its interrupt with a result: not its real outcome
            throwIfTheWorkerStopped(alive, null);
            return value;
        } catch (InterruptedException e) {
            throwIfStoppedByAnOperator(alive);
            if (alive.interruptedTheCall()) {
                if (alive.why() instanceof io.temporal.client.ActivityCanceledException cancelled) {
                    // reported as a cancel: a workflow that waits for its cancelled activities (a step's other reads)
                    // sees it as one, not as a failure of the call
                    throw cancelled;
                }
                throw ApplicationFailure.newNonRetryableFailure("the call was interrupted: the run was cancelled, or this"
                        + " attempt is over for Temporal", "cancelled");
            }
            // the worker is stopping (shutdownNow interrupts its activities' threads): the attempt fails retryably, and
            // Temporal makes the call again at once on another worker. The interrupt is not set again: the SDK reports
            // this failure on this thread, and gRPC cancels a call made from an interrupted thread, which left the
            // attempt to its timeout (5 minutes by default) before the call was made again
            throw workerStopped();
        } catch (ApplicationFailure e) {
            if (e.getType() == null || !e.getType().equals(Heartbeats.PAUSED) && !e.getType().equals(Heartbeats.RESET)) {
                throwIfStoppedByAnOperator(alive); // a final failure of the interrupted call would end the run
                if (e.isNonRetryable()) {
                    throwIfTheWorkerStopped(alive, e); // a model that ended on the stop's interrupt with a failure
                }
            }
            throw e;
        } catch (RuntimeException e) {
            throwIfStoppedByAnOperator(alive);
            throwIfTheWorkerStopped(alive, e);
            // the exception's own message may carry a secret (the application's code wrote it), and no cause is
            // attached: Temporal would keep its message and stack trace in the history unmasked. A ReinException (the
            // application's setup or code: an unpriced model a stage chose) says what to change in its own words, as locally
            String message = e instanceof dev.rein.ReinException ? e.getMessage() : "internal error: " + e;
            // a setting that cannot work ends the run configuration_error, as locally (the failure's type is the reason)
            throw ApplicationFailure.newNonRetryableFailure(masker.redact(message),
                    e instanceof dev.rein.ConfigurationException ? Reasons.CONFIGURATION_ERROR : Reasons.INTERNAL_ERROR);
        } finally {
            alive.close();
            // the attempt is over, whatever interrupted its call (a cancel, an operator, the worker stopping, also one
            // that came as the call returned): an interrupt still set would make gRPC cancel the SDK's report of the
            // outcome on this thread, or reach the pool's next activity
            Thread.interrupted();
        }
    }
}
