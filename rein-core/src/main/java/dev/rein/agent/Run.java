package dev.rein.agent;

import dev.rein.tool.ToolOutcome;

import dev.rein.run.FinishReport;
import dev.rein.run.RunStatus;
import dev.rein.internal.approval.ApprovalLedger;
import dev.rein.approval.ApprovalState;
import dev.rein.budget.BudgetMeter;
import dev.rein.internal.loop.Step;
import dev.rein.context.OutputStore;
import dev.rein.model.Message;
import dev.rein.security.TraceRedactor;
import dev.rein.state.AgentState;
import dev.rein.state.RunSnapshot;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolResult;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The mutable state of one run, owned by its loop thread (cancel may come from any thread). */
final class Run {
    final String runId;
    final String goal;
    final AgentConfig config;
    /** When the run would have started had it never paused: its deadline counts running time only. */
    final Instant startedAt;
    final Instant createdAt;
    final BudgetMeter meter;
    final ToolExecutor executor;
    final Recorder recorder;
    final OutputStore outputs;
    final List<Message> history = new ArrayList<>();
    RunStatus status = RunStatus.RUNNING;
    /**
     * What the loop's decisions remember: verification refusals (persisted) and empty turns (not
     * persisted: a resumed run may be nudged again). Replaced, never changed, by each decision.
     */
    Step.State decisions;
    /** On whose behalf the run acts; it stays with the run across resumes. */
    final Principal principal;
    /** The agent's secrets, recording every value handed out so it is masked from then on. */
    final Secrets secrets;
    /** Masks every known secret in what the run stores, traces or hands out. */
    final TraceRedactor redactor;
    final ApprovalLedger approvals;
    AgentState state;
    /** The status a resumed run continued from, or null for a new run. */
    final RunStatus resumedFrom;
    /** The version of the last saved snapshot (0 before the first save). */
    long version;
    private volatile boolean cancelled;
    private volatile Thread thread;

    private Run(String runId, String goal, AgentConfig config, Principal principal, RunSnapshot from) {
        this.runId = runId;
        this.secrets = Secrets.tracking(config.secrets());
        this.redactor = new TraceRedactor(secrets::known);
        // a secret never enters the model's context, the store or a result: not even from the goal
        this.goal = redactor.redact(goal);
        this.config = config;
        this.principal = principal;
        this.resumedFrom = from == null ? null : from.status();
        Instant now = config.clock().instant();
        this.startedAt = from == null ? now : now.minus(Duration.ofMillis(from.activeMillis()));
        this.createdAt = from == null ? now : from.createdAt();
        this.meter = new BudgetMeter(config.budget(), config.prices(), config.modelName(), config.clock(), startedAt);
        this.approvals = new ApprovalLedger(from == null ? ApprovalState.NONE : from.approvals());
        this.state = from == null ? AgentState.of(this.goal) : from.state();
        this.recorder = new Recorder(listeners(runId, config), redactor, secrets::known);
        this.outputs = config.guards().context().storeForRun();
        Map<String, Integer> counts = from == null ? Map.of() : from.toolCallCounts();
        this.executor = RunTools.executor(this, counts);
        if (from == null) {
            history.add(Message.user(this.goal));
        } else {
            history.addAll(from.history());
            meter.restore(from.steps(), from.usage(), from.costUsd());
            version = from.version();
        }
        this.decisions = Step.State.start(new Step.Rules(config.maxTokens(), config.maxVerificationFailures(),
                AgentLoop.MAX_EMPTY_ANSWER_NUDGES), from == null ? 0 : from.verificationFailures());
    }

    private static List<RunListener> listeners(String runId, AgentConfig config) {
        List<RunListener> listeners = new ArrayList<>();
        for (RunListenerFactory factory : config.listeners()) {
            listeners.add(factory.create(runId));
        }
        listeners.add(new StoreListener(config.safety().store(), runId));
        return listeners;
    }

    /** Records each call that passed validation, with the arguments as validated. */
    ToolOutcome traceValidatedCall(ToolInvocation invocation, ToolInterceptor.Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        emit(new TraceEvent.ToolCalled(runId, step(), now(), call.id(), call.name(), call.arguments()));
        return chain.proceed(invocation);
    }

    static Run start(String runId, String goal, AgentConfig config) {
        return start(runId, goal, config, config.principal());
    }

    static Run start(String runId, String goal, AgentConfig config, Principal principal) {
        return new Run(runId, goal, config, principal, null);
    }

    /** Continues a stored run; the agent supplies the model, tools and listeners. */
    static Run resume(RunSnapshot snapshot, AgentConfig config) {
        return new Run(snapshot.runId(), snapshot.goal(), config, snapshot.principal(), snapshot);
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

    int step() {
        return meter.steps();
    }

    void emit(TraceEvent event) {
        recorder.emit(event);
    }

    Instant now() {
        return config.clock().instant();
    }

    void bindThread(Thread thread) {
        this.thread = thread;
    }

    void cancel() {
        cancelled = true;
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    boolean cancelled() {
        return cancelled;
    }
}
