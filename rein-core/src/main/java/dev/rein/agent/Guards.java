package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.budget.BudgetKind;
import dev.rein.internal.concurrent.Timed;
import dev.rein.run.FinalAnswer;
import dev.rein.run.Verdict;
import dev.rein.run.Verifier;
import dev.rein.internal.context.ContextManager;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelException;
import dev.rein.model.ModelGateway;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.reflection.Critic;
import dev.rein.reflection.ReflectionPrompts;
import dev.rein.stall.Finding;
import dev.rein.stall.Observed;
import dev.rein.stall.ProposedCall;
import dev.rein.internal.stall.StallMonitor;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import dev.rein.tool.Risk;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The loop's guards as three stage calls: context policies before each model call
 * ({@link #manageContext}), stall detection and reflection prompts around each tool step
 * ({@link #act}), verifiers and the critic before an answer is accepted ({@link #verify}). The
 * policies live in their own packages; this class only connects them to one run.
 */
final class Guards {
    private final Run run;
    private final Tracer tracer;
    private final ModelGateway gateway;
    private final StallMonitor stall;
    private final ContextManager context;
    private final ReflectionPrompts prompts;
    private final Critic critic;

    /**
     * What a guarded tool step produced: the next user message's content, and why to stop if it
     * stalled; or that a call waits for approval, and the step is answered when the run resumes.
     */
    sealed interface ToolStep {
        /** The next user message's content, and why to stop if the run stalled. */
        record Answered(List<ContentBlock> observation, Optional<String> stalled) implements ToolStep {}

        /** These calls wait for a person; the step is answered when the run resumes. */
        record Paused(List<String> awaitingCallIds) implements ToolStep {}
    }

    Guards(Run run, ModelCaller caller) {
        this.run = run;
        this.tracer = new RunTracer(run);
        this.gateway = caller.gateway();
        GuardConfig guards = run.config.guards();
        this.stall = new StallMonitor(guards.stall());
        // a resumed run starts from a stored history: rebuild the stall counts from it, from the
        // current turn only (a reply turn does not inherit the counts of the turns before it)
        stall.replayTurn(run.history(), run.conversation.stepsBefore(), run.step(),
                name -> run.tools().find(name).orElse(null), this::unwatched);
        this.context = new ContextManager(guards.context(), run.config.model(), run.outputs, tracer);
        RunParts parts = run.config.runParts(); // the prompts and the critique are the agent's, made once
        this.prompts = parts.prompts();
        this.critic = parts.critique() == null ? null
                : new Critic(parts.critique(), run.config.model(), run.config.modelName(), caller.reviews(), tracer);
        countEarlierReviews(run.criticRounds); // a resumed run's: its critic counts on from the reviews before the pause
    }

    /**
     * Perceive: the client-side context policies edit the history about to be sent, as the step
     * function decides. Returns whether the history was replaced. {@code beforeACall} runs once, just before the
     * first model call a context policy makes (a compaction's summary call), so that what is said of that call
     * precedes it in the trace.
     */
    boolean manageContext(ModelRequest request, Runnable beforeACall) throws InterruptedException {
        ModelGateway announcing = new ModelGateway() {
            private boolean said;

            @Override
            public ModelResponse call(Model model, ModelRequest r, String purpose) throws ModelException, InterruptedException {
                if (!said) {
                    said = true;
                    beforeACall.run();
                }
                return gateway.call(model, r, purpose);
            }

            @Override
            public long countTokens(Model model, ModelRequest r) throws ModelException, InterruptedException {
                return gateway.countTokens(model, r);
            }
        };
        Optional<List<Message>> edited = context.prepare(request, announcing, run.decisions());
        edited.ifPresent(run::replaceHistory);
        return edited.isPresent();
    }

    /**
     * Act and observe under the stall guard: blocked calls are answered with the intervention and
     * not run; the others run together; every call gets exactly one result, in call order; notices
     * and reflection prompts follow the results.
     */
    ToolStep act(List<ToolCall> calls, ToolStage tools) throws InterruptedException {
        Plan plan = plan(calls, true);
        if (plan.stopped().isPresent()) {
            return plan.stopped().get();
        }
        ToolStage.Batch batch = plan.allowed().isEmpty() ? new ToolStage.Batch.Results(List.of()) : tools.execute(plan.allowed());
        return complete(plan, batch, tools);
    }

    /**
     * The stall guard's verdict on the calls of one response before any runs: the calls allowed to
     * run, the answers of the blocked ones, or a stop. An engine that runs the allowed calls
     * elsewhere plans again before {@link #complete} with {@code trace} off, so the findings are
     * traced once (the detectors are rebuilt from the same history, so the verdict is the same).
     */
    Plan plan(List<ToolCall> calls, boolean trace) {
        int step = run.step();
        ToolResultBlock[] answers = new ToolResultBlock[calls.size()];
        ProposedCall[] watched = new ProposedCall[calls.size()];
        List<ToolCall> allowed = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            if (unwatched(call.name())) {
                allowed.add(call);
                continue;
            }
            watched[i] = ProposedCall.of(call.id(), call.name(), call.arguments(), run.tools().find(call.name()).orElse(null), step);
            switch (stall.beforeCall(watched[i])) {
                case StallMonitor.CallDecision.Allow allow -> allowed.add(call);
                case StallMonitor.CallDecision.Block block -> {
                    if (trace) {
                        traceStall(block.finding(), "blocked", watched[i].risk(), call.name());
                    }
                    answers[i] = new ToolResultBlock(call.id(), block.finding().message(), true);
                }
                case StallMonitor.CallDecision.Stop stop -> {
                    if (trace) {
                        traceStall(stop.finding(), "stopped", watched[i].risk(), call.name());
                    }
                    String notice = StallMonitor.stopNotice(stop.finding());
                    List<ContentBlock> unanswered = calls.stream()
                            .<ContentBlock>map(c -> new ToolResultBlock(c.id(), notice, true)).toList();
                    return new Plan(calls, answers, watched, List.of(),
                            Optional.of(new ToolStep.Answered(unanswered, Optional.of(stall.stopMessage(stop.finding())))));
                }
            }
        }
        return new Plan(calls, answers, watched, List.copyOf(allowed), Optional.empty());
    }

    /** A step's calls as the stall guard judged them; {@code stopped} is the step's answer when it stopped the run. */
    record Plan(List<ToolCall> calls, ToolResultBlock[] answers, ProposedCall[] watched, List<ToolCall> allowed,
                Optional<ToolStep> stopped) {}

    /** The step's answer once the allowed calls of {@code plan} came to {@code batch}. */
    ToolStep complete(Plan plan, ToolStage.Batch batch, ToolStage tools) {
        int step = run.step();
        List<ToolCall> calls = plan.calls();
        ToolResultBlock[] answers = plan.answers().clone();
        List<ToolResult> results;
        switch (batch) {
            case ToolStage.Batch.Paused paused -> {
                return new ToolStep.Paused(paused.deferred().stream().map(ToolOutcome.Deferred::callId).toList());
            }
            case ToolStage.Batch.Results done -> results = done.results();
        }
        List<Observed> observed = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < calls.size(); i++) {
            if (answers[i] == null) {
                ToolResult result = results.get(next++);
                answers[i] = tools.block(result);
                if (plan.watched()[i] != null) {
                    observed.add(new Observed(plan.watched()[i], result.content(), result.isError(), result.source()));
                }
            }
        }
        return afterStep(step, calls, Arrays.asList(answers), stall.afterStep(observed));
    }

    private ToolStep afterStep(int step, List<ToolCall> calls, List<ToolResultBlock> answers, StallMonitor.StepReview review) {
        List<ContentBlock> blocks = new ArrayList<>(answers);
        for (Finding warning : review.warnings()) {
            traceStall(warning, "warned", null, null);
            blocks.add(new TextBlock(warning.message()));
        }
        if (review.stop().isPresent()) {
            Finding stop = review.stop().get();
            traceStall(stop, "stopped", null, null);
            // every detection is a trace event: a second detector stopping in the same step is recorded too
            review.alsoStopping().forEach(other -> traceStall(other, "stopped", null, null));
            blocks.add(new TextBlock(StallMonitor.stopNotice(stop)));
            return new ToolStep.Answered(blocks, Optional.of(stall.stopMessage(stop)));
        }
        if (!prompts.promptsAfterToolSteps()) {
            // the default: no reflection, so the step's calls need not be turned into blocks for it
            return new ToolStep.Answered(blocks, Optional.empty());
        }
        List<ToolUseBlock> uses = calls.stream().map(c -> new ToolUseBlock(c.id(), c.name(), c.arguments())).toList();
        for (ReflectionPrompts.Prompt prompt : prompts.afterToolStep(step, uses, answers)) {
            Map<String, Object> evidence = new LinkedHashMap<>();
            evidence.put("strategy", prompt.strategy());
            evidence.put("trigger", prompt.trigger());
            run.emit(new TraceEvent.Intervention(run.runId, step, run.now(), "reflection", prompt.text(), evidence));
            blocks.add(new TextBlock(prompt.text()));
        }
        return new ToolStep.Answered(blocks, Optional.empty());
    }

    /**
     * The problems found with a proposed answer: every verifier's, then (only if they all pass) the critic's.
     *
     * @throws ModelCaller.CallFailed with the deadline's reason when the run's time ran out before a
     *                                verifier gave its verdict (the answer is then not accepted)
     */
    List<String> verify(FinalAnswer proposed) throws InterruptedException, ModelCaller.CallFailed {
        List<String> missing = new ArrayList<>();
        for (Verifier verifier : run.config.verifiers()) {
            Verdict verdict = verdict(verifier, proposed);
            if (verdict == null) {
                // no verdict is no approval: the answer is never accepted unchecked
                throw new ReinException("the verifier " + verifier.getClass().getName() + " returned null: return"
                        + " Verdict.pass() or Verdict.fail(what is missing)");
            }
            if (verdict instanceof Verdict.Fail fail) {
                missing.addAll(fail.missing());
            }
        }
        if (missing.isEmpty()) {
            missing.addAll(review(proposed));
        }
        return missing;
    }

    /**
     * The critic's problems with a proposed answer the verifiers passed (none without a critic). Under an engine's
     * attempt a retryable failure of the review is a {@link ModelCaller.HandedBack}.
     */
    List<String> review(FinalAnswer proposed) throws InterruptedException {
        if (critic == null) {
            return List.of();
        }
        // a review is a model call: none past a money or input token limit the answer's step reached, as no step is
        Optional<dev.rein.budget.BudgetKind> spent = run.meter.spent()
                .filter(kind -> kind != dev.rein.budget.BudgetKind.OUTPUT_TOKENS);
        Verdict review = spent.isPresent() ? critic.notAsked(run.meter.describe(spent.get()))
                : critic.review(proposed, criticRoom());
        run.criticRounds = critic.rounds();
        return review instanceof Verdict.Fail fail ? fail.missing() : List.of();
    }

    /**
     * What the run's output token and money limits leave the critic's review: the money left buys output at the
     * critic model's highest output rate, priced as its calls are charged (the run's price for the agent's model,
     * else the agent's price table's).
     */
    private Critic.Room criticRoom() {
        if (run.meter.outputTokensLeft().orElse(Long.MAX_VALUE) <= 0) {
            return Critic.Room.none("the run's output token limit");
        }
        dev.rein.budget.ModelPrice price = !run.config.capOutputToMoneyLeft() ? null // not capped by money
                : critic.modelName().equals(run.config.modelName()) ? run.meter.price()
                : run.config.prices().find(critic.modelName()).orElse(null);
        OutputCap cap = OutputCap.of(run.meter, price, critic.maxTokens(), "the critic model's");
        if (cap == null) {
            return Critic.Room.unlimited();
        }
        return new Critic.Room(cap.tokens(), cap.money() ? "the run's money limit" : "the run's output token limit", cap.why(),
                cap.evidence());
    }

    /**
     * One verifier's verdict, within the run's deadline: the verifier runs on its own virtual thread,
     * so that one that hangs or spins (a test suite that never ends) cannot hold the run past its
     * time limit; it is interrupted when the limit passes, and the run stops there.
     */
    private Verdict verdict(Verifier verifier, FinalAnswer proposed) throws InterruptedException, ModelCaller.CallFailed {
        Duration left = run.meter.remaining();
        Timed.Outcome<Verdict> outcome = left.isNegative() || left.isZero() ? new Timed.Outcome.TimedOut<>()
                : Timed.run("rein-verifier-" + run.runId, left, () -> verifier.verify(proposed));
        return switch (outcome) {
            case Timed.Outcome.Done<Verdict> done -> done.value();
            case Timed.Outcome.TimedOut<Verdict> ignored -> throw new ModelCaller.CallFailed(BudgetKind.DEADLINE.reason(),
                    run.meter.describe(BudgetKind.DEADLINE) + " while the verifier " + verifier.getClass().getName()
                            + " checked the proposed answer, so the answer was not accepted");
            // the application's check failed, not the loop (an Error too: a check's AssertionError): say whose, and
            // that nothing was accepted unchecked
            case Timed.Outcome.Failed<Verdict> failed -> throw new ReinException("the verifier " + verifier.getClass().getName()
                    + " threw " + failed.cause() + ", so the proposed answer could not be checked", failed.cause());
        };
    }

    /** The critic's reviews so far (0 without a critic). */
    int criticRounds() {
        return critic == null ? 0 : critic.rounds();
    }

    /** Counts the critic's reviews made earlier in the run by another loop (a driven run's earlier check). */
    void countEarlierReviews(int reviews) {
        if (critic != null) {
            critic.countEarlierReviews(reviews);
            run.criticRounds = critic.rounds();
        }
    }

    /** The loop's own finish tool is not watched: refusing a finish is the verifiers' business. */
    private boolean unwatched(String tool) {
        return run.config.finishTool() && tool.equals(FinishTool.NAME);
    }

    /** {@code risk}: the tool's, when the guard acted before the call ran; null otherwise. */
    /**
     * {@code tool}: the name of the call's tool, put in the evidence when the detector's (a custom one's) has no "tool",
     * so that a tracer can always name the blocked call's tool (the GenAI conventions require it on an execute_tool span).
     */
    private void traceStall(Finding finding, String action, Risk risk, String tool) {
        Map<String, Object> evidence = finding.evidence();
        if (tool != null && !evidence.containsKey("tool")) {
            evidence = new java.util.LinkedHashMap<>(evidence);
            evidence.put("tool", tool);
        }
        run.emit(new TraceEvent.StallDetected(run.runId, run.step(), run.now(), finding.detector(), action, finding.callId(),
                finding.message(), evidence, finding.occurrence(), risk == null ? null : risk.name()));
    }
}
