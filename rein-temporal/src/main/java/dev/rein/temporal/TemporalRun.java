package dev.rein.temporal;

import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.temporal.internal.AgentWorkflow;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalState;
import dev.rein.approval.ApprovalRequest;
import dev.rein.context.OutputStore;
import dev.rein.run.RunStatus;
import dev.rein.security.TraceRedactor;
import dev.rein.state.Runs;
import dev.rein.temporal.internal.Results;
import io.temporal.client.WorkflowClient;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowQueryException;
import io.temporal.client.WorkflowServiceException;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A run on Temporal: its status, its pending approvals, decisions on them, cancel, and its result. */
public final class TemporalRun {
    /** Longer waits are waits without a limit. */
    private static final Duration LONGEST_WAIT = Duration.ofDays(36_525);
    private final WorkflowClient client;
    private final String runId;
    private final OutputStore runStore;
    private final Agent agent;
    private final String taskQueue;

    TemporalRun(WorkflowClient client, String runId, OutputStore runStore, Agent agent, String taskQueue) {
        this.client = client;
        this.runId = runId;
        this.runStore = runStore;
        this.agent = agent;
        this.taskQueue = taskQueue;
    }

    public String runId() {
        return runId;
    }

    /**
     * The status now (a query: answered by a worker). A workflow that Temporal ended without Rein — terminated
     * from the Temporal CLI or UI, timed out by a timeout set outside Rein — is FAILED: the run is over and did not
     * succeed, and {@link #result()} says how it ended.
     *
     * @throws ReinException when Temporal has no run with this id, or no worker answered (none polls the run's task queue)
     */
    public RunStatus status() {
        RunStatus status = query(() -> workflow().status(), RunStatus.FAILED);
        // the replayed state of a workflow Temporal cut off is where it stopped: RUNNING, say
        return !status.terminal() && endedOutsideRein() ? RunStatus.FAILED : status;
    }

    /** The actions waiting for a decision (a query, refused as {@link #status()} is); none once the run has ended. */
    public List<ApprovalRequest> pendingApprovals() {
        List<ApprovalRequest> pending = query(() -> workflow().pendingApprovals(), List.of());
        return !pending.isEmpty() && endedOutsideRein() ? List.of() : pending;
    }

    /** Decisions the run refused because no pending action had their hash (a query, refused as {@link #status()} is). */
    public List<String> refusedDecisions() {
        return query(() -> workflow().refusedDecisions(), List.of());
    }

    /**
     * A query on a workflow ended from outside Rein may fail: the worker replays its history, and the SDK's replay
     * can refuse the termination event. Such a run answers {@code endedOutsideRein}.
     */
    private <T> T query(java.util.function.Supplier<T> query, T endedOutsideRein) {
        try {
            return query(query);
        } catch (WorkflowQueryException e) {
            if (endedOutsideRein()) {
                return endedOutsideRein;
            }
            throw e;
        }
    }

    private boolean endedOutsideRein() {
        return switch (described().getStatus()) {
            case WORKFLOW_EXECUTION_STATUS_TERMINATED, WORKFLOW_EXECUTION_STATUS_TIMED_OUT, WORKFLOW_EXECUTION_STATUS_FAILED -> true;
            default -> false;
        };
    }

    /** The run's newest execution as Temporal describes it, a refusal said in Rein's terms. */
    private io.temporal.client.WorkflowExecutionDescription described() {
        try {
            return stub().describe();
        } catch (WorkflowNotFoundException e) {
            throw noSuchRun(e);
        } catch (WorkflowServiceException e) {
            throw notAnswered("a description of", e);
        }
    }

    /**
     * A query says what went wrong in Rein's terms: Temporal's own exceptions name neither the missing worker nor
     * what to do (a query with no worker to answer it fails after about a minute with a bare DEADLINE_EXCEEDED).
     */
    private <T> T query(java.util.function.Supplier<T> query) {
        try {
            return query.get();
        } catch (WorkflowNotFoundException e) {
            throw noSuchRun(e);
        } catch (WorkflowServiceException e) {
            if (e.getCause() instanceof StatusRuntimeException grpc && grpc.getStatus().getCode() == Status.Code.DEADLINE_EXCEEDED) {
                throw new ReinException("no worker answered a query about run '" + runId + "': no worker seems to poll its task"
                        + " queue ('" + taskQueue + "' for runs this client starts). Start one with TemporalAgents.worker on that"
                        + " queue (a query needs a running worker, also after the run ended), and check that the client and"
                        + " the workers name the same queue", e);
            }
            throw notAnswered("a query about", e);
        }
    }

    /** A query or description Temporal's service refused (unreachable, say): nothing about the run changed. */
    private ReinException notAnswered(String what, WorkflowServiceException e) {
        if (TemporalAgentClient.interrupted(e)) {
            // the caller's own interrupt ended the call (gRPC cancels it), not Temporal: said so, and the interrupt kept
            Thread.currentThread().interrupt();
            return new ReinException(what + " run '" + runId + "' was interrupted (the calling thread's interrupt, which"
                    + " it keeps): the run itself is as it was; ask again", e);
        }
        return TemporalAgentClient.refused(client, "Temporal did not answer " + what + " run '" + runId + "'",
                "check the run id (the workflow id start returned) and the client's namespace", "ask again",
                "ask again", "the run itself is as it was", e);
    }

    private ReinException noSuchRun(WorkflowNotFoundException e) {
        return new ReinException("Temporal has no run with id '" + runId + "' in this client's namespace: check the id"
                + " (the workflow id start returned), and that the client and the workers use the same namespace", e);
    }

    /**
     * Approves the pending action with this hash.
     *
     * @throws ApprovalException when no pending action has that hash (the decision is not sent)
     * @throws ReinException     when Temporal's service refused the decision, or the calling thread was interrupted
     *                           while Temporal was asked (its interrupt is kept): the decision may or may not have
     *                           reached the run, and {@link #pendingApprovals()} shows whether the action still waits
     */
    public void approve(String actionHash, String decidedBy) {
        Runs.checkDecidedBy(decidedBy, "approve");
        requireHash(actionHash);
        send(ApprovalSignal.approve(actionHash, decidedBy));
    }

    /**
     * Rejects it; the model is told {@code reason}. A known secret of the agent in the reason is
     * masked before it is sent, since the signal stays in the workflow history (as {@code agent.runs()}
     * masks it before it is stored).
     */
    public void reject(String actionHash, String reason, String decidedBy) {
        Runs.checkDecidedBy(decidedBy, "reject");
        requireHash(actionHash);
        send(ApprovalSignal.reject(actionHash, reason == null ? null : masker().redact(reason), decidedBy));
    }

    /**
     * Runs it with {@code arguments} instead. The arguments are checked against the tool's schema
     * first, as a local run's {@code Runs.edit} checks them; the approval covers only the edited action.
     * A known secret of the agent in them is masked before they are checked and sent (they stay in the
     * workflow history), and the action runs with them masked, as {@code agent.runs().edit} does.
     *
     * @throws ReinException when the arguments are null or do not fit the tool's schema (the decision is not sent)
     */
    public void edit(String actionHash, JsonNode arguments, String decidedBy) {
        if (arguments == null) {
            // said as a local Runs.edit says it
            throw new ReinException("edit(...) was given no arguments: pass the new arguments as a JSON object"
                    + " (Json.parse(\"{...}\")), or approve(...) to run the action as proposed");
        }
        Runs.checkDecidedBy(decidedBy, "edit");
        requireHash(actionHash);
        JsonNode masked = masker().redactValue(arguments.deepCopy());
        ApprovalSignal signal = ApprovalSignal.edit(actionHash, masked, decidedBy);
        refuseOversized(signal);
        Runs.checkEditedArguments(agent.config().currentTools(), pending(signal).tool(), masked);
        decide(signal);
    }

    /**
     * Cancels the run: it ends CANCELLED, and pending actions never run. Safe to call more than once and after the
     * run ended, as a local {@code RunHandle.cancel()} is.
     *
     * @throws ReinException when Temporal has no run with this id or its service refused the cancel, or when the calling
     *                       thread was interrupted while Temporal was asked (its interrupt is kept): the cancel may or
     *                       may not have reached the run, so cancel it again
     */
    public void cancel() {
        try {
            client.newUntypedWorkflowStub(runId).cancel();
        } catch (WorkflowNotFoundException e) {
            throw noSuchRun(e);
        } catch (WorkflowServiceException e) {
            if (TemporalAgentClient.interrupted(e)) {
                throw TemporalAgentClient.interruptedCall("the cancel of run '" + runId + "'", "it may or may not have"
                        + " reached the run: cancel it again (a second cancel is safe, also once the run has ended)", e);
            }
            throw TemporalAgentClient.refused(client, "Temporal did not take the cancel of run '" + runId + "'",
                    "check the run id (the workflow id start returned)", "cancel it again", "cancel it again",
                    "the run may still be running (a second cancel is safe)", e);
        }
    }

    /**
     * Waits for the run's result (a cancelled run's too: CANCELLED). The workflow returns it with
     * its history kept in the run store; it is read back from the client's run store (the workers'
     * one), and when that store does not have it the history is a one-message placeholder naming it.
     *
     * @throws ReinException when Temporal has no run with this id, the workflow was ended from outside Rein, or the
     *                       calling thread was interrupted while it waited (its interrupt is kept; the run goes on)
     */
    public RunResult result() {
        try {
            return Results.full(client.newUntypedWorkflowStub(runId).getResult(RunResult.class), runStore);
        } catch (WorkflowFailedException e) {
            return endedWithoutValue(e);
        } catch (WorkflowNotFoundException e) {
            throw noSuchRun(e);
        } catch (WorkflowServiceException e) {
            throw notAnswered("the wait for the result of", e);
        }
    }

    /**
     * Waits at most {@code timeout} for the result; a timeout longer than a century (such as
     * {@code ChronoUnit.FOREVER.getDuration()}) waits as {@link #result()} does, as {@code RunHandle.await} counts one
     * too long to count.
     *
     * A timeout of zero or less returns the result of a run that has ended, as {@code RunHandle.await} does.
     *
     * @throws TimeoutException when the run has not ended by then; when one of its activities is failing again and
     *                          again (a worker without the agent's activities, say) or no worker has started it, the
     *                          message says which activity, why, and on which queue; when its workflow task fails on
     *                          the workers (workflow code that cannot replay it), it says so with their failure
     */
    public RunResult result(Duration timeout) throws TimeoutException {
        if (timeout == null) {
            throw new NullPointerException("result(timeout) was given no timeout: pass a Duration, or call result() to wait until the run ends");
        }
        if (timeout.compareTo(LONGEST_WAIT) > 0) {
            return result(); // Duration.toMillis throws past Long.MAX_VALUE milliseconds, and Temporal adds it to a clock
        }
        try {
            return Results.full(client.newUntypedWorkflowStub(runId).getResult(timeout.toMillis(), TimeUnit.MILLISECONDS,
                    RunResult.class), runStore);
        } catch (WorkflowFailedException e) {
            return endedWithoutValue(e);
        } catch (WorkflowNotFoundException e) {
            throw noSuchRun(e);
        } catch (WorkflowServiceException e) {
            throw notAnswered("the wait for the result of", e);
        } catch (TimeoutException e) {
            if (ended()) {
                // a timeout of zero, negative, or shorter than Temporal's answer takes: the run has ended, so its result
                // is there, as a local RunHandle.await(timeout) returns a finished run's result whatever the timeout
                return result();
            }
            TimeoutException said = new TimeoutException("run '" + runId + "' has not ended within " + timeout + waitingOn());
            said.initCause(e);
            throw said;
        }
    }

    /** True when Temporal shows the run's newest execution closed (false when it cannot be asked). */
    private boolean ended() {
        try {
            return switch (stub().describe().getStatus()) {
                case WORKFLOW_EXECUTION_STATUS_RUNNING, WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW,
                     WORKFLOW_EXECUTION_STATUS_PAUSED, WORKFLOW_EXECUTION_STATUS_UNSPECIFIED, UNRECOGNIZED -> false;
                default -> true;
            };
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * What a run that has not ended waits on, when Temporal shows one of its activities retried or not started: Temporal
     * retries an activity no worker of the queue has registered (a worker with the workflow but not the agent's
     * activities) without end, and an activity no worker polls for waits without end, so the run stays RUNNING with
     * nothing said. Empty when nothing looks wrong, or when Temporal cannot be asked.
     */
    private String waitingOn() {
        io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse described;
        try {
            described = stub().describe().getRawDescription();
        } catch (RuntimeException e) {
            return "";
        }
        String failing = mayFailItsWorkflowTask(described) ? failingWorkflowTask() : null;
        return failing != null ? failing : waitingOn(described, taskQueue);
    }

    /**
     * Whether the history is worth reading for a failing workflow task: a server that shows the pending workflow task
     * shows its attempts (a failing one is retried), and one that does not (the test server) is asked for short
     * histories only, so that a caller polling result(timeout) of a long run does not fetch megabytes each time.
     */
    private static boolean mayFailItsWorkflowTask(io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse d) {
        if (d.hasPendingWorkflowTask()) {
            return d.getPendingWorkflowTask().getAttempt() > 1;
        }
        return d.getWorkflowExecutionInfo().getHistoryLength() <= 2_000;
    }

    /**
     * What to say when the run's workflow task fails on its workers (no task has completed since the last failure): a
     * worker whose workflow code cannot replay the run (a non-determinism error after a redeploy) or throws. Temporal
     * retries such a task without end and records its failure once, so the run stays RUNNING with nothing said. Null
     * when the last workflow task completed, or when Temporal cannot be asked.
     */
    private String failingWorkflowTask() {
        List<io.temporal.api.history.v1.HistoryEvent> events;
        try {
            events = client.fetchHistory(runId).getEvents();
        } catch (RuntimeException e) {
            return null;
        }
        for (int i = events.size() - 1; i >= 0; i--) {
            io.temporal.api.history.v1.HistoryEvent event = events.get(i);
            if (event.hasWorkflowTaskCompletedEventAttributes()) {
                return null;
            }
            if (event.hasWorkflowTaskFailedEventAttributes()) {
                var failed = event.getWorkflowTaskFailedEventAttributes();
                String queue = events.get(0).hasWorkflowExecutionStartedEventAttributes()
                        ? events.get(0).getWorkflowExecutionStartedEventAttributes().getTaskQueue().getName() : taskQueue;
                boolean nonDeterministic = failed.getCause()
                        == io.temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR;
                // the SDK's own words first ("Failure handling event 3 ..."), then the workflow code's at the root
                io.temporal.api.failure.v1.Failure root = failed.getFailure();
                while (root.hasCause()) {
                    root = root.getCause();
                }
                String why = root == failed.getFailure() ? root.getMessage()
                        : failed.getFailure().getMessage() + ": " + root.getMessage();
                return ": its workflow task fails on the workers of task queue '" + queue + "', and Temporal retries it"
                        + " without end (" + why + "). " + (nonDeterministic
                        ? "The workers run workflow code that cannot replay this run (a changed workflow without"
                                + " Workflow.getVersion, see \"Versioning\" in docs/temporal.md): let the run end on"
                                + " workers of the build that started it"
                        : "The workers' workflow code fails on it (their logs say more): the workers of the queue must"
                                + " register the agent with TemporalAgents.worker (or TemporalAgents.workflows)")
                        + "; once they can run it, the run goes on where it stopped";
            }
        }
        return null;
    }

    /** What {@code described}, the run's newest execution, shows the run waits on (see {@link #waitingOn()}). */
    static String waitingOn(io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse described, String taskQueue) {
        List<io.temporal.api.workflow.v1.PendingActivityInfo> pending = described.getPendingActivitiesList();
        io.temporal.api.workflow.v1.WorkflowExecutionInfo info = described.getWorkflowExecutionInfo();
        // an execution the run continued in (its history grew long) is as short for a moment, but workers took the run up
        boolean continued = !info.getFirstRunId().isEmpty() && !info.getFirstRunId().equals(info.getExecution().getRunId());
        if (info.getHistoryLength() <= 2 && continued) {
            String on = described.getExecutionConfig().getTaskQueue().getName().isEmpty() ? taskQueue
                    : described.getExecutionConfig().getTaskQueue().getName();
            return ": it has just continued as new (its workflow history grew long) and no worker has taken up the new"
                    + " execution yet; the workers of task queue '" + on + "' do so as they took up the run (if none polls"
                    + " that queue any more, start one)";
        }
        if (info.getHistoryLength() <= 2) {
            // the history is the start and its first workflow task, scheduled: no worker polls the queue the run is on
            String startedOn = described.getExecutionConfig().getTaskQueue().getName();
            String on = startedOn.isEmpty() ? taskQueue : startedOn;
            return ": no worker has taken up the run yet. It was started on task queue '" + on + "', and if no worker"
                    + " polls that queue, none ever will: start one with TemporalAgents.worker(factory.newWorker(\"" + on
                    + "\"), agent, runStore), or, if the workers poll another queue, check that the client and the workers"
                    + " name the same queue (the run goes on once a worker polls '" + on + "')";
        }
        String queue = "task queue '" + taskQueue + "' (for runs this client starts)";
        String register = "every worker of " + queue + " must register the agent with TemporalAgents.worker(worker, agent,"
                + " runStore) (or TemporalAgents.activities for a worker that runs activities only)";
        for (var activity : pending) {
            String type = activity.getActivityType().getName();
            if (activity.hasLastFailure()) {
                String failure = activity.getLastFailure().getMessage();
                return ": its activity " + type + " has failed " + Math.max(1, activity.getAttempt() - 1)
                        + " time(s) and Temporal retries it: " + failure
                        + (failure.contains("is not registered with a worker") ? ". A worker without the agent's activities"
                                + " polls the run's queue: " + register : "");
            }
            if (activity.getState() == io.temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED
                    && activity.getAttempt() <= 1) {
                return ": its activity " + type + " is scheduled and no worker has started it yet. If no worker with the"
                        + " agent's activities polls " + queue + ", start one: " + register;
            }
        }
        return "";
    }

    /**
     * Temporal closes a cancelled workflow without its return value; the workflow keeps it for this query. A
     * workflow ended from outside Rein has no Rein result at all: that is said in Rein's terms, with Temporal's reason.
     */
    private RunResult endedWithoutValue(WorkflowFailedException e) {
        RunResult ended = e.getCause() instanceof CanceledFailure ? Results.full(query(() -> workflow().result()), runStore) : null;
        if (ended != null) {
            return ended;
        }
        if (e.getCause() instanceof io.temporal.failure.ApplicationFailure app
                && dev.rein.temporal.internal.WorkerConverter.UNREADABLE.equals(app.getType())) {
            // no step ran: the worker's client lacks Rein's converter, which is what to fix (the workflow says how)
            throw new ReinException("run '" + runId + "' ended before its first step, with no result: "
                    + app.getOriginalMessage(), e);
        }
        String how = switch (e.getCause()) {
            case TerminatedFailure t -> "was terminated on Temporal (reason: " + reasonOf(t) + "), from outside Rein";
            case TimeoutFailure t -> "timed out on Temporal (" + t.getTimeoutType() + "), by a workflow timeout set outside Rein";
            case TemporalFailure f -> "failed on Temporal (" + reasonOf(f) + ")";
            case null, default -> "ended on Temporal without a result (" + e.getMessage() + ")";
        };
        throw new ReinException("run '" + runId + "' " + how + ", so it has no result: no step ran after that (a call in"
                + " flight was interrupted at its next heartbeat), and the trace events up to it reached the agent's listeners. Rein's own limits (budget, deadline) end a run"
                + " with a RunResult; to stop a run and keep its result, cancel it (TemporalRun.cancel)", e);
    }

    private static String reasonOf(TemporalFailure f) {
        String reason = f.getOriginalMessage();
        return reason == null || reason.isBlank() ? "none given" : "'" + reason + "'";
    }

    /** A decision without an action hash is refused as a local {@code Runs} refuses it, before anything is sent. */
    private void requireHash(String actionHash) {
        if (actionHash == null) {
            throw ApprovalState.noHash(runId, pendingApprovals());
        }
    }

    /** The decision is checked against the pending actions first, so a stale one fails here with the reason. */
    private void send(ApprovalSignal signal) {
        refuseOversized(signal);
        pending(signal);
        decide(signal);
    }

    /**
     * A decision over Temporal's payload limit (a long rejection reason, large edited arguments) is refused before it
     * is sent, saying its size and what to do, where the server refused the signal with a bare INVALID_ARGUMENT.
     */
    private void refuseOversized(ApprovalSignal signal) {
        long bytes = TemporalAgentClient.payloadBytes(client, signal);
        if (bytes <= TemporalAgentClient.LARGEST_INPUT_BYTES) {
            return;
        }
        String what;
        String todo;
        if (signal.decision().equals("reject") && signal.reason() != null) {
            what = "the rejection reason is " + TemporalAgentClient.count(signal.reason().length()) + " characters ("
                    + TemporalAgentClient.count(signal.reason().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                    + " bytes of UTF-8)";
            todo = "give a shorter reason (the model is told it: say what to do instead, and keep long text where the"
                    + " agent's tools can read it, a file or a store, and name it)";
        } else if (signal.decision().equals("edit")) {
            what = "the edited arguments are large";
            todo = "give smaller arguments (keep large content where the tool can read it, a file or a store, and pass"
                    + " its name)";
        } else {
            what = "the action hash and decidedBy are " + TemporalAgentClient.count(signal.actionHash().length()) + " and "
                    + TemporalAgentClient.count(signal.decidedBy().length()) + " characters";
            todo = "pass the pending action's hash (pendingApprovals()) and the name of the person deciding";
        }
        throw new ReinException(what + ", and with it the decision for run '" + runId + "' is " + TemporalAgentClient.count(bytes)
                + " bytes, where Temporal refuses a signal's payload over 2 MB (" + TemporalAgentClient.count(
                TemporalAgentClient.LARGEST_INPUT_BYTES) + " bytes) by default (limit.blobSize.error): " + todo
                + "; nothing was sent");
    }

    /** Sends the decision; Temporal's refusal is said in Rein's terms with what to do. */
    private void decide(ApprovalSignal signal) {
        try {
            workflow().decide(signal);
        } catch (WorkflowNotFoundException e) {
            if (ended()) {
                // it ended (its deadline, a cancel) between the check of its pending actions and the signal
                throw new ApprovalException("run " + runId + " ended before the decision reached it; nothing was sent"
                        + " (result() says how it ended)", List.of());
            }
            throw noSuchRun(e);
        } catch (WorkflowServiceException e) {
            if (TemporalAgentClient.interrupted(e)) {
                throw TemporalAgentClient.interruptedCall("the decision on action " + signal.actionHash() + " for run '"
                        + runId + "'", "it may or may not have reached the run. pendingApprovals() shows whether the"
                        + " action still waits; if it does, send the decision again (a decision sent twice is refused and"
                        + " listed in refusedDecisions())", e);
            }
            throw TemporalAgentClient.refused(client, "Temporal did not take the decision on action " + signal.actionHash()
                            + " for run '" + runId + "'",
                    "the server refused the decision: check it against the server's limits (limit.blobSize.error, 2 MB"
                            + " by default), and send a shorter reason or smaller arguments",
                    "send a shorter reason or smaller arguments", "send the decision again",
                    "the decision may not have reached the run: pendingApprovals() shows whether the action still waits"
                            + " (a decision sent twice is refused and listed in refusedDecisions())", e);
        }
    }

    private ApprovalRequest pending(ApprovalSignal signal) {
        try {
            return pendingFor(signal);
        } catch (ApprovalException e) {
            throw e;
        } catch (ReinException e) {
            if (Thread.currentThread().isInterrupted()) {
                // the queries before the signal were interrupted: said as the decision's, since nothing was sent
                throw new ReinException("the decision on action " + signal.actionHash() + " for run '" + runId + "' was"
                        + " interrupted before it was sent (the calling thread's interrupt, which it keeps): nothing was"
                        + " sent, and the run is as it was; send the decision again", e);
            }
            throw e;
        }
    }

    private ApprovalRequest pendingFor(ApprovalSignal signal) {
        List<ApprovalRequest> pending = pendingApprovals();
        if (pending.isEmpty()) {
            RunStatus status = status();
            if (status != RunStatus.WAITING_APPROVAL) {
                // a second approval of the same action, or one for a run that has moved on: say where the run is
                throw new ApprovalException("run " + runId + " is " + status + ", not waiting for approval; nothing was sent",
                        List.of());
            }
        }
        // upper-case hex is the same digest, as a local Runs takes it (the workflow's ApprovalState.decide too)
        String hash = ActionHash.normalised(signal.actionHash());
        Optional<ApprovalRequest> match = pending.stream().filter(r -> r.actionHash().equals(hash)).findFirst();
        if (match.isEmpty()) {
            // the short hash a waiting action is shown with, or no hash at all, answered as a local Runs.approve answers it
            Optional<ApprovalException> refusal = ApprovalState.startOfHash(hash, pending)
                    .or(() -> ApprovalState.notAHash(hash, pending));
            if (refusal.isPresent()) {
                throw refusal.get();
            }
        }
        return match.orElseThrow(() -> new ApprovalException((decidedAlready(hash)
                        ? "the action with hash " + hash + " was already decided; run " + runId
                                + " waits for the others"
                        : "run " + runId + " has no pending action with hash " + hash
                                + "; an approval is bound to the exact action shown")
                        + ". Pending: " + pending.stream().map(r -> r.tool() + " " + r.actionHash()).toList(), pending));
    }

    /** True when the action was decided in the run's current pause (a second click), as Runs.approve tells it apart. */
    private boolean decidedAlready(String actionHash) {
        try {
            return workflow().decidedActions().contains(actionHash);
        } catch (RuntimeException e) {
            return false; // a worker of an earlier release does not know the query: the general message stands
        }
    }

    private TraceRedactor masker() {
        return new TraceRedactor(agent.config().secrets()::known);
    }

    private AgentWorkflow workflow() {
        return client.newWorkflowStub(AgentWorkflow.class, runId);
    }

    /** The untyped stub, e.g. to fetch the history. */
    public WorkflowStub stub() {
        return client.newUntypedWorkflowStub(runId);
    }
}
