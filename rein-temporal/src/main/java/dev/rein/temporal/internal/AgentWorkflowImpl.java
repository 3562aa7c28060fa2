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
import dev.rein.run.NextStep;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.temporal.AgentWorkflow;
import dev.rein.temporal.ApprovalSignal;
import dev.rein.temporal.RunInput;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The workflow: the local driver's loop on workflow time. Decisions come from {@link Step}; every
 * effect is an activity; budgets are checked here on workflow time, the time spent waiting for a
 * person excluded. Deterministic: no wall clock, no threads, no I/O (checked by a test).
 */
public final class AgentWorkflowImpl implements AgentWorkflow {
    private RunInput input;
    private String runId;
    private RunSnapshot snapshot;
    private Step.State decisions;
    private RunStatus status = RunStatus.RUNNING;
    private long startedMillis;
    private long waitedMillis;
    private List<ToolUseBlock> pausedUses = List.of();
    private final List<String> refused = new ArrayList<>();
    private RunResult result;

    @Override
    public RunResult run(RunInput in) {
        this.input = in;
        this.runId = Workflow.getInfo().getWorkflowId();
        this.startedMillis = Workflow.currentTimeMillis();
        this.decisions = Step.State.start(new Step.Rules(in.maxTokens(), in.maxVerificationFailures(), in.maxEmptyNudges()), 0);
        try {
            snapshot = effects().begin(runId, in.goal());
            return drive(new NextStep.RunAgain("start"));
        } catch (CanceledFailure | ActivityFailure e) {
            if (!(e instanceof CanceledFailure) && !(e.getCause() instanceof CanceledFailure)) {
                throw e;
            }
            RunResult[] result = new RunResult[1];
            Workflow.newDetachedCancellationScope(() -> result[0] = end(RunStatus.CANCELLED, Reasons.CANCELLED,
                    "the run was cancelled", null, null)).run();
            return result[0];
        }
    }

    private RunResult drive(NextStep first) {
        NextStep next = first;
        while (true) {
            switch (next) {
                case NextStep.RunAgain ignored -> next = step();
                case NextStep.Answer answer -> next = verify(answer);
                case NextStep.Interrupt ignored -> next = awaitDecisions();
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

    /** One model step within the budget, decided by the step function. */
    private NextStep step() {
        now();
        Optional<BudgetKind> exhausted = meter().check();
        if (exhausted.isPresent()) {
            DrivenRun.Outcome outcome = effects().stopForBudget(snapshot, exhausted.get().reason());
            snapshot = outcome.snapshot();
            return outcome.next().toNextStep();
        }
        DrivenRun.ModelStep step;
        try {
            step = modelActivities().callModel(snapshot);
        } catch (ActivityFailure failure) {
            return failed(failure);
        }
        snapshot = step.snapshot();
        return execute(Step.decide(decisions, new Step.Event.Responded(step.response(), step.answerText())));
    }

    private NextStep execute(Step.Decision decision) {
        decisions = decision.state();
        NextStep next = decision.next();
        for (Step.Command command : decision.commands()) {
            switch (command) {
                case Step.Command.RunTools tools -> next = act(tools.uses());
                case Step.Command.Verify verify -> next = verify(verify.answer());
                case Step.Command.Intervene i -> effects().intervene(now(), i.kind(), i.message(), i.details());
                case Step.Command.AppendUserText append -> snapshot = DrivenRun.appendUserText(snapshot, append.text());
                case Step.Command.Observe observe -> snapshot = DrivenRun.observe(snapshot, observe.blocks());
                // the other commands answer events this workflow does not send (the activities perform those steps)
                default -> throw new IllegalStateException("unexpected command for the workflow: " + command);
            }
        }
        return next;
    }

    private NextStep act(List<ToolUseBlock> uses) {
        DrivenRun.Outcome outcome = effects().act(now(), new ToolUses(uses));
        snapshot = outcome.snapshot();
        if (outcome.next().kind().equals("interrupt")) {
            pausedUses = List.copyOf(uses);
        }
        return outcome.next().toNextStep();
    }

    private NextStep verify(NextStep.Answer answer) {
        DrivenRun.Checked checked = effects().verify(now(), answer);
        snapshot = checked.snapshot();
        return execute(Step.decide(decisions, new Step.Event.Verified(answer, checked.missing())));
    }

    /** Waits (for free, as long as it takes) until every pending action is decided, then runs the step again. */
    private NextStep awaitDecisions() {
        snapshot = effects().paused(now());
        status = RunStatus.WAITING_APPROVAL;
        long from = Workflow.currentTimeMillis();
        Workflow.await(() -> snapshot.approvals().undecided().isEmpty());
        waitedMillis += Workflow.currentTimeMillis() - from;
        status = RunStatus.RUNNING;
        snapshot = effects().resumed(now());
        return act(pausedUses);
    }

    @Override
    public void decide(ApprovalSignal signal) {
        if (snapshot == null) {
            refused.add(signal.actionHash() + ": the run has not started yet");
            return;
        }
        Instant at = Instant.ofEpochMilli(Workflow.currentTimeMillis());
        try {
            snapshot = DrivenRun.withApprovals(snapshot, snapshot.approvals().decide(runId, signal.actionHash(),
                    request -> decision(signal, request, at)));
        } catch (ApprovalException | IllegalArgumentException e) {
            refused.add(signal.actionHash() + ": " + e.getMessage());
        }
    }

    private static ApprovalDecision decision(ApprovalSignal s, ApprovalRequest request, Instant at) {
        return switch (s.decision()) {
            case "approve" -> new ApprovalDecision.Approve(request.actionHash(), s.decidedBy(), at);
            case "reject" -> new ApprovalDecision.Reject(request.actionHash(), s.reason(), s.decidedBy(), at);
            case "edit" -> new ApprovalDecision.Edit(request.actionHash(), s.arguments().deepCopy(),
                    ActionHash.of(request.tool(), s.arguments()), s.decidedBy(), at);
            default -> throw new IllegalArgumentException("unknown decision '" + s.decision() + "'; use approve, reject or edit");
        };
    }

    @Override
    public RunStatus status() {
        return status;
    }

    @Override
    public List<ApprovalRequest> pendingApprovals() {
        return snapshot == null ? List.of() : snapshot.approvals().undecided();
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
        if (failure.getCause() instanceof ApplicationFailure app) {
            String reason = app.getType();
            RunStatus ended = reason.equals(BudgetKind.DEADLINE.reason()) ? RunStatus.STOPPED_BUDGET : RunStatus.FAILED;
            return new NextStep.Stop(ended, dev.rein.run.Reason.of(reason), app.getOriginalMessage(), null, null);
        }
        if (failure.getCause() instanceof TimeoutFailure) {
            return new NextStep.Stop(RunStatus.STOPPED_BUDGET, dev.rein.run.Reason.of(BudgetKind.DEADLINE.reason()),
                    "the model call did not finish within the run's deadline", null, null);
        }
        return new NextStep.Stop(RunStatus.FAILED, dev.rein.run.Reason.of(Reasons.PROVIDER_ERROR),
                "the model call failed: " + failure.getMessage(), null, null);
    }

    private RunResult end(RunStatus ended, String reason, String message, String answer, dev.rein.run.FinishReport report) {
        status = ended;
        result = effects().end(now(), ended, reason, message, answer, report);
        return result;
    }

    /** The snapshot with the active time and decisions as the workflow knows them now. */
    private RunSnapshot now() {
        snapshot = DrivenRun.at(snapshot, activeMillis(), decisions.verificationFailures());
        return snapshot;
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
        meter.restore(snapshot.steps(), snapshot.usage(), snapshot.costUsd());
        return meter;
    }

    /** Model calls: the provider's retryable failures are retried with backoff, never past the run's deadline. */
    private AgentActivities modelActivities() {
        long left = Math.max(1, input.budget().maxDuration().toMillis() - activeMillis());
        RetryOptions retry = RetryOptions.newBuilder().setInitialInterval(positive(input.initialBackoff()))
                .setMaximumInterval(positive(input.maxBackoff())).setBackoffCoefficient(2.0)
                .setMaximumAttempts(input.retries() + 1).build();
        return Workflow.newActivityStub(AgentActivities.class, ActivityOptions.newBuilder()
                .setStartToCloseTimeout(input.attempt()).setScheduleToCloseTimeout(Duration.ofMillis(left))
                .setRetryOptions(retry).build());
    }

    /** Every other effect: retried after a worker crash (the attempt timed out), never for a failure it reports. */
    private AgentActivities effects() {
        return Workflow.newActivityStub(AgentActivities.class, ActivityOptions.newBuilder()
                .setStartToCloseTimeout(input.attempt())
                .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofSeconds(1))
                        .setDoNotRetry(Reasons.INTERNAL_ERROR).build()).build());
    }

    private static Duration positive(Duration d) {
        return d == null || d.isZero() || d.isNegative() ? Duration.ofMillis(100) : d;
    }
}
