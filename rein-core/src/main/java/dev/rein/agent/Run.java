package dev.rein.agent;

import dev.rein.ReinException;

import dev.rein.run.FinishReport;
import dev.rein.run.RunStatus;
import dev.rein.internal.approval.ApprovalLedger;
import dev.rein.internal.collect.GrowingList;
import dev.rein.approval.ApprovalState;
import dev.rein.budget.BudgetMeter;
import dev.rein.internal.loop.Step;
import dev.rein.context.OutputStore;
import dev.rein.model.Message;
import dev.rein.model.ToolUseBlock;
import dev.rein.security.TraceRedactor;
import dev.rein.state.AgentState;
import dev.rein.state.Conversation;
import dev.rein.state.RunSnapshot;
import dev.rein.state.StoredOutputSchema;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolResult;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.time.Instant;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.state.BudgetUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One run's effect holder, owned by its loop thread (cancel may come from any thread): the history,
 * the meter, the executor, the approval ledger, and the persisted parts the driver changes only
 * through the methods below. The decisions' state is an immutable {@link Step.State}, replaced by
 * {@link #decide} alone.
 */
final class Run {
    final String runId;
    final String goal;
    final AgentConfig config;
    /** When the run would have started had it never paused: its deadline counts running time only. */
    final Instant startedAt;
    final Instant createdAt;
    final BudgetMeter meter;
    /** The tools offered now; re-read from the agent's tool sources before each model request. */
    private final LiveTools tools;
    /** Rebuilt, with the call counts so far, when the tools change. */
    ToolExecutor executor;
    final Recorder recorder;
    final OutputStore outputs;
    /**
     * The conversation so far, immutable and replaced at each change. Appending shares the array of
     * the previous version (see {@link GrowingList}), so a request or checkpoint can keep the list
     * it is given, and no step copies the whole history.
     */
    private GrowingList<Message> history = GrowingList.empty();
    private RunStatus status = RunStatus.RUNNING;
    /**
     * What the loop's decisions remember: verification refusals (persisted) and empty turns (not
     * persisted: a resumed run may be nudged again). Replaced, never changed, by each decision.
     */
    private Step.State decisions;
    /** On whose behalf the run acts; it stays with the run across resumes. */
    final Principal principal;
    /** The agent's secrets, recording every value handed out so it is masked from then on. */
    final Secrets secrets;
    /** Masks every known secret in what the run stores, traces or hands out. */
    final TraceRedactor redactor;
    final ApprovalLedger approvals;
    private AgentState state;
    /** The status a resumed run continued from, or null for a new run. */
    final RunStatus resumedFrom;
    /** The run's turn as a conversation and what the earlier turns used. */
    final Conversation conversation;
    /** The person's reply that opened this turn, or null when the turn is not a new reply. */
    final String reply;
    /** The calls a cancel had left without a result, answered when this reply opened the turn (none for other turns). */
    final List<ToolUseBlock> cutByCancel;
    /** The critic's reviews in this turn so far (kept in the snapshot: a resumed run's critic counts on from them). */
    int criticRounds;
    /** The version of the last saved snapshot (0 before the first save). */
    private long version;
    private volatile boolean cancelled;
    /** The thread running the loop; guarded by {@code threadLock}, so that no cancel interrupts it once unbound. */
    private Thread thread;
    private final Object threadLock = new Object();
    /**
     * Whether the loop's thread was interrupted by anyone but a cancel (the caller whose thread runs the
     * loop), which ended the run or was still pending at its end; set and read on the loop's thread.
     */
    boolean interrupted;
    /** Whether the loop runs on the thread of a caller waiting for it, whose interrupt is its way to cancel the run. */
    boolean onCallersThread;
    /**
     * The stored schema a run continued only to end keeps in its snapshots (null: the agent's, as {@link #config}
     * has it); see {@link #toEnd}.
     */
    final StoredOutputSchema keptSchema;

    private Run(String runId, String goal, AgentConfig config, Principal principal, RunSnapshot from, String reply) {
        this(runId, goal, config, principal, from, reply, null);
    }

    private Run(String runId, String goal, AgentConfig config, Principal principal, RunSnapshot from, String reply,
                StoredOutputSchema keptSchema) {
        this.runId = runId;
        this.reply = reply;
        this.keptSchema = keptSchema;
        // what a lookup handed out before the pause is still a secret here: asked for again, so it is masked
        this.secrets = ResumedSecrets.tracking(config.secrets(), from);
        this.redactor = new TraceRedactor(secrets::known);
        // a secret never enters the model's context, the store or a result: not even from the goal
        this.goal = redactor.redact(goal);
        this.config = config;
        this.principal = principal;
        this.resumedFrom = from == null ? null : from.status();
        Instant now = config.clock().instant();
        // the reply is kept with the run (masked), so the state block and a resumed turn still have it
        this.conversation = from == null ? Conversation.FIRST
                : reply != null ? Conversation.after(from, redactor.redact(reply)) : from.conversation();
        // the per-turn deadline counts this turn's running time only
        this.startedAt = from == null || reply != null ? now
                : now.minus(Duration.ofMillis(from.activeMillis() - conversation.activeMillisBefore()));
        this.createdAt = from == null ? now : from.createdAt();
        this.meter = new BudgetMeter(config.budget(), config.prices(), config.modelName(), config.clock(), startedAt);
        this.approvals = new ApprovalLedger(from == null ? ApprovalState.NONE : from.approvals());
        this.state = from == null ? AgentState.of(this.goal) : from.state();
        this.recorder = new Recorder(runId, listeners(runId, config, from != null), redactor, secrets::known);
        try {
            this.outputs = config.guards().context().storeForRun();
            Map<String, Integer> counts = from == null ? Map.of() : from.toolCallCounts();
            this.tools = new LiveTools(config.tools(), config.toolSources());
            this.executor = RunTools.executor(this, tools.registry(), counts);
            if (from == null) {
                history = history.with(Message.user(this.goal));
            } else {
                history = GrowingList.of(from.history());
                meter.restore(from.steps(), from.usage(), from.costUsd());
                version = from.version();
            }
            meter.startTurn(conversation.stepsBefore(), conversation.usageBefore(), conversation.costBefore(),
                    conversation.activeMillisBefore(), config.conversationBudget());
            if (reply != null) {
                Replies.Opened opened = Replies.opened(this, history, this.redactor.redact(reply));
                history = opened.history();
                this.cutByCancel = opened.cutByCancel();
                approvals.clear(); // the step the run ended in is answered now (a cancelled run's kept results are in the history)
            } else {
                this.cutByCancel = List.of();
            }
            this.criticRounds = from == null || reply != null ? 0 : from.criticRounds();
            this.decisions = Step.State.start(new Step.Rules(config.maxTokens(), config.maxVerificationFailures(),
                    AgentLoop.MAX_EMPTY_ANSWER_NUDGES, config.finishTool()), from == null || reply != null ? 0 : from.verificationFailures());
        } catch (RuntimeException | Error e) {
            // the run does not start: the listeners made for it are released (a trace file, an exporter's span)
            recorder.close();
            throw e;
        }
    }

    private static List<RunListener> listeners(String runId, AgentConfig config, boolean stored) {
        List<RunListener> listeners = new ArrayList<>();
        for (RunListenerFactory factory : config.listeners()) {
            try {
                RunListener listener = factory.create(runId, config.model());
                if (listener != null) { // null: this factory has no listener for this run (it traces only some)
                    listeners.add(listener);
                }
            } catch (RuntimeException | Error e) { // an Error too: an exporter's class missing from the class path
                // nothing has happened yet: the listeners made so far are released and the run is not started
                for (RunListener made : listeners) {
                    try {
                        made.close();
                    } catch (RuntimeException | Error ignored) {
                        // the factory's failure is the one to report
                    }
                }
                throw e instanceof ReinException rein ? rein : new ReinException("the run listener factory "
                        + factory.getClass().getName() + " failed: " + e + (stored ? "; the run did not go on" : "; the run was not started"), e);
            }
        }
        listeners.add(new StoreListener(config.safety().store(), runId));
        return listeners;
    }

    static Run start(String runId, String goal, AgentConfig config) {
        return start(runId, goal, config, config.principal());
    }

    static Run start(String runId, String goal, AgentConfig config, Principal principal) {
        return new Run(runId, goal, config, principal, null, null);
    }

    /** Continues a stored run; the agent supplies the model, tools and listeners. */
    static Run resume(RunSnapshot snapshot, AgentConfig config) {
        return new Run(snapshot.runId(), snapshot.goal(), Resumption.typedAs(config, snapshot, Resumption.Continuation.RESUME),
                snapshot.principal(), snapshot, null);
    }

    /**
     * Continues a stored run for one effect of a driven run ({@link DrivenRun}): as {@link #resume}, but a refusal for
     * another schema says that it ends the run, as the engine then does.
     */
    static Run driven(RunSnapshot snapshot, AgentConfig config) {
        return new Run(snapshot.runId(), snapshot.goal(), Resumption.typedAs(config, snapshot, Resumption.Continuation.DRIVEN),
                snapshot.principal(), snapshot, null);
    }

    /**
     * A stored run, continued only to be traced and ended (a driven run's end or intervention): an agent whose output
     * schema refuses the run ({@link Resumption#typedAs}) may still end it, so that a run refused at an activity ends
     * with its end traced and stored like any other; its snapshots keep the stored schema, not the agent's.
     */
    static Run toEnd(RunSnapshot snapshot, AgentConfig config) {
        AgentConfig typed;
        StoredOutputSchema kept = null;
        try {
            typed = Resumption.typedAs(config, snapshot, Resumption.Continuation.DRIVEN);
        } catch (ReinException refused) {
            // only the schema's refusals (another schema; a stored one this Rein cannot use), so that the run is built
            // once: a failure building it (a listener factory's) is the end's own, as it is a resume's
            typed = config;
            kept = snapshot.outputSchema();
        }
        return new Run(snapshot.runId(), snapshot.goal(), typed, snapshot.principal(), snapshot, null, kept);
    }

    /** Opens the next turn of an ended run with the person's {@code reply}. */
    static Run reply(RunSnapshot snapshot, AgentConfig config, String reply) {
        return new Run(snapshot.runId(), snapshot.goal(), Resumption.typedAs(config, snapshot, Resumption.Continuation.REPLY),
                snapshot.principal(), snapshot, reply);
    }

    /**
     * The memory recalled for this turn by the agent's injection policy, once per turn (null until asked);
     * entries forgotten or expired since leave it.
     */
    private List<dev.rein.memory.MemoryEntry> recalled;

    List<dev.rein.memory.MemoryEntry> recalledMemory() {
        dev.rein.memory.MemoryInjection injection = config.memoryInjection();
        if (injection == null) {
            return List.of();
        }
        if (recalled == null) {
            // The turn's reply is the person's latest message. It is read from the conversation, where
            // it is kept (a new reply is recorded there when the run starts), so a turn resumed after an
            // approval (no new reply) asks with it too; and the query is masked, since it leaves the run
            // for the memory store.
            String turnReply = conversation.currentReply();
            String query = redactor.redact(turnReply == null ? goal : goal + "\n" + turnReply);
            recalled = injection.store().recall(dev.rein.memory.MemoryScope.of(principal), query, injection.limit(), now());
            if (recalled.size() > injection.limit()) { // a store that returns more than asked must not fill every request
                recalled = List.copyOf(recalled.subList(0, injection.limit()));
            }
        } else if (!recalled.isEmpty()) {
            // An entry forgotten (or expired) since the recall leaves the block: a forget during the turn
            // must not keep sending the data to the model in the turn's later requests
            java.util.Set<String> live = new java.util.HashSet<>();
            Instant at = now();
            for (dev.rein.memory.MemoryEntry e : injection.store().list(dev.rein.memory.MemoryScope.of(principal))) {
                if (e.liveAt(at)) {
                    live.add(e.id());
                }
            }
            recalled = recalled.stream().filter(e -> live.contains(e.id())).toList();
        }
        return recalled;
    }

    /** Running time of the whole conversation so far. */
    long activeMillis() {
        return conversation.activeMillisBefore() + Duration.between(startedAt, now()).toMillis();
    }

    /** Saves the run as it is now (status RUNNING or WAITING_APPROVAL, no final answer). */
    void checkpoint() {
        Checkpoints.save(this, null);
    }

    /** Saves the run with its final (or pausing) result. */
    void checkpoint(RunResult result) {
        Checkpoints.save(this, result);
    }

    /** The run's result as it stands now: the one place a {@link RunResult} is assembled. */
    RunResult result(RunStatus status, String reason, String message, String answer, FinishReport report,
                     List<dev.rein.approval.ApprovalRequest> pending) {
        return new RunResult(runId, status, reason, message, answer, step(), meter.usage(), meter.costUsd(),
                Duration.between(startedAt, now()), report, history, state, pending);
    }

    /** The tools offered now. */
    dev.rein.tool.ToolRegistry tools() {
        return tools.registry();
    }

    /**
     * Takes up a change of the agent's tool sources, if any, so the next request offers the current
     * tools and the executor gates calls with them; the change is recorded as an audit event.
     */
    void refreshTools() {
        LiveTools.Change change = tools.refresh();
        if (change != null) {
            executor = RunTools.executor(this, tools.registry(), executor.callCounts());
            RunTools.audit(this, "tools_changed", null, null, change.describe());
        }
    }

    int step() {
        return meter.steps();
    }

    /** The conversation so far (immutable): it changes through {@link #append}, {@link #appendUserText}, {@link #replaceHistory}. */
    GrowingList<Message> history() {
        return history;
    }

    void append(Message message) {
        history = history.with(message);
    }

    /** Adds text to the last user message, or a new user message after an assistant turn. */
    void appendUserText(String text) {
        history = AgentLoop.withUserText(history, text);
    }

    /** A context edit replaced the history. */
    void replaceHistory(List<Message> edited) {
        history = GrowingList.of(edited);
    }

    RunStatus status() {
        return status;
    }

    /** Moves the run to {@code next}; returns the status it had. */
    RunStatus moveTo(RunStatus next) {
        RunStatus from = status;
        status = next;
        return from;
    }

    /** What the run knows apart from the history. */
    AgentState state() {
        return state;
    }

    /** A tool call's result observed: recorded as an attempt, and as a fact when it has a source. */
    void observed(int step, JsonNode arguments, ToolResult result) {
        state = state.observe(step, arguments, result);
    }

    /** The finish call's open questions and hypotheses, kept for a handoff. */
    void noteHandoff(JsonNode finishArguments) {
        state = FinishTool.handoffNotes(state, finishArguments);
    }

    /** The budget used so far, as the state shows it. */
    void noteBudget(BudgetUsage used) {
        state = state.withBudget(used);
    }

    /** The decisions' state now. */
    Step.State decisions() {
        return decisions;
    }

    /** Decides on {@code event} with the step function and keeps the decision's state: the one place it is replaced. */
    Step.Decision decide(Step.Event event) {
        Step.Decision decision = Step.decide(decisions, event);
        decisions = decision.state();
        return decision;
    }

    /** The version of the last saved snapshot (0 before the first save). */
    long version() {
        return version;
    }

    void saved(long savedVersion) {
        version = savedVersion;
    }

    /**
     * Set on an engine's later attempt of a step call, a summary call or a critic's review ({@link DrivenRun}): the interventions that
     * come before the call (the budget stop's, a max_tokens_lowered) were traced by the first attempt, so they are not
     * traced again until the call goes out ({@link ModelCaller} clears it then). Only those: a review the later attempt
     * does not ask for after all (the deadline passed meanwhile) is still said.
     */
    boolean tracedBeforeTheCall;

    void emit(TraceEvent event) {
        if (!tracedBeforeTheCall || !tracedBefore(event)) {
            recorder.emit(event);
        }
    }

    private static boolean tracedBefore(TraceEvent event) {
        return event instanceof TraceEvent.Intervention i && (i.kind().equals("budget") || i.kind().equals("max_tokens_lowered"));
    }

    /** Tells the listeners other than the run's store of an event the store already holds (written where it happened). */
    void emitUnstored(TraceEvent event) {
        recorder.emit(event, listener -> !(listener instanceof StoreListener));
    }

    Instant now() {
        return config.clock().instant();
    }

    void bindThread(Thread thread) {
        synchronized (threadLock) {
            this.thread = thread;
        }
    }

    /** Called by the loop's thread when it is done with the run: a cancel from now on interrupts nothing. */
    void unbindThread() {
        bindThread(null);
    }

    void cancel() {
        cancelled = true;
        synchronized (threadLock) {
            if (thread != null) {
                thread.interrupt();
            }
        }
    }

    boolean cancelled() {
        return cancelled;
    }
}
