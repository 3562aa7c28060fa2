package dev.rein.agent;

import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;
import dev.rein.budget.BudgetKind;
import dev.rein.internal.collect.GrowingList;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelResponse;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A run driven from outside the local loop, by a durable execution engine (rein-temporal). Each
 * method rebuilds the run from its {@link RunSnapshot}, performs one effect of the local driver
 * with the agent's own chains, stages and listeners, and returns the next snapshot; the engine
 * takes the decisions between effects with the same step function and keeps the snapshots. The
 * static methods are pure (no clock, no I/O), so an engine may call them in deterministic code.
 *
 * <p>Engine seam, not for applications. The agent's {@link RunStore} is replaced by {@code store}
 * (the engine's history is the run's record); model-call retries are left to the engine.
 */
public final class DrivenRun {
    /** How often an empty turn is answered with a request to continue before the run fails. */
    public static final int MAX_EMPTY_NUDGES = AgentLoop.MAX_EMPTY_ANSWER_NUDGES;

    private final AgentConfig config;

    /** The stored schemas of the runs driven here, each compiled once for all their effects. */
    private final StoredSchemas schemas = new StoredSchemas();

    /**
     * @param store receives checkpoints, idempotency records and events of the driven runs. The
     *              agent's model retry policy decides the attempts of the step call ({@link #callModel}), the
     *              summary ({@link #stopForBudget(RunSnapshot, BudgetKind, int)}) and the critic's review
     *              ({@link #verify(RunSnapshot, NextStep.Answer, int, int)}). A compaction's call does not retry in
     *              place: under an engine's attempt a retryable failure of it ends the attempt (a
     *              {@code ModelRetry} is traced) and the compaction is skipped, see docs/temporal.md.
     */
    public DrivenRun(Agent agent, RunStore store) {
        this.config = agent.config().toBuilder().store(store).build().config();
    }

    /** The run {@code snapshot} continues, its stored schema compiled once for this driver ({@link StoredSchemas}). */
    private Run resume(RunSnapshot snapshot) {
        return Run.driven(schemas.shared(snapshot), config);
    }

    /** As {@link Run#toEnd}, the stored schema as {@link #resume} has it. */
    private Run toEnd(RunSnapshot snapshot) {
        return Run.toEnd(schemas.shared(snapshot), config);
    }

    /**
     * A model call failed for good, or for now: then the engine makes the next attempt after
     * {@link #retryDelay()} (the agent's retry policy decided it, and the retry is traced).
     */
    public static final class Failed extends Exception {
        private final String reason;
        private final Duration retryDelay;
        private final transient RunSnapshot snapshot;

        Failed(String reason, String message, Duration retryDelay, RunSnapshot snapshot) {
            super(message, null, false, false);
            this.reason = reason;
            this.retryDelay = retryDelay;
            this.snapshot = snapshot;
        }

        public String reason() {
            return reason;
        }

        /** Whether the engine is to make another attempt (after {@link #retryDelay()}). */
        public boolean retryable() {
            return retryDelay != null;
        }

        /** How long to wait before the next attempt; null when the failure is final. */
        public Duration retryDelay() {
            return retryDelay;
        }

        /**
         * The run after a final failure (the step counted, as the local driver counts it), to end the
         * run from; null when the failure is retried (the next attempt starts from the same snapshot).
         */
        public RunSnapshot snapshot() {
            return snapshot;
        }
    }

    /**
     * A model step: the next snapshot, the response, the text of the model's turns since the last user turn,
     * and whether the response was cut off at what an output token or money limit left (the limit ran out). The
     * response is null when the step's call was not made: a compaction before it used up a token or money
     * limit (the step is then not counted in the snapshot), and the engine's budget check before the next
     * step stops the run for it.
     */
    public record ModelStep(RunSnapshot snapshot, ModelResponse response, String answerText, boolean outputLimitCut) {
        public ModelStep(RunSnapshot snapshot, ModelResponse response, String answerText) {
            this(snapshot, response, answerText, false);
        }
    }

    /** The snapshot after an effect and the driver's next step, in a form an engine can store. */
    public record Outcome(RunSnapshot snapshot, Next next) {}

    /**
     * A proposed answer checked: the next snapshot, what the verifiers still miss, and why the
     * answer is not valid output when the agent requires an output schema (checked first, as locally).
     * {@code outOfTime} is set (the deadline's message, naming the verifier) when the run's time ran
     * out before a verifier gave its verdict: the answer is not accepted and, as locally, the run
     * stops there for its deadline (not a refusal: no verdict was given). {@code criticRounds}: the
     * critic's reviews in the run so far, this check's included, for the next check ({@link #verify}).
     */
    public record Checked(RunSnapshot snapshot, List<String> missing, List<String> invalidOutput, String outOfTime,
                          int criticRounds) {}

    /**
     * The calls of one response as the guards planned them, before any runs: {@code next} is set
     * when the step was decided without running a call (the finish tool, a stall stop); otherwise
     * {@code calls} are to run (a person's edits applied, calls that ran before a pause left out),
     * each through {@link #callTool}, the reads together and the side-effecting ones
     * ({@code sideEffecting}) after them one at a time in call order, and then {@link #completeTools}.
     */
    public record ToolPlan(RunSnapshot snapshot, Next next, List<ToolCall> calls, List<Boolean> sideEffecting) {}

    /**
     * What one call came to: its result, or (deferred) the approval request it raised;
     * {@code counted} when it counted against the tool's call limit.
     */
    public record CallOutcome(String callId, ToolResult result, ApprovalRequest request, boolean counted) {}

    /**
     * {@link NextStep} as plain fields ({@code kind}: again, answer, interrupt, handoff, stop).
     */
    public record Next(String kind, RunStatus status, String reason, String message, String answer, FinishReport report,
                       String finishCallId) {
        static Next of(NextStep step) {
            return switch (step) {
                case NextStep.RunAgain again -> new Next("again", null, again.why(), null, null, null, null);
                case NextStep.Answer a -> new Next("answer", null, null, null, a.text(), a.report(), a.finishCallId());
                case NextStep.Interrupt i -> new Next("interrupt", RunStatus.WAITING_APPROVAL, null, null, null, null, null);
                case NextStep.Handoff h -> new Next("handoff", null, null, h.summary(), h.result(), h.report(), null);
                case NextStep.Stop s -> new Next("stop", s.status(), s.reason().wire(), s.message(), s.answer(), s.report(), null);
            };
        }

        /** The step this stands for ({@code interrupt} names no calls: the snapshot's approvals do). */
        public NextStep toNextStep() {
            return switch (kind) {
                case "again" -> new NextStep.RunAgain(reason);
                case "answer" -> new NextStep.Answer(answer, report, finishCallId);
                case "interrupt" -> new NextStep.Interrupt(List.of());
                case "handoff" -> new NextStep.Handoff(message, answer, report);
                // a reason a newer version wrote (an engine's workers of two versions) ends the run all the same, its name kept
                case "stop" -> new NextStep.Stop(status, Reason.of(reason), Reason.known(reason) ? message
                        : message + " (reason '" + reason + "', which this version of Rein does not know)", answer, report);
                default -> throw new IllegalArgumentException("unknown next step kind '" + kind + "'");
            };
        }
    }

    /** A new run: traces its start and returns its first snapshot. */
    public RunSnapshot begin(String runId, String goal) {
        String problem = runId == null ? null : dev.rein.internal.text.RunIds.problem(runId);
        if (problem != null) {
            throw new dev.rein.ReinException("begin(...) was given run id '" + dev.rein.internal.text.RunIds.shown(runId)
                    + "', which cannot be a run's id: " + problem + "; give ids of whole characters and no control characters");
        }
        String overLimit = runId == null ? null : dev.rein.internal.text.RunIds.overLimit(runId);
        if (overLimit != null) {
            throw new dev.rein.ReinException("begin(...) was given run id " + overLimit + ": give shorter ids");
        }
        Run run = Run.start(runId, goal, config);
        return effect(run, loop -> loop.started());
    }

    /**
     * One model step (counted), through the agent's model-call chain: attempt {@code attempt} (from
     * 1) of a call the engine retries by itself. The trace is the local one: the request on the first
     * attempt, a retry event for each retryable failure the agent's retry policy allows (a
     * {@link Failed} with a {@link Failed#retryDelay()}), and the final failure as the run's reason
     * ("gave up after N attempts").
     */
    public ModelStep callModel(RunSnapshot snapshot, int attempt) throws Failed, InterruptedException {
        Run run = resume(snapshot);
        run.tracedBeforeTheCall = attempt > 1; // the first attempt said its max_tokens_lowered already
        try {
            AgentLoop.Stepped stepped = new AgentLoop(run, attempt).callStep();
            RunSnapshot next = Checkpoints.snapshot(run, null);
            return new ModelStep(next, stepped.response(), AgentLoop.answerText(run.history()), stepped.outputLimitCut());
        } catch (ModelCaller.CallFailed failed) {
            throw new Failed(failed.reason, failed.getMessage(), failed.retryDelay,
                    failed.retryDelay == null ? Checkpoints.snapshot(run, null) : null);
        } finally {
            run.recorder.close();
        }
    }

    /** Runs the calls of the last response (guards, tool chain, approvals) and observes their results. */
    public Outcome act(RunSnapshot snapshot, List<ToolUseBlock> uses) throws InterruptedException {
        Run run = resume(snapshot);
        try {
            Next next = Next.of(new AgentLoop(run).act(uses));
            return new Outcome(Checkpoints.snapshot(run, null), next);
        } catch (ModelCaller.CallFailed impossible) {
            throw noStepCall(impossible);
        } finally {
            run.recorder.close();
        }
    }

    /**
     * Plans the calls of the last response for an engine that runs each call as its own task: the
     * stall guard's findings are traced here; a response of only the finish tool is decided here.
     */
    public ToolPlan planTools(RunSnapshot snapshot, List<ToolUseBlock> uses) throws InterruptedException {
        Run run = resume(snapshot);
        try {
            AgentLoop loop = new AgentLoop(run);
            if (loop.finishOnly(uses)) {
                Next next = Next.of(loop.act(uses));
                return new ToolPlan(Checkpoints.snapshot(run, null), next, List.of(), List.of());
            }
            run.checkpoint();
            Guards.Plan plan = new Guards(run, new ModelCaller(run)).plan(AgentLoop.calls(uses), true);
            if (plan.stopped().isPresent()) {
                Next next = Next.of(loop.observed(AgentLoop.withModelIds(plan.stopped().get(), uses)));
                return new ToolPlan(Checkpoints.snapshot(run, null), next, List.of(), List.of());
            }
            ToolStage stage = new ToolStage(run);
            List<ToolCall> toRun = stage.prepare(plan.allowed());
            return new ToolPlan(Checkpoints.snapshot(run, null), null, toRun, toRun.stream().map(stage::sideEffecting).toList());
        } catch (ModelCaller.CallFailed impossible) {
            throw noStepCall(impossible);
        } finally {
            run.recorder.close();
        }
    }

    /**
     * Runs one planned call through the executor (the whole gate: validation, scopes, approval,
     * idempotency, call limits, timeout) and traces its result. {@code callCounts} are the calls
     * made so far by tool, counting the earlier calls of this response, as the local executor
     * admits calls in call order.
     */
    public CallOutcome callTool(RunSnapshot snapshot, ToolCall call, Map<String, Integer> callCounts)
            throws InterruptedException {
        Run run = resume(snapshot);
        try {
            run.executor = RunTools.executor(run, run.tools(), callCounts);
            ToolOutcome outcome = new ToolStage(run).runOne(call);
            boolean counted = run.executor.callCounts().getOrDefault(call.name(), 0) > callCounts.getOrDefault(call.name(), 0);
            return switch (outcome) {
                case ToolOutcome.Done done -> new CallOutcome(call.id(), done.result(), null, counted);
                case ToolOutcome.Deferred deferred -> new CallOutcome(call.id(), null, run.approvals.snapshot().requests()
                        .stream().filter(r -> r.callId().equals(call.id())).findFirst().orElseThrow(), counted);
            };
        } finally {
            run.recorder.close();
        }
    }

    /**
     * Answers the step once every planned call has its outcome ({@code outcomes} in the plan's
     * order): results recorded in the state, stall review and reflection prompts, the observation;
     * or the pause when some wait for a person.
     */
    public Outcome completeTools(RunSnapshot snapshot, List<ToolUseBlock> uses, List<CallOutcome> outcomes)
            throws InterruptedException {
        List<ApprovalRequest> requests = new ArrayList<>(snapshot.approvals().requests());
        Map<String, ApprovalDecision> decisions = new java.util.HashMap<>(snapshot.approvals().decisions());
        Map<String, Integer> counts = new java.util.HashMap<>(snapshot.toolCallCounts());
        List<ToolOutcome> fresh = new ArrayList<>();
        for (CallOutcome o : outcomes) {
            if (o.request() != null) {
                // a call asked for again (its edit runs as another action) replaces its request and decision, as the
                // local ledger does; kept, the old decision would answer the new request and the step would run again
                requests.removeIf(r -> r.callId().equals(o.callId()));
                decisions.remove(o.callId());
                requests.add(o.request());
                fresh.add(new ToolOutcome.Deferred(o.callId(), o.request().tool(), o.request().actionHash()));
            } else {
                fresh.add(ToolOutcome.of(o.result()));
            }
            if (o.counted()) {
                counts.merge(o.result() != null ? o.result().toolName() : o.request().tool(), 1, Integer::sum);
            }
        }
        ApprovalState approvals = snapshot.approvals();
        ApprovalState requested = new ApprovalState(requests, decisions, approvals.completed());
        Run run = resume(withApprovals(snapshot, requested));
        try {
            run.executor = RunTools.executor(run, run.tools(), counts);
            AgentLoop loop = new AgentLoop(run);
            Guards guards = new Guards(run, new ModelCaller(run));
            Guards.Plan plan = guards.plan(AgentLoop.calls(uses), false);
            ToolStage stage = new ToolStage(run);
            List<ToolCall> toRun = stage.prepare(plan.allowed());
            ToolStage.Batch batch = stage.collect(plan.allowed(), toRun, fresh);
            Next next = Next.of(loop.observed(AgentLoop.withModelIds(guards.complete(plan, batch, stage), uses)));
            return new Outcome(Checkpoints.snapshot(run, null), next);
        } catch (ModelCaller.CallFailed impossible) {
            throw noStepCall(impossible);
        } finally {
            run.recorder.close();
        }
    }

    /**
     * Checks a proposed answer: the output schema first (as locally), then the verifiers and the critic, whose review
     * retries in place. {@code criticRounds}: the critic's reviews in the run so far (the last check's
     * {@link Checked#criticRounds()}), so that the critic reviews at most its {@code maxRounds} answers in the run, as
     * in one local loop, and not that many in every check.
     */
    public Checked verify(RunSnapshot snapshot, NextStep.Answer answer, int criticRounds) throws InterruptedException {
        try {
            return verify(snapshot, answer, criticRounds, 0);
        } catch (Failed impossible) {
            throw new IllegalStateException("internal error: a review made in place handed a retry back", impossible);
        }
    }

    /**
     * As {@link #verify(RunSnapshot, NextStep.Answer, int)}, as attempt {@code attempt} (from 1; 0: the review retries
     * in place) of a check an engine retries by itself, as {@link #callModel}'s: a retryable failure of the critic's
     * review is a {@link Failed} with a {@link Failed#retryDelay()}, traced as a retry. A later attempt comes only after
     * such a failure, so the output schema and the verifiers passed the answer already: it makes only the review again,
     * and traces neither its request nor a max_tokens_lowered again.
     */
    public Checked verify(RunSnapshot snapshot, NextStep.Answer answer, int criticRounds, int attempt)
            throws Failed, InterruptedException {
        Run run = resume(snapshot);
        run.tracedBeforeTheCall = attempt > 1;
        try {
            AgentLoop loop = new AgentLoop(run, attempt);
            loop.guards().countEarlierReviews(criticRounds);
            if (attempt > 1) {
                List<String> problems = loop.reviewed(answer);
                return new Checked(Checkpoints.snapshot(run, null), List.copyOf(problems), List.of(), null,
                        loop.guards().criticRounds());
            }
            List<String> invalid = run.config.outputSchema().map(schema -> schema.problems(answer.text())).orElse(List.of());
            List<String> missing;
            try {
                missing = invalid.isEmpty() ? loop.missing(answer) : List.of();
            } catch (ModelCaller.CallFailed outOfTime) {
                // a verifier gave no verdict within the deadline: the answer is not accepted and the run stops for
                // its deadline, as the local loop stops it (no refusal: a refusal could end it verification_failed)
                return new Checked(Checkpoints.snapshot(run, null), List.of(), List.copyOf(invalid), outOfTime.getMessage(),
                        loop.guards().criticRounds());
            }
            return new Checked(Checkpoints.snapshot(run, null), List.copyOf(missing), List.copyOf(invalid), null,
                    loop.guards().criticRounds());
        } catch (ModelCaller.HandedBack back) {
            throw new Failed(back.failed.reason, back.failed.getMessage(), back.failed.retryDelay, null);
        } finally {
            run.recorder.close();
        }
    }

    /**
     * A budget ran out (as the engine's meter found): the intervention, and the summary call unless time ran out. The
     * summary call retries in place.
     */
    public Outcome stopForBudget(RunSnapshot snapshot, BudgetKind kind) throws InterruptedException {
        try {
            return stopForBudget(snapshot, kind, 0);
        } catch (Failed impossible) {
            throw new IllegalStateException("internal error: a summary call made in place handed a retry back", impossible);
        }
    }

    /**
     * As {@link #stopForBudget(RunSnapshot, BudgetKind)}, as attempt {@code attempt} (from 1; 0: the call retries in
     * place) of a stop an engine retries by itself, as {@link #callModel}'s: a retryable failure of the summary call is
     * a {@link Failed} with a {@link Failed#retryDelay()}, traced as a retry; its final failure is the summary's, as
     * locally (the run stops all the same). A later attempt traces neither the budget intervention nor the request again.
     */
    public Outcome stopForBudget(RunSnapshot snapshot, BudgetKind kind, int attempt) throws Failed, InterruptedException {
        Run run = resume(snapshot);
        run.tracedBeforeTheCall = attempt > 1;
        try {
            Next next = Next.of(new AgentLoop(run, attempt).stopForBudget(kind));
            return new Outcome(Checkpoints.snapshot(run, null), next);
        } catch (ModelCaller.CallFailed failed) {
            if (failed.retryDelay == null) {
                throw noStepCall(failed);
            }
            throw new Failed(failed.reason, failed.getMessage(), failed.retryDelay, null);
        } finally {
            run.recorder.close();
        }
    }

    /** Traces an intervention the step function decided on. */
    public void intervene(RunSnapshot snapshot, String kind, String message, Map<String, Object> details) {
        Run run = toEnd(snapshot); // traced even when this agent's schema refuses the run (see end)
        effect(run, loop -> run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), kind, message, details)));
    }

    /** Traces that the run now waits for a person; returns the snapshot in status WAITING_APPROVAL. */
    public RunSnapshot paused(RunSnapshot snapshot) {
        Run run = resume(snapshot);
        return effect(run, loop -> {
            run.emit(new TraceEvent.StateChanged(run.runId, run.step(), run.now(), RunStatus.RUNNING, RunStatus.WAITING_APPROVAL,
                    dev.rein.run.Reasons.APPROVAL_REQUIRED));
            run.moveTo(RunStatus.WAITING_APPROVAL);
        });
    }

    /**
     * Traces the resume of a paused run and the decisions made meanwhile; returns the running snapshot. Refused (this
     * agent has another output schema, or rebuilding the run threw anything else: a listener factory's failure, an
     * application's ConfigurationException), it traces nothing: the run then ends from its pause ({@link #end}), which
     * tells the decisions, and the refusal says they were not applied, and which.
     */
    public RunSnapshot resumed(RunSnapshot snapshot) {
        Run run;
        try {
            run = resume(snapshot);
        } catch (RuntimeException refused) {
            // any refusal, not only a ConfigurationException: on an engine a failed resume ends the run, so the
            // decisions are dropped either way, and a person's decision must not be dropped unsaid
            throw Resumption.notApplied(refused, snapshot, "the run ends without them");
        }
        return effect(run, loop -> Resumption.announce(run, false));
    }

    /**
     * Ends the run: its result, masked, and the final trace events. A null {@code answer} is
     * replaced by what the run knows so far (as the local driver does: for an internal or a store
     * error it says that one occurred, not the exception's text). A run that never left its pause
     * (a cancel ending it, or a resume that failed or was refused) ends from it, the decisions taken
     * on it told first.
     */
    public RunResult end(RunSnapshot snapshot, RunStatus status, String reason, String message, String answer,
                         FinishReport report) {
        // an agent whose output schema refuses the run (another than the stored one) ends it all the same: the refusal
        // of an earlier activity ends the run configuration_error, and that end is traced and stored as others are
        Run run = toEnd(snapshot);
        try {
            if (snapshot.status() == RunStatus.WAITING_APPROVAL) {
                // The run ends from its pause, as Runs.cancel ends a local one: a cancel ending the pause, or a resume
                // that failed or was refused (another schema), which traced nothing. The decisions taken on it (signals,
                // which only a resume traces; a second action may still wait) are told first, to the listeners that
                // hear the end, since no resumed run will tell them now.
                run.moveTo(RunStatus.WAITING_APPROVAL);
                for (TraceEvent.ApprovalDecided decided
                        : dev.rein.internal.trace.DecisionEvents.of(run.runId, snapshot.steps(), snapshot.approvals(), null)) {
                    run.emit(decided);
                }
            }
            AgentLoop loop = new AgentLoop(run);
            return loop.end(status, reason, message,
                    answer == null ? loop.knownSoFar(AgentLoop.whyStopped(reason, message)) : answer, report);
        } finally {
            run.recorder.close();
        }
    }

    /** A tool step or a budget stop never makes a step's model call (the summary call's failure is an event). */
    private static IllegalStateException noStepCall(ModelCaller.CallFailed failed) {
        return new IllegalStateException("internal error: a driven effect made a model step call: " + failed.getMessage(), failed);
    }

    private interface Effect {
        void perform(AgentLoop loop);
    }

    private static RunSnapshot effect(Run run, Effect effect) {
        try {
            effect.perform(new AgentLoop(run));
            return Checkpoints.snapshot(run, null);
        } finally {
            run.recorder.close();
        }
    }

    // ---- pure helpers for the engine's deterministic code ----

    /** The snapshot with text added to the last user message (or a new one after an assistant turn). */
    public static RunSnapshot appendUserText(RunSnapshot s, String text) {
        return with(s, AgentLoop.withUserText(s.history(), text), s.activeMillis(), s.verificationFailures(), s.approvals(), s.status());
    }

    /** The snapshot with a user message of these blocks added. */
    public static RunSnapshot observe(RunSnapshot s, List<ContentBlock> blocks) {
        return with(s, GrowingList.of(s.history()).with(Message.user(blocks)), s.activeMillis(), s.verificationFailures(), s.approvals(), s.status());
    }

    /** The snapshot as the engine's clock and decisions see it now. */
    public static RunSnapshot at(RunSnapshot s, long activeMillis, int verificationFailures) {
        return with(s, s.history(), activeMillis, verificationFailures, s.approvals(), s.status());
    }

    /** The snapshot with other approvals (a decision was recorded). */
    public static RunSnapshot withApprovals(RunSnapshot s, ApprovalState approvals) {
        return with(s, s.history(), s.activeMillis(), s.verificationFailures(), approvals, s.status());
    }

    /** The budget kinds the engine checks, by the reason the local meter reports. */
    public static BudgetKind budgetKind(String reason) {
        for (BudgetKind kind : BudgetKind.values()) {
            if (kind.reason().equals(reason)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("no budget has the reason '" + reason + "'");
    }

    private static RunSnapshot with(RunSnapshot s, List<Message> history, long activeMillis, int verificationFailures,
                                    ApprovalState approvals, RunStatus status) {
        return new RunSnapshot(s.format(), s.runId(), s.version(), s.goal(), s.model(), status, s.reason(), s.message(),
                s.answer(), s.createdAt(), s.updatedAt(), activeMillis, s.principal(), history, s.steps(), s.usage(),
                s.costUsd(), verificationFailures, s.toolCallCounts(), s.state(), approvals, s.finish(), s.conversation(),
                s.secretsHandedOut(), s.criticRounds(), s.outputSchema());
    }
}
