package dev.rein.agent;

import dev.rein.ConfigurationException;
import dev.rein.ReinException;
import dev.rein.run.FinalAnswer;
import dev.rein.run.FinishReport;
import dev.rein.run.NextStep;
import dev.rein.internal.collect.GrowingList;
import dev.rein.internal.loop.Step;
import dev.rein.internal.text.Durations;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.budget.BudgetKind;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.Role;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.state.AgentState;
import dev.rein.state.StoreConflictException;
import dev.rein.state.StoreException;
import dev.rein.tool.ToolCall;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The controlled loop: perceive, decide, act, observe, until an end condition holds. Each stage
 * is one method; policies decide, this class only wires them. Nothing escapes as an exception:
 * every path ends in a {@link RunResult} with a status and a reason.
 */
final class AgentLoop {
    /** How often an empty turn is answered with a request to continue before the run fails. */
    static final int MAX_EMPTY_ANSWER_NUDGES = 1;

    private final Run run;
    private final ModelCaller caller;
    private final ToolStage tools;
    private final Guards guards;
    /** The last request {@link #capped} capped, what had been spent then, and its answer. */
    private ModelRequest cappedFor;
    private dev.rein.model.Usage cappedAtUsage;
    private java.math.BigDecimal cappedAtCost;
    private Capped lastCapped;

    AgentLoop(Run run) {
        this(run, 0);
    }

    /** @param engineAttempt see {@link ModelCaller#ModelCaller(Run, int)} */
    AgentLoop(Run run, int engineAttempt) {
        this.run = run;
        this.caller = new ModelCaller(run, engineAttempt);
        this.tools = new ToolStage(run);
        this.guards = new Guards(run, caller);
    }

    RunResult run() {
        try {
            started();
            NextStep next = continueStep();
            while (true) {
                switch (next) {
                    case NextStep.RunAgain ignored -> next = step();
                    case NextStep.Answer answer -> next = verify(answer);
                    case NextStep.Interrupt ignored -> {
                        return end(RunStatus.WAITING_APPROVAL, Reasons.APPROVAL_REQUIRED, Resumption.waitingMessage(run), "");
                    }
                    case NextStep.Handoff handoff -> {
                        return end(RunStatus.FAILED, Reasons.NEEDS_USER_INPUT, "the agent needs input from the user: "
                                + handoff.summary(), handoff.result(), handoff.report());
                    }
                    case NextStep.Stop stop -> {
                        return end(stop.status(), stop.reason().wire(), stop.message(),
                                stop.answer() == null ? knownSoFar(stop.message()) : stop.answer(), stop.report());
                    }
                }
            }
        } catch (InterruptedException e) {
            run.interrupted |= !run.cancelled();
            return end(RunStatus.CANCELLED, Reasons.CANCELLED, run.cancelled() || run.onCallersThread ? "the run was cancelled" : "the run was interrupted",
                    knownSoFar("the run was cancelled"));
        } catch (ModelCaller.CallFailed failed) {
            return failedCall(failed);
        } catch (StoreException e) {
            if (!(e instanceof StoreConflictException)
                    && (run.cancelled() || run.onCallersThread && Thread.currentThread().isInterrupted())) {
                // The cancel's interrupt came during a save, and a store on a socket fails on it (on a virtual thread the
                // JDK closes the socket, the interrupt left set): the cancel ended the run, as a moment earlier or later.
                // Cleared here, so that the end's own save can be made.
                boolean pending = Thread.interrupted();
                run.interrupted |= pending && !run.cancelled();
                return end(RunStatus.CANCELLED, Reasons.CANCELLED, "the run was cancelled", knownSoFar("the run was cancelled"));
            }
            String reason = e instanceof StoreConflictException ? Reasons.STORE_CONFLICT : Reasons.STORE_ERROR;
            String why = e instanceof StoreConflictException ? conflict(e) : e.getMessage();
            return end(RunStatus.FAILED, reason, "the run's state could not be saved, so it stopped: " + why,
                    knownSoFar(whyStopped(reason, null)));
        } catch (ConfigurationException e) {
            // a setting that cannot work, found now (an unpriced model a stage chose under a money limit): said as one
            return end(RunStatus.FAILED, Reasons.CONFIGURATION_ERROR, e.getMessage(),
                    knownSoFar(whyStopped(Reasons.CONFIGURATION_ERROR, null)));
        } catch (ReinException e) {
            // the application's code (a stage or policy breaking its contract, a verifier that threw): the exception
            // says what and what to do, in its own words, not as Rein's failure
            return end(RunStatus.FAILED, Reasons.INTERNAL_ERROR, e.getMessage(), knownSoFar(whyStopped(Reasons.INTERNAL_ERROR, null)));
        } catch (RuntimeException | Error e) { // an Error too: try to end, save and trace normally (runToEnd is the last resort)
            return end(RunStatus.FAILED, Reasons.INTERNAL_ERROR, "internal error: " + e,
                    knownSoFar(whyStopped(Reasons.INTERNAL_ERROR, null)));
        } finally {
            // nothing after the loop (saving, listeners closing, the caller's own code) should see an interrupt meant for it
            run.interrupted |= Thread.interrupted() && !run.cancelled();
        }
    }

    void started() {
        if (run.reply != null) {
            Replies.announce(run);
            return;
        }
        if (run.resumedFrom != null) {
            Resumption.announce(run, true);
            return;
        }
        run.emit(new TraceEvent.RunStarted(run.runId, 0, run.now(), run.goal, run.config.modelName(), run.tools().names(),
                limits(run)));
        run.emit(new TraceEvent.StateChanged(run.runId, 0, run.now(), null, RunStatus.RUNNING, "started"));
    }


    /** The budget limits a run's start (and resumption) event records. */
    static Map<String, Object> limits(Run run) {
        Map<String, Object> limits = limits(run.config.budget());
        // The conversation's limits (a reply turn's calls are lowered by what its money leaves across turns), so that a
        // replay of the conversation applies them as the run did; only when set, so other traces are as they were
        if (run.config.conversationBudget() != null) {
            limits.put("conversation_limits", limits(run.config.conversationBudget()));
        }
        // The price a money limit is counted with, so that a replay charges the recorded calls as the run did and
        // lowers max_tokens where it did (a replay's own price of the model may be another, or zero)
        boolean money = run.config.budget().maxCostUsd() != null
                || run.config.conversationBudget() != null && run.config.conversationBudget().maxCostUsd() != null;
        if (money && run.meter.price() != null) {
            limits.put("model_price", run.meter.price());
            if (!run.config.capOutputToMoneyLeft()) {
                limits.put("money_caps_output", false); // only when off: a default run's trace is as before
            }
            // A critic's own model is charged, and its review's max_tokens lowered, at that model's price: recorded
            // too, so a replay counts it as the run did (only when there is one, so other traces are as they were)
            Map<String, Object> others = criticPrice(run);
            if (!others.isEmpty()) {
                limits.put("model_prices", others);
            }
        }
        return limits;
    }

    /** The price of the critic's own model, by its name, when it has one other than the agent's and it is priced. */
    private static Map<String, Object> criticPrice(Run run) {
        Map<String, Object> prices = new LinkedHashMap<>();
        run.config.guards().reflection().stream()
                .filter(dev.rein.reflection.Reflection.Critique.class::isInstance)
                .map(r -> ((dev.rein.reflection.Reflection.Critique) r).modelName())
                .filter(name -> name != null && !name.equals(run.config.modelName()))
                .forEach(name -> run.config.prices().find(name).ifPresent(price -> prices.put(name, price)));
        return prices;
    }

    /** One budget's limits as a trace records them (the token limits only when set, so a trace without them is as it always was). */
    private static Map<String, Object> limits(dev.rein.budget.Budget budget) {
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("max_steps", budget.maxSteps());
        limits.put("max_cost_usd", budget.maxCostUsd());
        limits.put("max_seconds", Durations.seconds(budget.maxDuration()));
        if (budget.maxInputTokens() != null) {
            limits.put("max_input_tokens", budget.maxInputTokens());
        }
        if (budget.maxOutputTokens() != null) {
            limits.put("max_output_tokens", budget.maxOutputTokens());
        }
        // the per-tool caps, so that a replay refuses the calls the run refused (only when set, as the token limits)
        if (!budget.toolCallLimits().isEmpty()) {
            limits.put("tool_call_limits", new java.util.TreeMap<>(budget.toolCallLimits()));
        }
        return limits;
    }

    /** Perceive: assemble what the model sees on this call (context policies may edit the history first). */
    private ModelRequest perceive() throws InterruptedException {
        run.refreshTools();
        ModelRequest request = request(ToolChoice.auto());
        AgentState state = run.state();
        // The request is immutable and built from the history, the state and the tools: unless the
        // context policies replaced the history (or the state moved), it is the one to send. A compaction's
        // summary call is this request with tools off: it too may write at most what an output or money limit leaves,
        // said just before that call is made (when no compaction is due, nothing is said).
        Capped capped = capped(request);
        ModelRequest sent = capped.sent(request);
        if (guards.manageContext(sent, () -> {
            if (sent != request) {
                announce(capped);
            }
        }) || run.state() != state) {
            return request(ToolChoice.auto());
        }
        return request;
    }

    private ModelRequest request(ToolChoice choice) {
        AgentConfig c = run.config;
        // The builder keeps the history (a GrowingList) and the tool list as they are: no copies.
        // Masked as the goal is: a secret the application wrote into its prompt must not reach the model either.
        return ModelRequest.builder(c.modelName())
                .system(run.redactor.redact(c.requestSystemPrompt()))
                .tools(run.tools().definitions())
                .toolChoice(choice)
                .messages(StateBlock.withMemory(StateBlock.messages(run.history(), run.state(), run.conversation, c.stateInPrompt(),
                        c.budget().maxSteps(), c.conversationBudget()), run.recalledMemory()))
                .maxTokens(c.maxTokens())
                .options(c.requestOptions())
                .temperature(c.temperature())
                .build();
    }

    /** One model step: the step function decides, from the budget, whether the model is called. */
    private NextStep step() throws InterruptedException, ModelCaller.CallFailed {
        stopIfCancelled();
        Optional<BudgetKind> exhausted = run.meter.check();
        return execute(run.decide(new Step.Event.BudgetObserved(exhausted.orElse(null),
                exhausted.map(run.meter::describe).orElse(null))));
    }

    /**
     * Cancel interrupts the run's thread, and a model or tool call that ran on that thread may have swallowed the
     * interrupt (a response that arrived just as it came); the flag cannot be swallowed. On a virtual caller's thread
     * the caller's interrupt is its cancel, and it is taken here too: left set by a call that ended on it (a tool
     * handler that returned and set it again, as Tool.abortsOnInterrupt asks) or that came while no call was waiting,
     * it met no blocking wait (a call already answered returns without looking at it), and the run went on.
     */
    private void stopIfCancelled() throws InterruptedException {
        if (run.cancelled() || run.onCallersThread && Thread.interrupted()) {
            throw new InterruptedException("the run was cancelled");
        }
    }

    /**
     * A step's model response; {@code outputLimitCut}: it was cut off at the max_tokens an output token
     * or money limit left (see {@link Step.Event.Responded}). {@code response} is null when the step's call was not
     * made: a call on its behalf before it (a compaction) used up a token or money limit.
     */
    record Stepped(ModelResponse response, boolean outputLimitCut) {}

    /**
     * The model call of one step (counted as a step), its response added to the history. The step may
     * write at most what an output token limit still leaves and what the money left buys ({@code max_tokens}
     * lowered to it, a {@code max_tokens_lowered} intervention saying why), so that one step does not spend up
     * to {@code max_tokens} past either limit; a response cut off there keeps only its text in the history:
     * its cut tool calls are not run, nor sent back without results.
     */
    Stepped callStep() throws InterruptedException, ModelCaller.CallFailed {
        dev.rein.model.Usage before = run.meter.usage();
        // The context edits come before the step is counted: made on the step's behalf, they are numbered with
        // the steps made so far, as the final summary call is, so no event carries a step the run did not make
        ModelRequest request = perceive();
        if (run.meter.usage() != before && run.meter.spent().isPresent()) {
            // a compaction's summary call spent what was left of a limit (all the output tokens it leaves): the
            // step's call is not made (nor counted: a step is a model call), and the budget check before the next
            // step stops the run for that limit
            return new Stepped(null, false);
        }
        run.meter.countStep();
        Capped capped = capped(request);
        ModelRequest limited = capped.sent(request);
        if (limited != request) {
            announce(capped);
        }
        ModelResponse response = caller.call(limited, "step");
        stopIfCancelled(); // before any of the response's tool calls can run
        boolean cut = limited != request && response.stopReason() == StopReason.MAX_TOKENS;
        Optional<Message> kept = response.toHistoryMessage();
        if (cut) {
            kept = kept.map(m -> m.content().stream().filter(b -> b instanceof TextBlock).toList())
                    .filter(texts -> !texts.isEmpty()).map(Message::assistant);
        }
        kept.ifPresent(run::append);
        return new Stepped(response, cut);
    }

    /**
     * A request with its max_tokens lowered to what the output token and money limits leave ({@code request}
     * itself when neither leaves fewer); {@code why} says which limit and how much it leaves, {@code evidence}
     * the numbers for the trace; {@code refused} why one of the request's options cannot work with the lowered
     * max_tokens (Anthropic's thinking budget must stay below it: the provider would refuse it), else null.
     */
    record Capped(ModelRequest request, int from, String why, Map<String, Object> evidence, String refused) {
        /** What to send instead of {@code original}: the lowered request, unless an option of it refuses that. */
        ModelRequest sent(ModelRequest original) {
            return refused == null ? request : original;
        }
    }

    /**
     * {@code request} with its max_tokens lowered to the fewest output tokens a limit still leaves: an output
     * token limit's tokens left, and the tokens the money left buys at the model's highest output rate (so a
     * call cannot spend a whole max_tokens of output past a money limit). A limit already reached lowers
     * nothing: the call made then (the summary the budget contract promises) keeps the agent's max_tokens.
     */
    private Capped capped(ModelRequest request) {
        // A step's request is capped before its context edits and again just before it is sent: the same request
        // with nothing spent in between (no compaction call) is capped the same way, so the first answer stands.
        if (request == cappedFor && run.meter.usage() == cappedAtUsage && run.meter.costUsd() == cappedAtCost && lastCapped != null) {
            return lastCapped;
        }
        cappedFor = request;
        cappedAtUsage = run.meter.usage();
        cappedAtCost = run.meter.costUsd();
        lastCapped = cap(request);
        return lastCapped;
    }

    private Capped cap(ModelRequest request) {
        // no price: not capped by money (an agent that turned the cap off)
        OutputCap cap = OutputCap.of(run.meter, run.config.capOutputToMoneyLeft() ? run.meter.price() : null,
                request.maxTokens(), "the model's");
        if (cap == null) {
            return new Capped(request, request.maxTokens(), null, Map.of(), null);
        }
        ModelRequest lowered = request.toBuilder().maxTokens((int) cap.tokens()).build();
        return new Capped(lowered, request.maxTokens(), cap.why(), cap.evidence(), refusedOption(lowered).orElse(null));
    }

    /** Says in the trace that (and why) a call's max_tokens was lowered, just before the call. */
    private void announce(Capped capped) {
        run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), "max_tokens_lowered", "max_tokens lowered from "
                + capped.from() + " to " + capped.request().maxTokens() + ": " + capped.why(), capped.evidence()));
    }

    /** The guards of this loop (a driven run's check carries the critic's reviews from one loop to the next). */
    Guards guards() {
        return guards;
    }

    /** What the verifiers (and the critic) still miss in a proposed answer. */
    List<String> missing(NextStep.Answer answer) throws InterruptedException, ModelCaller.CallFailed {
        return guards.verify(proposed(answer));
    }

    /**
     * What the critic still misses in a proposed answer the verifiers passed already: an engine's later attempt of a
     * check whose review it retries ({@link DrivenRun#verify}).
     */
    List<String> reviewed(NextStep.Answer answer) throws InterruptedException {
        return guards.review(proposed(answer));
    }

    private FinalAnswer proposed(NextStep.Answer answer) {
        List<FinalAnswer.Call> calls = run.state().attemptedActions().stream()
                .map(a -> new FinalAnswer.Call(a.step(), a.callId(), a.tool(), a.isError())).toList();
        return new FinalAnswer(run.goal, answer.text(), answer.report(), run.history(), calls);
    }

    /**
     * The driver: performs a decision's commands in order (the run kept its state). A command whose
     * effect ends in an event decides again; the last such decision's step is the next one.
     */
    private NextStep execute(Step.Decision decision) throws InterruptedException, ModelCaller.CallFailed {
        NextStep next = decision.next();
        for (Step.Command command : decision.commands()) {
            switch (command) {
                case Step.Command.CallModel ignored -> {
                    Stepped stepped = callStep();
                    next = stepped.response() == null ? new NextStep.RunAgain("budget")
                            : execute(run.decide(new Step.Event.Responded(stepped.response(), answerText(), stepped.outputLimitCut())));
                }
                // as act does, without its frame: the run parks with this stack while its tools run
                case Step.Command.RunTools tools -> next = execute(run.decide(new Step.Event.ToolsProposed(tools.uses())));
                case Step.Command.ExecuteTools tools -> next = executeTools(tools.uses());
                case Step.Command.CheckFinish finish -> next = checkFinish(finish.use());
                case Step.Command.RefuseFinish finish -> next = refuseFinish(finish.use(), finish.problems());
                case Step.Command.NoteHandoff note -> run.noteHandoff(note.arguments());
                case Step.Command.Verify verify -> next = verify(verify.answer());
                case Step.Command.Summarize summarize -> next = summarize(summarize.kind(), summarize.why());
                case Step.Command.Checkpoint ignored -> run.checkpoint();
                case Step.Command.Intervene i -> run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), i.kind(),
                        i.message(), i.details()));
                case Step.Command.AppendUserText append -> appendUserText(append.text());
                case Step.Command.Observe observe -> observe(observe.blocks());
                case Step.Command.ClearToolResults ignored -> throw new IllegalStateException("context edits are decided in perceive");
                case Step.Command.Compact ignored -> throw new IllegalStateException("context edits are decided in perceive");
            }
        }
        return next;
    }

    /** Verification: code decides whether a proposed final answer is accepted. */
    private NextStep verify(NextStep.Answer answer) throws InterruptedException, ModelCaller.CallFailed {
        List<String> invalid = run.config.outputSchema().map(schema -> schema.problems(answer.text())).orElse(List.of());
        List<String> missing = invalid.isEmpty() ? missing(answer) : List.of();
        return execute(run.decide(new Step.Event.Verified(answer, missing, invalid)));
    }

    /** The final answer: the text of the assistant turns since the last user turn (a paused turn and its continuation). */
    private String answerText() {
        return answerText(run.history());
    }

    static String answerText(List<Message> history) {
        int last = history.size() - 1;
        if (last >= 0 && history.get(last).role() == Role.ASSISTANT && (last == 0 || history.get(last - 1).role() != Role.ASSISTANT)) {
            return history.get(last).text(); // one assistant turn (the usual case): its text, without a builder
        }
        // A continuation (after pause_turn) continues the same turn: the texts are joined exactly as
        // given, with no separator and nothing trimmed (the provider trims only what it sends back)
        StringBuilder text = new StringBuilder();
        for (int i = history.size() - 1; i >= 0 && history.get(i).role() == Role.ASSISTANT; i--) {
            text.insert(0, history.get(i).text());
        }
        return text.toString();
    }

    /** A resumed run first answers the calls of its last response, if they have no results yet. */
    private NextStep continueStep() throws InterruptedException, ModelCaller.CallFailed {
        Message last = run.history().get(run.history().size() - 1);
        List<ToolUseBlock> open = last.role() == Role.ASSISTANT ? last.toolUses() : List.of();
        return execute(run.decide(new Step.Event.Started(open)));
    }

    /**
     * Act and observe: run every proposed call and answer each one in the next user message. (For an engine; the loop's
     * own driver decides on the proposed calls in {@link #execute}, one frame less on the stack its tool calls wait with.)
     */
    NextStep act(List<ToolUseBlock> uses) throws InterruptedException, ModelCaller.CallFailed {
        return execute(run.decide(new Step.Event.ToolsProposed(uses)));
    }

    /** The guarded tool step (stall guard, tool chain, reflection); the step function decides on what it came to. */
    private NextStep executeTools(List<ToolUseBlock> uses) throws InterruptedException, ModelCaller.CallFailed {
        return observed(withModelIds(guards.act(calls(uses), tools), uses));
    }

    /** What a guarded tool step came to, as an event for the step function (observe, checkpoint, next step or pause). */
    NextStep observed(Guards.ToolStep step) throws InterruptedException, ModelCaller.CallFailed {
        Step.Event outcome = switch (step) {
            case Guards.ToolStep.Paused paused -> new Step.Event.ToolsPaused(paused.awaitingCallIds());
            case Guards.ToolStep.Answered answered -> new Step.Event.ToolsAnswered(answered.observation(),
                    answered.stalled().orElse(null));
        };
        return execute(run.decide(outcome));
    }

    /** Whether the response's only call is the loop's finish tool (decided by the step function, not run by the executor). */
    boolean finishOnly(List<ToolUseBlock> uses) {
        return uses.size() == 1 && uses.get(0).name().equals(FinishTool.NAME) && run.config.finishTool();
    }

    /**
     * The calls of one response as executor calls, in call order. A call whose id an earlier call
     * of the response already has (some compatible servers repeat ids) gets its own, {@code id#index}:
     * the approvals and results kept across a pause are keyed by call id, and with a shared one an
     * approved write was answered with a read's result and never ran. The same history gives the
     * same ids on resume; the model still gets its own ids back ({@link #withModelIds}).
     */
    static List<ToolCall> calls(List<ToolUseBlock> uses) {
        List<ToolCall> calls = new ArrayList<>(uses.size());
        Set<String> seen = uses.size() > 1 ? new HashSet<>() : null;
        for (int i = 0; i < uses.size(); i++) {
            ToolUseBlock use = uses.get(i);
            calls.add(new ToolCall(seen == null ? use.id() : distinctId(use.id(), i, seen), use.name(), use.input(), i));
        }
        return calls;
    }

    /** The id Rein knows the {@code index}-th call of a response by, given the ids of the calls before it ({@code seen}, updated). */
    static String distinctId(String id, int index, Set<String> seen) {
        if (seen.add(id)) {
            return id;
        }
        String distinct = id + "#" + index;
        while (!seen.add(distinct)) {
            distinct = distinct + "#";
        }
        return distinct;
    }

    /** The step's answer with each result under the id the model gave its call (see {@link #calls}), in call order. */
    static Guards.ToolStep withModelIds(Guards.ToolStep step, List<ToolUseBlock> uses) {
        if (!(step instanceof Guards.ToolStep.Answered answered)) {
            return step;
        }
        List<ContentBlock> blocks = null; // copied only when some id differs: on every step, nearly never
        List<ContentBlock> observation = answered.observation();
        // the first blocks are the calls' results, one per call in call order; notices and prompts follow
        for (int i = 0; i < uses.size() && i < observation.size(); i++) {
            if (observation.get(i) instanceof ToolResultBlock r && !r.toolUseId().equals(uses.get(i).id())) {
                if (blocks == null) {
                    blocks = new ArrayList<>(observation);
                }
                blocks.set(i, new ToolResultBlock(uses.get(i).id(), r.content(), r.isError()));
            }
        }
        return blocks == null ? step : new Guards.ToolStep.Answered(blocks, answered.stalled());
    }

    private void observe(List<? extends ContentBlock> blocks) {
        run.append(Message.user(blocks));
    }

    /** The finish tool's arguments checked against its schema; the step function decides what the report means. */
    private NextStep checkFinish(ToolUseBlock given) throws InterruptedException, ModelCaller.CallFailed {
        // a typed answer given as the JSON value itself counts as its text; the output schema then checks it
        JsonNode input = run.config.outputSchema().map(schema -> FinishTool.typedResult(given.input(), schema))
                .orElseGet(() -> FinishTool.nullResultAsEmpty(given.input()));
        ToolUseBlock use = input == given.input() ? given : new ToolUseBlock(given.id(), given.name(), input);
        List<String> problems = run.tools().find(FinishTool.NAME).orElseThrow().validationProblems(use.input());
        FinishReport report = problems.isEmpty() ? FinishTool.parse(use.input()) : null;
        return execute(run.decide(new Step.Event.FinishChecked(use, report, problems)));
    }

    /** An invalid finish call goes through the tool chain, which answers it with the validation error. */
    private NextStep refuseFinish(ToolUseBlock use, List<String> problems) throws InterruptedException, ModelCaller.CallFailed {
        ToolCall call = calls(List.of(use)).get(0);
        Step.Event outcome = tools.execute(List.of(call)) instanceof ToolStage.Batch.Results refused
                ? new Step.Event.FinishRefused(new ToolResultBlock(call.id(), refused.results().get(0).content(), true), problems)
                : new Step.Event.ToolsPaused(List.of(call.id()));
        return execute(run.decide(outcome));
    }

    /** A budget ran out: one last call for what is known, unless time itself ran out (the step function decides). */
    NextStep stopForBudget(BudgetKind kind) throws InterruptedException, ModelCaller.CallFailed {
        return execute(run.decide(new Step.Event.BudgetObserved(kind, run.meter.describe(kind))));
    }

    /**
     * The summary call with tools off; a failed call is an event too (the run knows what it knows), but for a retryable
     * failure under an engine's attempt, which goes back to the engine as a {@link ModelCaller.CallFailed} with its delay.
     */
    private NextStep summarize(BudgetKind kind, String why) throws InterruptedException, ModelCaller.CallFailed {
        Step.Event.Summarized summarized;
        try {
            // What the output token and money limits still leave is all the summary may write. When the limit that
            // ran out is one of them, nothing is left to cap to by it: the one summary call the budget contract
            // promises is made as for the other budgets (its usage counts).
            Capped capped = capped(request(ToolChoice.none()));
            if (capped.refused() != null) {
                // the provider would refuse it (a thinking budget above max_tokens): said, rather than an internal error
                String notAsked = why + "; no summary was asked for: " + capped.why() + " are too few for this request ("
                        + capped.refused() + ")";
                return execute(run.decide(new Step.Event.Summarized(kind, notAsked, null, null, knownSoFar(notAsked))));
            }
            ModelRequest request = capped.request();
            if (capped.why() != null) {
                announce(capped);
            }
            ModelResponse summary = caller.call(request, "final_summary");
            summary.toHistoryMessage().ifPresent(run::append);
            summarized = new Step.Event.Summarized(kind, why, summary, null, knownSoFar(why));
        } catch (ModelCaller.CallFailed failed) {
            if (failed.retryDelay != null) {
                throw failed; // an engine's attempt: the engine makes the summary call again (DrivenRun.stopForBudget)
            }
            summarized = new Step.Event.Summarized(kind, why, null, failed.getMessage(), knownSoFar(why));
        }
        return execute(run.decide(summarized));
    }

    /** Why one of the request's options cannot work with it (as its provider would refuse it), if one cannot. */
    private static Optional<String> refusedOption(ModelRequest request) {
        try {
            request.options().check(request);
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Adds text to the last user message, or a new user message after an assistant turn. */
    private void appendUserText(String text) {
        run.appendUserText(text);
    }

    static GrowingList<Message> withUserText(List<Message> history, String text) {
        GrowingList<Message> list = GrowingList.of(history);
        Message last = list.get(list.size() - 1);
        if (last.role() == Role.USER) {
            List<ContentBlock> blocks = new ArrayList<>(last.content());
            blocks.add(new TextBlock(text));
            return list.withLast(Message.user(blocks));
        }
        return list.with(Message.user(text));
    }

    private RunResult failedCall(ModelCaller.CallFailed failed) {
        if (failed.reason.equals(BudgetKind.DEADLINE.reason())) {
            // a budget stop, traced as one (the live view's "! budget", OpenTelemetry's rein.budget.stop) like a
            // deadline found between steps
            run.emit(new TraceEvent.Intervention(run.runId, run.step(), run.now(), "budget", failed.getMessage(),
                    Map.of("budget", failed.reason)));
            return end(RunStatus.STOPPED_BUDGET, failed.reason, failed.getMessage(), knownSoFar(failed.getMessage()));
        }
        return end(RunStatus.FAILED, failed.reason, failed.getMessage(), knownSoFar(failed.getMessage()));
    }

    /**
     * What a lost save race means for the user: someone else holds the run now (what the store has),
     * and this process leaves it to them; the store's own words follow.
     */
    private String conflict(StoreException e) {
        String now;
        try {
            now = run.config.safety().store().load(run.runId)
                    .map(s -> " (it is now " + s.status() + ", version " + s.version() + ")").orElse("");
        } catch (RuntimeException unreadable) {
            now = "";
        }
        return "another process or person changed run " + run.runId + " in the store since this process loaded it" + now
                + " (a resume, a decision or a cancellation elsewhere), so this process stopped without overwriting it;"
                + " the store keeps the other's state: see agent.runs().show(" + dev.rein.json.Json.write(run.runId)
                + ") (rein show " + dev.rein.internal.text.RunIds.shellWord(run.runId) + "). The store said: " + e.getMessage();
    }

    /**
     * The reason a stop's answer gives: for an internal, configuration or store error that one occurred, not the
     * exception's text (which the run's message keeps); otherwise {@code message}.
     */
    static String whyStopped(String reason, String message) {
        return switch (reason) {
            case Reasons.INTERNAL_ERROR -> "an internal error occurred";
            case Reasons.CONFIGURATION_ERROR -> "the agent's configuration could not carry the run on";
            case Reasons.STORE_ERROR, Reasons.STORE_CONFLICT -> "the run's state could not be saved";
            case null, default -> message;
        };
    }

    /** What the run knows without asking the model again: its last words and the tools it used. */
    String knownSoFar(String why) {
        return KnownSoFar.describe(why, run.history(), run.state().attemptedActions());
    }

    /**
     * Runs {@code run} to its end. The loop ends every path in a result; this is the last line behind
     * it (an Error, or a failure while ending), so that no caller ever waits forever.
     */
    static RunResult runToEnd(Run run) {
        try {
            return new AgentLoop(run).run();
        } catch (Throwable failure) {
            return crashed(run, failure);
        } finally {
            run.recorder.close(); // after a crashed run's last events too
        }
    }

    /**
     * The result of a run whose loop itself failed: nothing more is saved, but the caller gets a result
     * and the listeners (a trace file, a stream's consumer, OpenTelemetry's span) the run's end, which
     * they wait for; each event is tried on its own, since emitting may be what failed.
     */
    private static RunResult crashed(Run run, Throwable failure) {
        RunStatus from = run.moveTo(RunStatus.FAILED);
        String message = "internal error: " + describe(failure) + " (the run's final state may not have been saved)";
        RunResult result;
        try {
            result = run.result(RunStatus.FAILED, Reasons.INTERNAL_ERROR, message, "", null, List.of());
        } catch (Throwable again) { // the run's own counters or clock failed too: a result without them
            result = RunResult.internalError(run.runId, message);
        }
        RunResult ended = result;
        tryEmit(run, () -> new TraceEvent.StateChanged(run.runId, run.step(), run.now(), from, RunStatus.FAILED, Reasons.INTERNAL_ERROR));
        tryEmit(run, () -> new TraceEvent.RunFinished(run.runId, run.step(), run.now(), RunStatus.FAILED, ended.reason(),
                ended.message(), "", run.meter.usage(), run.meter.costUsd()));
        return result;
    }

    /** The failure's own words, or its type when describing it fails too (a toString that throws, memory still short). */
    private static String describe(Throwable failure) {
        try {
            return failure.toString();
        } catch (Throwable again) {
            return failure.getClass().getName();
        }
    }

    private static void tryEmit(Run run, java.util.function.Supplier<TraceEvent> event) {
        try {
            run.emit(event.get());
        } catch (Throwable ignored) { // the run is already failed; its result must still reach the caller
        }
    }

    private RunResult end(RunStatus status, String reason, String message, String answer) {
        return end(status, reason, message, answer, null);
    }

    RunResult end(RunStatus status, String reason, String message, String answer, FinishReport report) {
        RunStatus from = run.moveTo(status);
        // pending approvals only while the run waits (RunResult's promise): a run an engine ended while it
        // waited (cancelled) keeps its undecided requests in the snapshot for the record, but none of them will run
        RunResult result = run.redactor.redactValue(run.result(status, reason, message, answer, report,
                status == RunStatus.WAITING_APPROVAL ? run.approvals.snapshot().undecided() : List.of()));
        result = Resumption.saveFinal(run, result);
        run.emit(new TraceEvent.StateChanged(run.runId, run.step(), run.now(), from, status, reason));
        run.emit(new TraceEvent.RunFinished(run.runId, run.step(), run.now(), status, result.reason(), result.message(), answer,
                run.meter.usage(), run.meter.costUsd()));
        return result;
    }
}
