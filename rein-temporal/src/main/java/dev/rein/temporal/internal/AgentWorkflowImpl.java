package dev.rein.temporal.internal;

import dev.rein.agent.DrivenRun;
import dev.rein.agent.RunResult;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalRequest;
import dev.rein.budget.BudgetKind;
import dev.rein.budget.BudgetMeter;
import dev.rein.budget.PriceTable;
import dev.rein.internal.loop.Step;
import dev.rein.model.ToolUseBlock;
import dev.rein.retry.RetryPolicy;
import dev.rein.run.NextStep;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.temporal.internal.Payloads.Acted;
import dev.rein.temporal.internal.Payloads.CallDone;
import dev.rein.temporal.internal.Payloads.Checked;
import dev.rein.temporal.internal.Payloads.Edit;
import dev.rein.temporal.internal.Payloads.ModelStep;
import dev.rein.temporal.internal.Payloads.Planned;
import dev.rein.temporal.internal.Payloads.RunRef;
import dev.rein.temporal.internal.Payloads.Turn;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workflow: the local driver's loop on workflow time. Decisions come from {@link Step}; every
 * effect is an activity; budgets are checked here on workflow time, the time spent waiting for a
 * person excluded. Deterministic: no wall clock, no threads, no I/O (checked by a test).
 */
public final class AgentWorkflowImpl implements AgentWorkflow {
    /** What an activity may take in a run without a time limit: long enough never to cut a live call. */
    static final Duration NO_DEADLINE = Duration.ofDays(365);
    /**
     * Attempts of a model call beyond the agent's retry policy, for workers lost during the call (a crash, a worker
     * stopping): the policy counts the provider's errors, and decides those itself in each attempt.
     */
    static final int WORKER_LOSSES = 3;
    /**
     * How long past the run's deadline a model call's activity may take: its worker stops waiting for the model at
     * the deadline and reports the run after the call (the step counted), which Temporal's own timeout would lose.
     */
    static final Duration DEADLINE_GRACE = Duration.ofSeconds(10);

    /**
     * The longest a model call in a run with a far deadline is bounded by as a whole: Temporal's server keeps a
     * duration in a Go time.Duration, which ends at about 292 years, so a time limit further off is counted as this.
     */
    static final Duration LONGEST_CALL = Duration.ofDays(200 * 365);
    /** The failure type of an activity whose input its worker's converter could not read: retrying it cannot help. */
    static final String CONVERTER_FAILURE = io.temporal.common.converter.DataConverterException.class.getName();
    /** A history this large continues as new: Temporal warns at 10 MB and terminates the workflow at 50 MB. */
    static final long HISTORY_BYTES = 10L * 1024 * 1024;

    private RunInput input;
    private String runId;
    /** The run as the last activity left it (its snapshot by reference), and the step function's edits since. */
    private RunRef ref;
    private final List<Edit> edits = new ArrayList<>();
    private Step.State decisions;
    private RunStatus status = RunStatus.RUNNING;
    private long startedMillis;
    private long waitedMillis;
    private List<ToolUseBlock> pausedUses = List.of();
    /** The history's length when this execution's workflow method began: it continues as new only once it has grown. */
    private long startLength;
    /** The critic's reviews so far: each check is an activity of its own, and the critic's maxRounds bounds the run. */
    private int criticRounds;
    /** How many refused decisions the refusedDecisions query keeps, the latest. */
    static final int MOST_REFUSALS = 100;
    /** The longest reason kept for one refused decision, in UTF-16 units. */
    static final int LONGEST_REFUSAL = 1000;
    private final List<String> refused = new ArrayList<>();
    private RunResult result;

    /**
     * The workflow for the run's input, made before Temporal hands it any signal: a signal that came with the
     * execution's start (a decision sent as a pause continued as new) reaches the workflow before its workflow method
     * runs, so a continued run's state is restored here, where the signal finds it. The only way it is made (through
     * {@link WorkerConverter#workflowFor}, which TemporalAgents.workflows registers), replays included: registered by
     * type, such a signal would be refused, and the replay would differ from the run.
     */
    AgentWorkflowImpl(RunInput in) {
        if (in != null && in.carried() != null) {
            this.input = in;
            this.runId = Workflow.getInfo().getWorkflowId();
            restore(in.carried());
        }
    }

    @Override
    public RunResult run(RunInput in) {
        boolean restored = this.input != null;
        this.startLength = Workflow.getInfo().getHistoryLength();
        this.input = in;
        this.runId = Workflow.getInfo().getWorkflowId();
        try {
            if (in.carried() == null) {
                this.startedMillis = Workflow.currentTimeMillis();
                this.decisions = Step.State.start(new Step.Rules(in.maxTokens(), in.maxVerificationFailures(),
                        in.maxEmptyNudges()), 0);
                ref = effects().begin(runId, in.goal());
                return drive(new NextStep.RunAgain("start"));
            }
            if (!restored) {
                restore(in.carried());
            }
            if (in.carried().paused() != null) {
                return drive(awaitDecisions(false)); // continued within a pause: it was traced already
            }
            return drive(new NextStep.RunAgain("continued"));
        } catch (ActivityFailure e) {
            if (!cancelled(e)) {
                String unserved = unserved(e);
                RunResult budgetStop = stopNotTakenUp(e, unserved);
                if (budgetStop != null) {
                    result = budgetStop;
                    status = result.status();
                    return result;
                }
                if (unserved != null) {
                    if (ref != null && Unserved.callNeverTakenUp(e, blamedStartTimeout())
                            && Workflow.getVersion("unserved-call-end-traced", Workflow.DEFAULT_VERSION, 1) >= 1) {
                        // the workers may be back (busy, or restarted): the end is traced as other failures are, by
                        // one that takes it up within the same start timeout; runs recorded before ended untraced
                        return endWaitingForAWorker(unserved);
                    }
                    // the run's end is an activity too, which no worker would run either: the workflow says it itself
                    result = unrecorded(RunStatus.FAILED, Reasons.INTERNAL_ERROR, unserved, null);
                    status = result.status();
                    return result;
                }
                // an effect failed for good (a bug in a verifier, a run store the worker does not share): the run
                // ends FAILED with a result, as the local driver ends it, instead of the workflow failing without one
                return end(RunStatus.FAILED, reasonOf(e), messageOf(e), null, null);
            }
            return endCancelled();
        } catch (CanceledFailure e) {
            return endCancelled();
        }
    }

    /**
     * The run's end after a model call no worker took up: traced by ReinEnd, as other failures are, when a worker takes
     * it up within {@link #endStartTimeout()}; when none does, or the run is cancelled while it waits, the result is the
     * workflow's own (the same status, reason and message), untraced.
     */
    private RunResult endWaitingForAWorker(String message) {
        try {
            result = effectsStartingWithin(endStartTimeout()).end(turn(), RunStatus.FAILED, Reasons.INTERNAL_ERROR, message,
                    null, null);
        } catch (ActivityFailure e) {
            result = unrecorded(RunStatus.FAILED, Reasons.INTERNAL_ERROR, message, null);
        }
        status = result.status();
        return result;
    }

    /** The run's end traced outside the cancelled scope, so that its activity still runs. */
    private RunResult endCancelled() {
        RunResult[] result = new RunResult[1];
        Workflow.newDetachedCancellationScope(() -> result[0] = end(RunStatus.CANCELLED, Reasons.CANCELLED,
                "the run was cancelled", null, null)).run();
        return result[0];
    }

    private static boolean cancelled(RuntimeException e) {
        return e instanceof CanceledFailure || e.getCause() instanceof CanceledFailure;
    }

    private RunResult drive(NextStep first) {
        NextStep next = first;
        while (true) {
            switch (next) {
                case NextStep.RunAgain ignored -> {
                    continueAsNewIfLong();
                    next = step();
                }
                case NextStep.Answer answer -> next = verify(answer);
                case NextStep.Interrupt ignored -> next = awaitDecisions(true);
                case NextStep.Handoff h -> {
                    return end(RunStatus.FAILED, Reasons.NEEDS_USER_INPUT, "the agent needs input from the user: " + h.summary(),
                            h.result(), h.report());
                }
                case NextStep.Stop stop -> {
                    return end(stop.status(), stop.reason().wire(), stop.message(), stop.answer(), stop.report());
                }
            }
        }
    }

    /**
     * Before a step, between activities (none in flight; a pause continues from its own wait): a history grown long (the run's limit, 10 MB, or
     * Temporal's suggestion) is left for a fresh one, the run's state carried over, so that a long run is not terminated
     * at Temporal's 51,200 events or 50 MB. The workflow id, hence the run id and the idempotency keys, stays.
     */
    private void continueAsNewIfLong() {
        if (!historyLong()) {
            return;
        }
        if (io.temporal.workflow.CancellationScope.current().isCancelRequested()) {
            return; // a cancel does not carry over to the next execution: the step's activity ends the run CANCELLED
        }
        // histories recorded before it went on in one execution
        if (Workflow.getVersion("continue-as-new", Workflow.DEFAULT_VERSION, 1) < 1) {
            return;
        }
        continueAsNew(null);
    }

    /**
     * True once the history has reached the run's limit, 10 MB, or Temporal suggests a new execution, and this execution
     * has done something (a step, or in a pause a signal): a continued execution is as long as its start from the
     * first, and under a limit that low (or a carried input that large) continuing again at once would start
     * executions without end, the run never taking another step. No history records such a continuation but as its
     * execution's last event, so none replays differently.
     */
    private boolean historyLong() {
        io.temporal.workflow.WorkflowInfo info = Workflow.getInfo();
        if (info.getHistoryLength() <= startLength) {
            return false;
        }
        int limit = input.historyLimit() > 0 ? input.historyLimit() : dev.rein.temporal.TemporalAgentClient.DEFAULT_HISTORY_LIMIT;
        return info.getHistoryLength() >= limit || info.getHistorySize() >= HISTORY_BYTES || info.isContinueAsNewSuggested();
    }

    /** Ends this execution and goes on in a new one of the same workflow id, the run's state (and a pause's calls) carried. */
    private void continueAsNew(ToolUses paused) {
        Payloads.Carried carried = new Payloads.Carried(ref, edits, decisions, startedMillis, waitedMillis, criticRounds,
                refused, paused);
        // the goal is in the run's snapshot since ReinBegin: carried again, a goal near the 2 MB start takes would make
        // this command's input (goal and state) larger than Temporal takes, and the run could not go on
        Workflow.continueAsNew(new RunInput("", input.modelName(), input.budget(), input.prices(),
                input.maxTokens(), input.maxVerificationFailures(), input.maxEmptyNudges(), input.attempt(), input.retries(),
                input.initialBackoff(), input.maxBackoff(), input.historyLimit(), input.callStartTimeout(), carried));
    }

    private void restore(Payloads.Carried carried) {
        ref = carried.run();
        edits.addAll(carried.edits());
        decisions = carried.decisions();
        startedMillis = carried.startedMillis();
        waitedMillis = carried.waitedMillis();
        criticRounds = carried.criticRounds();
        refused.addAll(carried.refused());
        if (carried.paused() != null) {
            pausedUses = List.copyOf(carried.paused().uses());
            status = RunStatus.WAITING_APPROVAL;
        }
    }

    /** One model step within the budget, decided by the step function. */
    private NextStep step() {
        Optional<BudgetKind> exhausted = meter().check();
        if (exhausted.isPresent()) {
            return stopForBudget(exhausted.get());
        }
        ModelStep step;
        try {
            step = modelActivities().callModel(turn());
        } catch (ActivityFailure failure) {
            return failed(failure);
        }
        take(step.run());
        if (step.response() == null) {
            // no call was made: a compaction before it used up a token or money limit, which the next check stops for
            return new NextStep.RunAgain("budget");
        }
        return execute(Step.decide(decisions, new Step.Event.Responded(step.response(), step.answerText(), step.outputLimitCut())));
    }

    /**
     * The run's final summary once {@code kind} ran out. In a run with a time limit the stop waits for a worker until
     * the deadline and the grace, counted from now, as a model call would have: not the whole schedule-to-close (the
     * attempt timeout four times once the deadline passed), and never less than the grace, however late after the
     * deadline it comes. A run without one has no deadline to end by, and waits as every other activity does. When no
     * worker takes it up, {@link #run} ends the run as the workflow decided it, for its budget ({@link #stopping}).
     */
    private NextStep stopForBudget(BudgetKind kind) {
        AgentActivities stopper = effectsCallingTheModel();
        stopping = kind;
        Acted outcome = stopper.stopForBudget(turn(), kind.reason());
        stopping = null;
        take(outcome.run());
        return outcome.next().toNextStep();
    }

    /**
     * The activity that no worker took up by the run's deadline and the grace, when that is what the run's failure is:
     * a budget stop in flight ({@link #stopping}) ends the run STOPPED_BUDGET for the limit the workflow stopped for, as
     * a local run whose summary failed still does; any other activity but ReinEnd (and a model call's own start timeout,
     * which may come before the deadline) in a run with a time limit ends it STOPPED_BUDGET for the deadline, which had
     * passed by then: its workers may only have been busy, and it ended FAILED internal_error as if none polled the
     * queue (runs recorded before keep that end on replay). No summary and no traced end: no worker would run ReinEnd
     * either. Null for any other failure.
     */
    private RunResult stopNotTakenUp(ActivityFailure failure, String unserved) {
        if (unserved == null || !(failure.getCause() instanceof TimeoutFailure)) {
            return null;
        }
        if (stopping != null) {
            // without a time limit the stop waits as every other activity (a schedule-to-close of NO_DEADLINE and more),
            // so in practice only a run with one comes here; the wording stays right for the other all the same
            return notTakenUp(stopping, meter().describe(stopping), failure, "no summary was made and the end is not traced");
        }
        if (input.budget().maxDuration() == null || "ReinEnd".equals(failure.getActivityType())
                || Unserved.callNeverTakenUp(failure, blamedStartTimeout())
                || Workflow.getVersion("unserved-after-deadline-stopped", Workflow.DEFAULT_VERSION, 1) < 1) {
            return null;
        }
        if (decidedStop != null) {
            return notTakenUp(BudgetKind.DEADLINE, decidedStop, failure, "the budget stop and the end are not traced");
        }
        String limit = "the time limit of " + dev.rein.internal.text.Durations.human(input.budget().maxDuration())
                + " was reached"; // meter()'s words, which need a run ReinBegin may not have recorded
        return notTakenUp(BudgetKind.DEADLINE, ref == null ? limit : meter().describe(BudgetKind.DEADLINE), failure,
                "the end is not traced");
    }

    /** The run's end STOPPED_BUDGET for {@code kind} ({@code decided} says so), the activity no worker took up named. */
    private RunResult notTakenUp(BudgetKind kind, String decided, ActivityFailure failure, String lost) {
        String by = input.budget().maxDuration() == null ? "" : " by the run's deadline and the grace of "
                + shown(DEADLINE_GRACE);
        String queue = Workflow.getInfo().getTaskQueue();
        return unrecorded(RunStatus.STOPPED_BUDGET, kind.reason(), decided + "; no worker took up "
                + failure.getActivityType() + by + ": none polls task queue '" + queue + "', or all were busy, so " + lost
                + ". Check that a worker with the agent's activities runs: " + Unserved.register(queue) + "; if they were"
                + " busy, give them more slots (WorkerOptions.setMaxConcurrentActivityExecutionSize) or start more", null);
    }

    private NextStep execute(Step.Decision decision) {
        decisions = decision.state();
        NextStep next = decision.next();
        for (Step.Command command : decision.commands()) {
            switch (command) {
                case Step.Command.RunTools tools -> next = act(tools.uses());
                case Step.Command.Verify verify -> next = verify(verify.answer());
                case Step.Command.Intervene i -> effects().intervene(turn(), i.kind(), i.message(), i.details());
                case Step.Command.AppendUserText append -> edits.add(Edit.text(append.text()));
                case Step.Command.Observe observe -> edits.add(Edit.blocks(observe.blocks()));
                // the other commands answer events this workflow does not send (the activities perform those steps)
                default -> throw new IllegalStateException("unexpected command for the workflow: " + command);
            }
        }
        return next;
    }

    /** A tool step: planned, each call its own activity (see {@link ToolSteps}), then answered. */
    private NextStep act(List<ToolUseBlock> uses) {
        ToolUses batch = new ToolUses(uses);
        Planned plan = effects().planTools(turn(), batch);
        take(plan.run());
        DrivenRun.Next next = plan.next();
        if (next == null) {
            List<CallDone> outcomes = ToolSteps.run(this::effects, turn(), plan, ref.toolCallCounts());
            Acted acted = effects().completeTools(turn(), batch, outcomes);
            take(acted.run());
            next = acted.next();
        }
        if (next.kind().equals("interrupt")) {
            pausedUses = List.copyOf(uses);
        }
        return next.toNextStep();
    }

    private NextStep verify(NextStep.Answer answer) {
        Checked checked = effectsCallingTheModel().verify(turn(), answer);
        take(checked.run());
        criticRounds = Math.max(criticRounds, checked.criticRounds());
        if (checked.outOfTime() != null) {
            // a verifier still checking at the deadline: a budget stop as locally, not a refusal (which, the last
            // one allowed, would end the run verification_failed)
            return deadlinePassed(checked.outOfTime());
        }
        return execute(Step.decide(decisions, new Step.Event.Verified(answer, checked.missing(), checked.invalidOutput())));
    }

    /**
     * Waits (for free, as long as it takes) until every pending action is decided, then runs the step again. Each signal
     * adds to the history (a refused one too), so a wait whose history grows long continues as new within the pause.
     *
     * @param tracePause false when the pause was traced by the execution this one continues
     */
    private NextStep awaitDecisions(boolean tracePause) {
        if (tracePause) {
            take(effects().paused(turn()));
        }
        status = RunStatus.WAITING_APPROVAL;
        // histories recorded before it waited in one execution, however many signals came
        boolean mayContinue = Workflow.getVersion("pause-continue-as-new", Workflow.DEFAULT_VERSION, 1) >= 1;
        long from = Workflow.currentTimeMillis();
        Workflow.await(() -> ref.approvals().undecided().isEmpty() || mayContinue && historyLong());
        waitedMillis += Workflow.currentTimeMillis() - from;
        if (!ref.approvals().undecided().isEmpty()) {
            continueAsNew(new ToolUses(pausedUses)); // a cancel asked for ends the wait with a CanceledFailure instead
        }
        status = RunStatus.RUNNING;
        take(resumed());
        return act(pausedUses);
    }

    /**
     * Traces the resume (and the decisions taken on the pause) outside the run's cancellation scope: a cancel that lands
     * while it runs leaves it to end, so that the run's end starts from the resumed run and does not tell the decisions
     * again, as it does for a cancel ending the pause itself. A cancel asked for before the resume is traced ends the run
     * from its pause, telling them there. Runs recorded before let the cancel cut the resume.
     */
    private RunRef resumed() {
        if (Workflow.getVersion("resume-not-cancelled", Workflow.DEFAULT_VERSION, 1) < 1) {
            return effects().resumed(turn());
        }
        io.temporal.workflow.CancellationScope.throwCanceled();
        RunRef[] resumed = new RunRef[1];
        Workflow.newDetachedCancellationScope(() -> resumed[0] = effects().resumed(turn())).run();
        return resumed[0];
    }

    @Override
    public void decide(ApprovalSignal signal) {
        // a signal sent around the handle (the Temporal CLI, another SDK) may lack a field or spell it otherwise
        if (signal == null) {
            // no input at all (the CLI without --input, or a JSON null): a throw here would fail every workflow task
            // from now on, replayed with this signal, and leave the run stuck for good
            refuse("(no input): the decide signal came with no input: send one JSON object with 'decision' approve,"
                    + " reject or edit, 'action_hash' (the pending action's whole hash, which the run's pendingApprovals"
                    + " query lists) and 'decided_by' (the fields are snake_case)");
            return;
        }
        if (signal.unreadable() != null) {
            refuse((signal.actionHash() == null ? "(unreadable)" : signal.actionHash()) + ": " + signal.unreadable()
                    + ": send one JSON object with 'decision' approve, reject or edit, 'action_hash' (the pending action's"
                    + " whole hash) and 'decided_by' as strings, and for an edit 'arguments' (the fields are snake_case)");
            return;
        }
        if (signal.actionHash() == null || signal.actionHash().isBlank()) {
            refuse("(no action_hash): the decision names no action: send the pending action's whole hash in the"
                    + " signal's 'action_hash' field (the run's pendingApprovals query lists them), with 'decision'"
                    + " approve, reject or edit and 'decided_by' (the fields are snake_case)");
            return;
        }
        if (signal.decision() == null || signal.decision().isBlank()) {
            refuse(signal.actionHash() + ": the decision has no 'decision' field: send approve, reject or edit in it"
                    + " (the fields are snake_case)");
            return;
        }
        if (ref == null) {
            refuse(signal.actionHash() + ": the run has not started yet");
            return;
        }
        Instant at = Instant.ofEpochMilli(Workflow.currentTimeMillis());
        try {
            ref = ref.withDecisions(ref.approvals().decide(runId, signal.actionHash(), request -> decision(signal, request, at))
                    .decisions());
        } catch (ApprovalException | IllegalArgumentException e) {
            refuse(signal.actionHash() + ": " + e.getMessage());
        }
    }

    /**
     * Keeps a refused decision's reason for the refusedDecisions query: the latest {@link #MOST_REFUSALS}, each cut to
     * {@link #LONGEST_REFUSAL} characters, since they are workflow state (carried into a continued execution and
     * returned by every query) and a signal's hash is whatever its sender wrote.
     */
    private void refuse(String reason) {
        if (refused.size() == MOST_REFUSALS) {
            refused.remove(0);
        }
        if (reason.length() <= LONGEST_REFUSAL) {
            refused.add(reason);
            return;
        }
        int cut = LONGEST_REFUSAL - 1;
        refused.add(reason.substring(0, Character.isHighSurrogate(reason.charAt(cut - 1)) ? cut - 1 : cut) + "…");
    }

    private static ApprovalDecision decision(ApprovalSignal s, ApprovalRequest request, Instant at) {
        // a signal sent around the handle without decided_by was always taken: refused now, a history holding one would
        // replay differently, so it is recorded as made by no recorded name, as a stored decision without one reads
        String by = s.decidedBy() == null || s.decidedBy().isBlank() ? ApprovalDecision.NOT_RECORDED : s.decidedBy();
        return switch (s.decision()) {
            case "approve" -> new ApprovalDecision.Approve(request.actionHash(), by, at);
            case "reject" -> new ApprovalDecision.Reject(request.actionHash(), s.reason(), by, at);
            case "edit" -> {
                // a signal sent around the handle (the Temporal CLI, another SDK) may lack the arguments
                if (s.arguments() == null || !s.arguments().isObject()) {
                    throw new IllegalArgumentException("an edit needs the tool's new arguments as a JSON object, got "
                            + (s.arguments() == null || s.arguments().isNull() ? "none" : s.arguments().getNodeType())
                            + "; send them in the signal's 'arguments', or use TemporalRun.edit");
                }
                yield new ApprovalDecision.Edit(request.actionHash(), s.arguments().deepCopy(),
                        ActionHash.of(request.tool(), s.arguments()), by, at);
            }
            default -> throw new IllegalArgumentException("unknown decision '" + s.decision() + "'; use approve, reject or edit");
        };
    }

    @Override
    public RunStatus status() {
        return status;
    }

    @Override
    public List<ApprovalRequest> pendingApprovals() {
        // a run that ended (cancelled while it waited, say) keeps its last requests in ref, but none waits any more
        return ref == null || status.terminal() ? List.of() : ref.approvals().undecided();
    }

    @Override
    public List<String> decidedActions() {
        return ref == null || status.terminal() ? List.of() : ref.approvals().requests().stream()
                .filter(r -> ref.approvals().decisions().containsKey(r.callId())).map(ApprovalRequest::actionHash).toList();
    }

    @Override
    public RunResult result() {
        return result;
    }

    @Override
    public List<String> refusedDecisions() {
        return List.copyOf(refused);
    }

    /** The model activity failed for good (or its retries ran out): the run ends as the local driver ends it. */
    private NextStep failed(ActivityFailure failure) {
        if (failure.getCause() instanceof CanceledFailure canceled) {
            throw canceled;
        }
        if (unserved(failure) != null) {
            throw failure; // no worker could make the call: the run ends as for any activity no worker runs
        }
        if (failure.getCause() instanceof ApplicationFailure app) {
            if (app.getDetails().getSize() > 0) {
                take(app.getDetails().get(RunRef.class)); // the run after the failed call: its step counted, as locally
            }
            String reason = reasonOf(failure);
            if (reason.equals(BudgetKind.DEADLINE.reason())) {
                return deadlinePassed(messageOf(failure));
            }
            return new NextStep.Stop(RunStatus.FAILED, dev.rein.run.Reason.of(reason), messageOf(failure), null, null);
        }
        if (failure.getCause() instanceof TimeoutFailure timeout && timeout.getTimeoutType() == TimeoutType.TIMEOUT_TYPE_HEARTBEAT) {
            return new NextStep.Stop(RunStatus.FAILED, dev.rein.run.Reason.of(Reasons.INTERNAL_ERROR),
                    "the worker making the model call stopped responding (no heartbeat within the attempt timeout) on every"
                            + " attempt; check that the workers stay up", null, null);
        }
        if (failure.getCause() instanceof TimeoutFailure) {
            // Temporal's timeout came first (the worker never reported): said in the local driver's words
            return deadlinePassed(meter().describe(BudgetKind.DEADLINE) + " while waiting for the model");
        }
        return new NextStep.Stop(RunStatus.FAILED, dev.rein.run.Reason.of(Reasons.PROVIDER_ERROR),
                "the model call failed: " + failure.getMessage(), null, null);
    }

    /**
     * The deadline passed during the model call: a budget stop, traced as one (the live view's "! budget",
     * OpenTelemetry's rein.budget.stop) as the local driver traces it and as a deadline found between steps is.
     */
    private NextStep deadlinePassed(String message) {
        // runs recorded before the intervention went straight to their end
        if (Workflow.getVersion("deadline-in-call-intervention", Workflow.DEFAULT_VERSION, 1) >= 1) {
            decidedStop = message;
            effects().intervene(turn(), "budget", message, Map.of("budget", BudgetKind.DEADLINE.reason()));
            decidedStop = null;
        }
        return new NextStep.Stop(RunStatus.STOPPED_BUDGET, dev.rein.run.Reason.of(BudgetKind.DEADLINE.reason()), message,
                null, null);
    }

    private RunResult end(RunStatus ended, String reason, String message, String answer, dev.rein.run.FinishReport report) {
        try {
            // no activity has run yet (a cancel before the first one, or the run store failed at once): nothing to trace
            if (ref == null) {
                result = unrecorded(ended, reason, message, answer);
            } else if (Workflow.getVersion("end-not-cancelled", Workflow.DEFAULT_VERSION, 1) >= 1) {
                // the run's end is decided: a cancel that arrives while it is traced does not undo it (as a local cancel
                // after the loop decided its end does not); runs recorded before cancelled it and ended again
                RunResult[] traced = new RunResult[1];
                Workflow.newDetachedCancellationScope(() -> traced[0] = endEffects().end(turn(), ended, reason, message,
                        answer, report)).run();
                result = traced[0];
            } else {
                result = endEffects().end(turn(), ended, reason, message, answer, report);
            }
        } catch (ActivityFailure e) {
            if (cancelled(e)) {
                throw e;
            }
            // the end itself could not be traced and stored (the run store is not the workers' one, no worker runs
            // it): the result still says why, without the history, rather than leaving the workflow failed with no result
            String unserved = unserved(e);
            result = unrecorded(RunStatus.FAILED, unserved == null ? reasonOf(e) : Reasons.INTERNAL_ERROR,
                    unserved == null ? messageOf(e) : unserved, answer);
        }
        status = result.status();
        return result;
    }

    /** The result the workflow builds itself from its counters when no activity can end the run. */
    private RunResult unrecorded(RunStatus ended, String reason, String message, String answer) {
        return new RunResult(runId, ended, reason, message, answer, ref == null ? 0 : ref.steps(),
                ref == null ? dev.rein.model.Usage.ZERO : ref.usage(), ref == null ? java.math.BigDecimal.ZERO : ref.costUsd(),
                Duration.ofMillis(activeMillis()), null, List.of());
    }

    /**
     * The run's reason for an activity's failure: its type when that is a run reason, a store error when
     * the run store lacks an entry, else an internal error (the closed set of reasons has no other name).
     */
    private static String reasonOf(ActivityFailure failure) {
        String type = failure.getCause() instanceof ApplicationFailure app ? app.getType() : null;
        if (Blobs.MISSING.equals(type)) {
            return Reasons.STORE_ERROR;
        }
        for (dev.rein.run.Reason reason : dev.rein.run.Reason.values()) {
            if (reason.wire().equals(type)) {
                return type;
            }
        }
        return Reasons.INTERNAL_ERROR;
    }

    /**
     * What to say of an activity no worker of the run's queue ran before its time was up (the run's deadline, and a
     * few attempt timeouts for lost workers): workers took it that lack the agent's activities (Temporal retried it,
     * each attempt "not registered with a worker"), or no worker polls the queue for activities (never started); or
     * a model call no worker took up within its start timeout (see {@link Unserved#describe}). Null for any other failure.
     */
    private String unserved(ActivityFailure failure) {
        return Unserved.describe(failure, Workflow.getInfo().getTaskQueue(), blamedStartTimeout(),
                AgentWorkflowImpl::shown, AgentWorkflowImpl::startedByALostWorker);
    }

    /**
     * How long the end of a run whose model call no worker took up waits for one: the call's start timeout, at most the
     * attempt timeout (how long a worker may be gone; waiting the start timeout again doubled the time to the end), and
     * in a run with a time limit at most until its deadline and the grace, when the call itself would have ended.
     * Activity options are not checked on replay, so runs recorded with the longer wait replay as they are.
     */
    private Duration endStartTimeout() {
        Duration wait = callStartTimeout().compareTo(attempt()) < 0 ? callStartTimeout() : attempt();
        Duration untilGraceEnds = untilGraceEnds();
        return untilGraceEnds.compareTo(wait) < 0 ? untilGraceEnds : wait;
    }

    /**
     * How long an activity scheduled now (a budget stop, the end of an unserved model call) may wait for a worker so
     * that it ends when a model call would have: the time left to the run's deadline (none once it passed, at most
     * {@link #NO_DEADLINE}) and the grace, so one scheduled long after the deadline (a slow activity or listener, busy
     * workers, a worker back late) still gives a live worker the grace, where a floor of 1 ms let a real server's
     * timer win. Without a time limit {@link #NO_DEADLINE} and the grace. Activity options are not checked on replay,
     * so recorded runs replay as they are.
     */
    private Duration untilGraceEnds() {
        Duration max = input.budget().maxDuration();
        long left = max == null ? NO_DEADLINE.toMillis() : Math.max(0, Math.min(max.toMillis() - activeMillis(),
                NO_DEADLINE.toMillis()));
        return Duration.ofMillis(left + DEADLINE_GRACE.toMillis());
    }

    /** The model call's start timeout when a start timeout of the latest call may be blamed on it, else null. */
    private Duration blamedStartTimeout() {
        return callStartTimeoutShorter ? callStartTimeout() : null;
    }

    /**
     * Whether a worker started the timed-out activity and was lost during it (a crash at the deadline): it heartbeated,
     * which only a started attempt does. A schedule-to-close timeout cutting a running attempt carries no started event
     * (the in-process test server records none), so without this a worker lost during a model call at the deadline
     * ended the run FAILED as if no worker polled the queue. Runs recorded before keep their old ending on replay.
     */
    private static boolean startedByALostWorker(TimeoutFailure timeout) {
        return timeout.getLastHeartbeatDetails() != null && timeout.getLastHeartbeatDetails().getSize() > 0
                && Workflow.getVersion("lost-worker-started-the-call", Workflow.DEFAULT_VERSION, 1) >= 1;
    }

    /**
     * What the run's result says of an activity's final failure: its own message, or for an activity Temporal's timeout
     * ended (its workers lost on every attempt, or one still running when the time allowed for lost workers ran out)
     * Rein's words, where Temporal's named only the activity and its retry state.
     */
    private static String messageOf(ActivityFailure failure) {
        if (failure.getCause() instanceof TimeoutFailure) {
            return "the activity " + failure.getActivityType() + " did not end within the time Temporal allowed it (the"
                    + " run's deadline, and a few attempt timeouts more for lost workers): the worker making it stopped"
                    + " responding (no heartbeat within the attempt timeout) on each attempt; check that the workers of"
                    + " task queue '" + Workflow.getInfo().getTaskQueue() + "' stay up";
        }
        return failure.getCause() instanceof ApplicationFailure app ? app.getOriginalMessage() : failure.getMessage();
    }

    /** What the next activity gets: the stored snapshot and what the workflow knows newer than it. */
    private Turn turn() {
        return new Turn(ref.snapshot(), activeMillis(), decisions.verificationFailures(), ref.requests(), ref.decisions(), edits,
                criticRounds);
    }

    /**
     * The run as an activity left it; the edits made before are part of it now. A decision signalled while
     * the activity ran is not in its result: it is kept while its request is still pending for the same action.
     */
    private void take(RunRef next) {
        Map<String, ApprovalDecision> decisions = new HashMap<>(next.decisions());
        for (ApprovalRequest request : next.requests()) {
            ApprovalDecision signalled = ref == null ? null : ref.decisions().get(request.callId());
            if (signalled != null && !decisions.containsKey(request.callId())
                    && signalled.actionHash().equals(request.actionHash())) {
                decisions.put(request.callId(), signalled);
            }
        }
        ref = decisions.size() == next.decisions().size() ? next : next.withDecisions(decisions);
        edits.clear();
        // a finish call its schema refused was counted by ReinPlanTools (locally it counts with the answer's refusals),
        // which each activity is given from here: not taken up, every refusal started again from the same count and the
        // model could repeat it until the step limit. The count only grows, and a payload written before it has 0. Taken
        // up, the run may end where it went on before (6cee147d), so behind a version asked where the count differs, as
        // Temporal's docs place getVersion at the change: that condition is the recorded activity's result, the same on
        // a replay; a history recorded without the marker (a new activity's count left by an old workflow task) goes on
        if (next.verificationFailures() > this.decisions.verificationFailures()
                && Workflow.getVersion("finish-refusal-count", Workflow.DEFAULT_VERSION, 1) >= 1) {
            this.decisions = new Step.State(this.decisions.rules(), this.decisions.emptyAnswers(), next.verificationFailures());
        }
    }

    private long activeMillis() {
        return Workflow.currentTimeMillis() - startedMillis - waitedMillis;
    }

    private BudgetMeter meter() {
        PriceTable prices = PriceTable.empty();
        for (var e : input.prices().entrySet()) {
            prices = prices.with(e.getKey(), e.getValue());
        }
        BudgetMeter meter = new BudgetMeter(input.budget(), prices, input.modelName(), new WorkflowClock(),
                Instant.ofEpochMilli(startedMillis + waitedMillis));
        meter.restore(ref.steps(), ref.usage(), ref.costUsd());
        return meter;
    }

    /**
     * Whether the latest model call was scheduled with a start timeout shorter than its whole limit: only then may a
     * start timeout of it be blamed on that setting, not on the deadline. Set anew for each call (replays alike).
     */
    private boolean callStartTimeoutShorter;

    /** The limit a budget stop in flight stops for, else null: what the run ends for when no worker takes the stop up. */
    private BudgetKind stopping;

    /**
     * The message of a deadline-in-call stop whose intervention is in flight, else null: what the run ends with when no
     * worker takes the intervention up.
     */
    private String decidedStop;

    /**
     * How a model call is retried: the provider's retryable failures with backoff, never past the run's deadline (in a
     * run without a time limit, as often as the policy allows, however long its delays add up to). Each attempt applies
     * the agent's retry policy (a provider error past it is not retryable), so the attempts Temporal allows beyond it
     * serve only a worker lost during the call.
     */
    private RetryOptions modelRetry() {
        // every retryable failure carries the wait Rein's policy chose (a server's hint of up to
        // RetryPolicy.LONGEST_HINT in full); servers before temporalio/temporal#6063 cap that at the maximum interval
        Duration longest = settable(input.maxBackoff()).compareTo(RetryPolicy.LONGEST_HINT) > 0
                ? settable(input.maxBackoff()) : RetryPolicy.LONGEST_HINT;
        // the policy does not order its delays (the local backoff stops at the longest), where Temporal refuses an
        // initial interval over the maximum one; and a policy without a limit on retries would overflow the attempts
        Duration first = settable(input.initialBackoff()).compareTo(longest) > 0 ? longest : settable(input.initialBackoff());
        return RetryOptions.newBuilder().setInitialInterval(first)
                .setMaximumInterval(longest).setBackoffCoefficient(2.0)
                .setMaximumAttempts((int) Math.min(Integer.MAX_VALUE, (long) input.retries() + 1 + WORKER_LOSSES))
                .setDoNotRetry(CONVERTER_FAILURE).build();
    }

    /**
     * The effects other than the step's that call the model, the budget stop's summary and the check with the critic's
     * review: as {@link #effects()}, but with the step call's retry intervals ({@link #modelRetry()}), since each hands a
     * retryable failure of its call back with the delay the agent's retry policy chose (the maximum interval at least
     * that delay, for servers that cap it there), and Temporal makes the next attempt. Their attempts are bounded by
     * the activity's time, as every effect's, not counted: the policy already bounds the provider's failures, and an
     * activity workers lacking the agent's activities took is still retried to its end and said as such
     * ({@link Unserved}). Their other failures are final. Activity options are not checked on replay, so runs recorded
     * when they retried within one attempt replay as they are.
     */
    private AgentActivities effectsCallingTheModel() {
        ActivityOptions options = effectOptions(ActivityCancellationType.TRY_CANCEL);
        options = ActivityOptions.newBuilder(options).setRetryOptions(RetryOptions.newBuilder(modelRetry())
                .setMaximumAttempts(0)
                .setDoNotRetry(Reasons.INTERNAL_ERROR, Reasons.CONFIGURATION_ERROR, CONVERTER_FAILURE).build()).build();
        return Workflow.newActivityStub(AgentActivities.class, input.budget().maxDuration() == null ? options
                : startingWithin(options, untilGraceEnds()));
    }

    /** The step's model calls, retried as {@link #modelRetry()} says, each attempt up to the deadline and the grace. */
    private AgentActivities modelActivities() {
        RetryOptions retry = modelRetry();
        long left = timeLeft().plus(DEADLINE_GRACE).toMillis();
        // an attempt may wait for the model until the deadline (and report that it passed within the grace); the
        // worker heartbeats meanwhile, so only a dead worker's attempt ends after the attempt timeout (and is
        // retried), not a live one waiting for a slow model
        ActivityOptions.Builder options = ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofMillis(left))
                .setHeartbeatTimeout(attempt()).setRetryOptions(retry);
        // without a time limit nothing bounds the call as a whole but the policy's attempts: a schedule-to-close of
        // 365 days (and the grace) stopped Temporal retrying once the policy's delays together passed it (two of
        // 200 days), ending the run with the provider's failure where a local run waits them. Runs recorded before
        // scheduled their calls with it and keep it. A deadline further off than 365 days, which timeLeft counts as
        // 365, bounds the call as a whole by the real time left (and the grace); each attempt counts the deadline from
        // the call's first scheduling itself (AgentActivitiesImpl.sinceScheduled), so this only ends a call whose
        // attempts stopped reporting
        Duration max = input.budget().maxDuration();
        if (max == null) {
            if (Workflow.getVersion("no-deadline-call-unbounded", Workflow.DEFAULT_VERSION, 1) < 1) {
                options.setScheduleToCloseTimeout(Duration.ofMillis(left));
            }
        } else if (max.toMillis() - activeMillis() > NO_DEADLINE.toMillis()
                && Workflow.getVersion("long-deadline-call-unbounded", Workflow.DEFAULT_VERSION, 1) >= 1) {
            long whole = Math.min(max.toMillis() - activeMillis(), LONGEST_CALL.toMillis()) + DEADLINE_GRACE.toMillis();
            options.setScheduleToCloseTimeout(Duration.ofMillis(whole));
        } else {
            options.setScheduleToCloseTimeout(Duration.ofMillis(left));
        }
        // an attempt's timeouts start when a worker takes it up, so a call no worker takes up (none polls the queue)
        // would wait without end where nothing else bounds it; a nearer deadline still ends it first
        if (Workflow.getVersion("call-start-timeout", Workflow.DEFAULT_VERSION, 1) >= 1) {
            options.setScheduleToStartTimeout(callStartTimeout());
            // a real server caps it at the schedule-to-close and then reports a start timeout for the deadline too
            Duration whole = options.build().getScheduleToCloseTimeout();
            callStartTimeoutShorter = whole == null || callStartTimeout().compareTo(whole) < 0;
        } else {
            callStartTimeoutShorter = false;
        }
        return Workflow.newActivityStub(AgentActivities.class, options.build());
    }

    /** {@code d} for people: whole days as days (the default start timeout read "31536000 s"), else as Rein writes it. */
    private static String shown(Duration d) {
        return d.toSeconds() % 86_400 == 0 && d.toNanosPart() == 0 ? d.toDays() + (d.toDays() == 1 ? " day" : " days")
                : dev.rein.internal.text.Durations.human(d);
    }

    /** How long a model call may wait for a worker to take it up: the client's choice, at most {@link #NO_DEADLINE}. */
    private Duration callStartTimeout() {
        Duration chosen = input.callStartTimeout() == null
                ? dev.rein.temporal.TemporalAgentClient.DEFAULT_MODEL_CALL_START_TIMEOUT : input.callStartTimeout();
        return chosen.compareTo(NO_DEADLINE) > 0 ? NO_DEADLINE : dev.rein.internal.text.Durations.upToMillis(chosen);
    }

    /**
     * Every other effect (tool calls among them): retried after a worker crash, never for a failure it reports (the
     * summary and the critic's review, which hand their call's retryable failures back, are {@link #effectsCallingTheModel()}). A call may take as long as the agent allows it (a tool's timeout, the run's deadline),
     * so an attempt is bounded by the time left; the worker heartbeats while it runs, so a dead worker's attempt is
     * retried elsewhere after the attempt timeout, and a live one's is not started twice.
     */
    private AgentActivities effects() {
        return effects(ActivityCancellationType.TRY_CANCEL);
    }

    /**
     * As {@link #effects()}, cancelled as {@code cancellation} says when their scope is (tool reads wait for their end).
     * In a run with a time limit each waits for a worker to take it up until the deadline and the grace, counted from its
     * scheduling ({@link #untilGraceEnds}), as a model call may: one scheduled after the deadline (the budget stop's
     * intervention or summary, a tool call, the critic) with no worker to take it waited its whole schedule-to-close
     * (four attempt timeouts, 20 minutes by default) before the run ended. Without a time limit nothing is counted from a
     * deadline: they wait as long as the schedule-to-close allows. ReinEnd has its own ({@link #endEffects()}).
     */
    private AgentActivities effects(ActivityCancellationType cancellation) {
        ActivityOptions options = effectOptions(cancellation);
        return Workflow.newActivityStub(AgentActivities.class, input.budget().maxDuration() == null ? options
                : startingWithin(options, untilGraceEnds()));
    }

    /**
     * The run's end (ReinEnd): its wait for a worker bounded only by its schedule-to-close, so that a worker busy or
     * restarting after the deadline still records the end; an end whose model call no worker took up has its own bound
     * ({@link #endWaitingForAWorker}).
     */
    private AgentActivities endEffects() {
        return Workflow.newActivityStub(AgentActivities.class, effectOptions(ActivityCancellationType.TRY_CANCEL));
    }

    /** As {@link #effects()}, waiting at most {@code start} for a worker to take an activity up. */
    private AgentActivities effectsStartingWithin(Duration start) {
        return Workflow.newActivityStub(AgentActivities.class, ActivityOptions
                .newBuilder(effectOptions(ActivityCancellationType.TRY_CANCEL)).setScheduleToStartTimeout(start).build());
    }

    /**
     * {@code options} waiting at most {@code start} for a worker, with a schedule-to-close of at least {@code start} and
     * one attempt after it: Temporal caps the schedule-to-start at the schedule-to-close, which with a short attempt
     * timeout (the time left and three attempt timeouts) is shorter than the deadline and the grace a budget stop's
     * message names. One attempt, not the activity's whole start-to-close (the time left): with a long limit that made
     * the whole about twice the limit (20 h for 10 h), so an activity no worker ran ended the run that much late. An
     * activity taken up late has the deadline behind it, so an attempt is all it may still take; with an attempt
     * timeout of about 5 s or more the whole is what it was before the wait was bounded, and it is never shorter than
     * the wait, so an activity workers lacking the agent's activities took is still retried past the deadline.
     */
    private ActivityOptions startingWithin(ActivityOptions options, Duration start) {
        Duration whole = start.plus(attempt());
        return ActivityOptions.newBuilder(options).setScheduleToStartTimeout(start)
                .setScheduleToCloseTimeout(whole.compareTo(options.getScheduleToCloseTimeout()) > 0 ? whole
                        : options.getScheduleToCloseTimeout()).build();
    }

    /** The options of {@link #effects(ActivityCancellationType)}. */
    private ActivityOptions effectOptions(ActivityCancellationType cancellation) {
        Duration left = timeLeft();
        Duration attempt = attempt();
        Duration call = left.compareTo(attempt) > 0 ? left : attempt;
        return ActivityOptions.newBuilder()
                .setStartToCloseTimeout(call)
                // retried for a few lost workers past that, not without end: an activity no worker of the queue can
                // run (none registered it, none polls) ends the run once its deadline has passed
                .setScheduleToCloseTimeout(call.plus(attempt.multipliedBy(WORKER_LOSSES)))
                .setHeartbeatTimeout(attempt)
                .setCancellationType(cancellation)
                .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofSeconds(1))
                        .setDoNotRetry(Reasons.INTERNAL_ERROR, Reasons.CONFIGURATION_ERROR, CONVERTER_FAILURE).build()).build();
    }

    /**
     * The time to the run's deadline (at least 1 ms), the most an activity may take; for a budget
     * without a time limit (maxDuration null) {@link #NO_DEADLINE}: a live worker heartbeats, so only
     * a dead one's activity ends early (after the attempt timeout), and a slow call is never cut. A
     * deadline further off than that counts as none: Temporal takes no timeout past 10,000 years, and
     * Budget.LONGEST_DURATION would overflow the timeouts computed from it (every workflow task failed).
     */
    private Duration timeLeft() {
        Duration max = input.budget().maxDuration();
        if (max == null) {
            return NO_DEADLINE;
        }
        Duration left = Duration.ofMillis(Math.max(1, max.toMillis() - activeMillis()));
        return left.compareTo(NO_DEADLINE) > 0 ? NO_DEADLINE : left;
    }

    /**
     * The attempt timeout (every activity's heartbeat timeout), at most {@link #NO_DEADLINE}: a longer one (a caller's
     * "never take a worker for dead") is more than Temporal can set past 10,000 years, or overflows when the activity's
     * whole time is computed from it, and every workflow task would fail.
     */
    private Duration attempt() {
        return input.attempt().compareTo(NO_DEADLINE) > 0 ? NO_DEADLINE : input.attempt();
    }

    /** A retry delay as Temporal takes it: positive, and at most {@link #NO_DEADLINE} (it sets none past 10,000 years). */
    private static Duration settable(Duration d) {
        if (d == null || d.isZero() || d.isNegative()) {
            return Duration.ofMillis(100);
        }
        return d.compareTo(NO_DEADLINE) > 0 ? NO_DEADLINE : dev.rein.internal.text.Durations.upToMillis(d);
    }

    /**
     * A provider failure's retry delay as Temporal takes it: at most {@link #NO_DEADLINE}, as the activity's retry
     * options count it (a delay past 10,000 years cannot be sent at all, and the failure never reached Temporal), and
     * in whole milliseconds, rounded up; zero, the agent's "retry at once", stays zero.
     */
    static Duration failureDelay(Duration d) {
        return d.compareTo(NO_DEADLINE) > 0 ? NO_DEADLINE : dev.rein.internal.text.Durations.upToMillis(d);
    }
}
