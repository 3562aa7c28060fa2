package dev.rein.state;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;
import dev.rein.internal.trace.DecisionEvents;
import dev.rein.security.TraceRedactor;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolRegistry;
import dev.rein.model.Model;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import dev.rein.internal.log.ListenerFailures;
import dev.rein.internal.log.StoreFailures;
import dev.rein.internal.trace.TraceNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored runs, for people and tools (the CLI): list them, look at one, decide on its pending
 * actions, cancel it. Deciding needs no model: decisions are written to the stored run, and the
 * run continues when an agent resumes it ({@code agent.resume(runId)}), in this process or another.
 * A null store, clock or run id is refused with a {@link ReinException} saying what to pass.
 *
 * <pre>{@code
 * Runs runs = agent.runs();                       // or Runs.in(store, tools, clock)
 * ApprovalRequest request = runs.pending(runId).get(0);
 * runs.approve(runId, request.actionHash(), "alice");
 * RunResult result = agent.resume(runId);
 * }</pre>
 */
public final class Runs {
    private static final Logger LOG = LoggerFactory.getLogger(Runs.class);
    /** How often a decision (or a cancellation) is made again on a run that another one changed while it was being made. */
    private static final int DECIDE_ATTEMPTS = 5;

    private final RunStore store;
    private final ToolRegistry tools;
    private final Clock clock;
    /** Masks the agent's secrets in what a person decides, as the run masks what the model proposes. */
    private final TraceRedactor masker;
    private final Secrets secrets;
    /** Told of a cancellation as of a run's own end (see {@link #withListeners}); none unless given. */
    private final List<RunListenerFactory> listeners;
    /** The agent's model, told to each listener factory as a run tells it; null when unknown. */
    private final Model model;

    private Runs(RunStore store, ToolRegistry tools, Clock clock, Secrets secrets) {
        this(store, tools, clock, secrets, List.of(), null);
    }

    private Runs(RunStore store, ToolRegistry tools, Clock clock, Secrets secrets, List<RunListenerFactory> listeners, Model model) {
        // refused here: taken, each was met only at the first list or decision, as a bare NullPointerException
        if (store == null) {
            throw new ReinException("Runs.in(...) was given no store (null): pass the RunStore the agent saves its runs in,"
                    + " or use agent.runs()");
        }
        if (clock == null) {
            throw new ReinException("Runs.in(...) was given no clock (null): pass the clock decisions are timed by,"
                    + " e.g. Clock.systemUTC()");
        }
        this.store = store;
        this.tools = tools;
        this.clock = clock;
        this.masker = new TraceRedactor(secrets::known);
        this.secrets = secrets;
        this.listeners = listeners;
        this.model = model;
    }

    /** Without tools, edited arguments are checked only when the run resumes. */
    public static Runs in(RunStore store) {
        return new Runs(store, null, Clock.systemUTC(), Secrets.NONE);
    }

    /** With the agent's tools, edited arguments are checked against the tool's schema right away. */
    public static Runs in(RunStore store, ToolRegistry tools, Clock clock) {
        return new Runs(store, tools, clock, Secrets.NONE);
    }

    /**
     * With the agent's tools and secrets: a known secret in a rejection reason or in edited
     * arguments is masked before the decision is stored, as in everything else the run keeps; edited
     * arguments then run masked, as a model's arguments do.
     */
    public static Runs in(RunStore store, ToolRegistry tools, Clock clock, Secrets secrets) {
        return new Runs(store, tools, clock, secrets == null ? Secrets.NONE : secrets);
    }

    /**
     * These runs with the listeners of the agent whose runs they are ({@code agent.runs()} has the
     * agent's): a {@link #cancel} tells them the run's end as the run's own end would, so a trace file
     * or OpenTelemetry (rein-otel: a span of the cancellation linked to the run's earlier one, and the
     * run's stop metric) sees a paused run end. Each factory makes a listener for the run
     * ({@link RunListenerFactory#create(String, Model)} with {@code model}), which is given the
     * cancellation's {@code state_change} and {@code run_finished} and closed. A decision is told once: by
     * the resumed run, or, for a paused run cancelled with decisions made, by the cancel, before its end.
     *
     * @param model     the agent's model, as a run tells it to each factory; null when not known
     * @param listeners the factories, in order; none (empty) tells no one
     * @throws ReinException when {@code listeners} is null or holds null
     */
    public Runs withListeners(Model model, List<RunListenerFactory> listeners) {
        if (listeners == null || listeners.stream().anyMatch(java.util.Objects::isNull)) { // contains(null) throws on an immutable list
            throw new ReinException("withListeners(...) was given " + (listeners == null ? "no list (null)" : "a null listener factory")
                    + ": pass the RunListenerFactory instances to tell of a cancellation, or an empty list for none");
        }
        return new Runs(store, tools, clock, secrets, List.copyOf(listeners), model);
    }

    /** All runs, most recently updated first. */
    public List<RunSummary> list() {
        return store.list();
    }

    /**
     * The stored run {@code runId}, or empty. An id with a control character is looked up too (an older Rein saved runs
     * under such ids, which {@link #list()} gives): such a run can be read and {@linkplain #cancel cancelled}, not decided.
     *
     * @throws ReinException when {@code runId} is null or holds half a UTF-16 surrogate pair (no store can look it up)
     */
    public Optional<RunSnapshot> find(String runId) {
        requireRunId(runId);
        return store.load(runId);
    }

    /**
     * A run's state, pending approvals, handoff and trace summary, with the known secrets masked: a
     * decision stored where they were not known (another process, {@link #in(RunStore)}) holds them
     * in clear until the run resumes and masks it.
     */
    public RunView show(String runId) {
        return masker.redactValue(RunView.of(load(runId), store.events(runId)));
    }

    /** The actions of a run waiting for a decision, in call order. */
    public List<ApprovalRequest> pending(String runId) {
        return load(runId).pendingApprovals();
    }

    /**
     * Approves the pending action with this hash, exactly as shown. The hash is the whole
     * {@link ApprovalRequest#actionHash()}, in either case (see {@link ApprovalState#decide}).
     *
     * @throws ApprovalException when no pending action has that hash, or the value is no hash, saying which
     */
    public RunSnapshot approve(String runId, String actionHash, String decidedBy) {
        requireResumable(runId);
        checkDecidedBy(decidedBy, "approve");
        return decide(runId, actionHash, r -> new ApprovalDecision.Approve(r.actionHash(), decidedBy, clock.instant()));
    }

    /** Rejects the pending action; {@code reason} is given to the model as the call's result. */
    public RunSnapshot reject(String runId, String actionHash, String reason, String decidedBy) {
        requireResumable(runId);
        checkDecidedBy(decidedBy, "reject");
        String masked = reason == null ? null : masker.redact(reason);
        return decide(runId, actionHash, r -> new ApprovalDecision.Reject(r.actionHash(), masked, decidedBy, clock.instant()));
    }

    /**
     * Approves the pending action with other arguments. The approval covers only the edited
     * action; the arguments are validated again (now, when this service knows the tools, and in
     * any case by the executor when the run resumes).
     *
     * @throws ReinException when the arguments are null or do not fit the tool's schema
     */
    public RunSnapshot edit(String runId, String actionHash, JsonNode arguments, String decidedBy) {
        requireResumable(runId);
        checkDecidedBy(decidedBy, "edit");
        if (arguments == null) {
            throw new ReinException("edit(...) was given no arguments: pass the new arguments as a JSON object"
                    + " (Json.parse(\"{...}\")), or approve(...) to run the action as proposed");
        }
        // Hashed as stored: the run compares the call it resumes (masked arguments) with this hash.
        JsonNode masked = masker.redactValue(arguments.deepCopy());
        return decide(runId, actionHash, r -> {
            validate(r.tool(), masked);
            return new ApprovalDecision.Edit(r.actionHash(), masked, ActionHash.of(r.tool(), masked), decidedBy, clock.instant());
        });
    }

    /**
     * Ends a run that is paused (or whose process died) as CANCELLED; its pending actions never run.
     * The run's stored trace ends with the transition, as a run's own end does: a {@code state_change}
     * to CANCELLED (reason {@code cancelled}) and a {@code run_finished} with the cancellation's message.
     * The listeners given to {@link #withListeners} ({@code agent.runs()}: the agent's) are told these
     * two events too, even when the store could not keep them, after the {@code approval_decided} of each
     * decision made on the pause it ends (no resumed run will tell them; the stored trace has them already).
     */
    public RunSnapshot cancel(String runId, String reason) {
        RunStatus[] from = new RunStatus[1];
        // A cancellation lost to a decision saved meanwhile would leave that decision to be carried out.
        RunSnapshot cancelled = saveRetrying(runId, snapshot -> {
            if (snapshot.status().terminal()) {
                throw new ReinException("run " + shown(runId) + " already ended " + snapshot.status() + "; there is nothing to cancel");
            }
            from[0] = snapshot.status();
            return snapshot.withStatus(RunStatus.CANCELLED, Reasons.CANCELLED,
                    reason == null || reason.isBlank() ? "cancelled by a person" : masker.redact(reason), clock.instant());
        });
        traceEnd(cancelled, from[0]);
        return cancelled;
    }

    /**
     * Appends a cancelled run's end to its stored trace; the cancellation is saved, so a failure here is only logged.
     * The listeners are told first of the decisions made on the pause it ended (stored when made): no resumed run
     * will tell them now, so that this is the only time they hear of them. A run cancelled while RUNNING was resumed,
     * and its resumed run told them.
     */
    private void traceEnd(RunSnapshot cancelled, RunStatus from) {
        String runId = cancelled.runId();
        List<TraceEvent> end = List.of(
                new TraceEvent.StateChanged(runId, cancelled.steps(), cancelled.updatedAt(), from, RunStatus.CANCELLED, Reasons.CANCELLED),
                new TraceEvent.RunFinished(runId, cancelled.steps(), cancelled.updatedAt(), RunStatus.CANCELLED, Reasons.CANCELLED,
                        cancelled.message(), cancelled.answer(), cancelled.usage(), cancelled.costUsd()));
        List<TraceEvent> told = new java.util.ArrayList<>();
        if (from == RunStatus.WAITING_APPROVAL) {
            for (TraceEvent.ApprovalDecided decided : DecisionEvents.of(runId, cancelled.steps(), cancelled.approvals(), null)) {
                told.add(masker.redact(decided));
            }
        }
        told.addAll(end);
        try {
            for (TraceEvent event : end) {
                store.appendEvent(runId, event);
            }
        } catch (RuntimeException e) {
            LOG.warn(cancelTraceLost(runId, e));
            LOG.debug("the store's failure to keep the end of cancelled run {}'s trace", shown(runId), e);
        }
        for (RunListenerFactory factory : listeners) {
            tell(LOG, factory, runId, model, told);
        }
    }

    /**
     * Tells one factory's listener for the run of its end. The cancellation is saved, so a listener
     * that fails is only logged, as a run's own listeners are, and the others are still told.
     */
    static void tell(Logger log, RunListenerFactory factory, String runId, Model model, List<TraceEvent> end) {
        RunListener listener;
        try {
            listener = factory.create(runId, model);
        } catch (RuntimeException | Error e) {
            log.warn("run " + shown(runId) + " was cancelled (its status is saved), but the run listener factory "
                    + factory.getClass().getName() + " failed to make its listener: " + ListenerFailures.words(e) + "; its"
                    + " listener was not told of the run's end, so what it writes (a trace file, an export) lacks it; check"
                    + " the factory: where its listener writes (reachable, writable, not full), or its code");
            log.debug("the failure of run listener factory {} on cancelled run {}", factory.getClass().getName(), shown(runId), e);
            return;
        }
        if (listener == null) {
            return; // this factory has no listener for this run
        }
        String run = "cancelled run " + shown(runId);
        try {
            for (TraceEvent event : end) {
                try {
                    listener.onEvent(event);
                } catch (RuntimeException | Error e) {
                    listenerFailed(log, listener, "the " + TraceNames.of(event) + " event", run, ListenerFailures.MISSED_EVENT, e);
                }
            }
        } finally {
            try {
                listener.close();
            } catch (RuntimeException | Error e) {
                listenerFailed(log, listener, null, run, ListenerFailures.MISSED_CLOSE, e);
            }
        }
    }

    /** A listener's failure as one warn line saying what it lost and what to check; the stack trace at debug. */
    private static void listenerFailed(Logger log, RunListener listener, String what, String run, String lost, Throwable e) {
        log.warn(ListenerFailures.line(listener.getClass().getName(), what, run, "the cancellation is saved", lost, e));
        log.debug("the failure of run listener {} on {}", listener.getClass().getName(), run, e);
    }

    private RunSnapshot decide(String runId, String actionHash, java.util.function.Function<ApprovalRequest, ApprovalDecision> decision) {
        // The requests of the pause this decision was made for (set on the first attempt).
        java.util.concurrent.atomic.AtomicReference<List<ApprovalRequest>> pause = new java.util.concurrent.atomic.AtomicReference<>();
        // The decisions of the run as last read: those the saved snapshot has beyond them are this decision's.
        java.util.concurrent.atomic.AtomicReference<java.util.Map<String, ApprovalDecision>> before =
                new java.util.concurrent.atomic.AtomicReference<>();
        RunSnapshot decided = saveRetrying(runId, snapshot -> {
            if (snapshot.status() == RunStatus.RUNNING) {
                // run by a live process, or left so by one that died: the store cannot tell, so name the way on for the second
                throw new ApprovalException("run " + runId + " is RUNNING, not waiting for approval; if the process that ran it"
                        + " has stopped (it crashed or was killed), continue it with agent.resume(\"" + runId + "\")", List.of());
            }
            if (snapshot.status() != RunStatus.WAITING_APPROVAL) {
                throw new ApprovalException("run " + runId + " is " + snapshot.status() + ", not waiting for approval", List.of());
            }
            if (pause.get() == null) {
                pause.set(snapshot.approvals().requests());
            } else if (!pause.get().equals(snapshot.approvals().requests())) {
                // Resumed and paused again meanwhile: the same action pending now is another call, which this person has not seen.
                throw new ApprovalException("run " + runId + " was resumed and paused again while this decision was being saved;"
                        + " it was not applied to the new pause. Pending: " + snapshot.pendingApprovals().stream()
                        .map(r -> r.tool() + " " + r.actionHash()).toList(), snapshot.pendingApprovals());
            }
            before.set(snapshot.approvals().decisions());
            return snapshot.withApprovals(snapshot.approvals().decide(runId, actionHash, decision), clock.instant());
        });
        traceDecision(decided, before.get());
        return decided;
    }

    /**
     * Appends the decision to the run's stored trace now, so it is there even if the run never
     * resumes (cancelled); the resumed run tells only its other listeners. The decision is saved, so
     * a failure here is only logged.
     */
    private void traceDecision(RunSnapshot decided, java.util.Map<String, ApprovalDecision> before) {
        String runId = decided.runId();
        try {
            for (TraceEvent.ApprovalDecided event : DecisionEvents.of(runId, decided.steps(), decided.approvals(), before)) {
                store.appendEvent(runId, masker.redact(event));
            }
        } catch (RuntimeException e) {
            LOG.warn(decisionTraceLost(runId, e));
            LOG.debug("the store's failure to keep the approval_decided event of run {}", shown(runId), e);
        }
    }

    /**
     * Saves {@code change} of the run as stored. When the save finds the run changed since it was
     * loaded (most likely another person's decision on another call of the step), the change is made
     * again on the run as it now is, so both are kept; {@code change} refuses what no longer applies.
     */
    private RunSnapshot saveRetrying(String runId, java.util.function.UnaryOperator<RunSnapshot> change) {
        for (int attempt = 1; ; attempt++) {
            RunSnapshot next = change.apply(load(runId));
            try {
                store.save(next);
                return next;
            } catch (StoreConflictException e) {
                if (attempt == DECIDE_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private void validate(String toolName, JsonNode arguments) {
        if (tools != null) {
            checkEditedArguments(tools, toolName, arguments);
        }
    }

    /**
     * Checks a person's edited arguments against the schema of tool {@code toolName} among
     * {@code tools}, as {@link #edit} does; for runs decided elsewhere (a durable engine's handle).
     *
     * @throws ReinException when the tool is not among {@code tools} or the arguments do not fit its schema
     */
    public static void checkEditedArguments(ToolRegistry tools, String toolName, JsonNode arguments) {
        Optional<Tool> tool = tools.find(toolName);
        if (tool.isEmpty()) {
            throw new ReinException("tool '" + toolName + "' is not among this agent's tools; cannot check the edited arguments");
        }
        List<String> problems = tool.get().validationProblems(arguments);
        if (!problems.isEmpty()) {
            throw new ReinException("the edited arguments do not fit tool '" + toolName + "': " + String.join("; ", problems));
        }
    }

    /**
     * Refuses a decision without the name of who made it (null or blank), which the run's record
     * and trace would otherwise show as made "by null"; for runs decided elsewhere too (a durable
     * engine's handle).
     *
     * @param method the method the name was given to ("approve", "reject" or "edit"), named in the message
     * @throws ReinException when {@code decidedBy} is null or blank
     */
    public static void checkDecidedBy(String decidedBy, String method) {
        if (decidedBy == null || decidedBy.isBlank()) {
            throw new ReinException(method + "(...) was given no decidedBy (" + (decidedBy == null ? "null" : "blank")
                    + "): pass the name of the person deciding (\"alice\"); it is recorded with the decision");
        }
    }

    private RunSnapshot load(String runId) {
        requireRunId(runId);
        return store.load(runId).orElseThrow(() -> new ReinException(
                dev.rein.internal.text.MissingRun.message(store instanceof InMemoryRunStore, shown(runId), "the store", "Runs.list()")));
    }

    /**
     * A null id would reach the store, which may throw anything for it (a bare NullPointerException in memory). An id
     * with a control character is looked up: no run of this version has one, but an older version saved runs under
     * such ids, which list() gives, and those are read and cancelled here (decisions: {@link #requireResumable}).
     */
    private static void requireRunId(String runId) {
        if (runId == null) {
            throw new ReinException("Runs was given no run id (null): pass the id of a run, as RunResult.runId() or"
                    + " Runs.list() gives it");
        }
        String problem = dev.rein.internal.text.RunIds.unstorable(runId);
        if (problem != null) {
            // refused, not looked up: a database store would look up the id with '?' in its place, another run's
            throw new ReinException("Runs was given run id '" + shown(runId)
                    + "', which no run has: " + problem + "; pass the id as RunResult.runId() or Runs.list() gives it");
        }
    }

    /**
     * A decision is carried out by resuming the run, which no run under an id with a control character can be (such
     * an id is refused as a run's: a log line quoting it would carry it as it is): refused before it is stored, saying
     * how to end such a run instead.
     */
    private static void requireResumable(String runId) {
        requireRunId(runId);
        String problem = dev.rein.internal.text.RunIds.problem(runId);
        if (problem != null) {
            throw new ReinException("run '" + shown(runId) + "' cannot be resumed, so no decision on it can be carried out: "
                    + problem + " (an older Rein saved runs under such ids); read it with Runs.find or Runs.show and end it"
                    + " with Runs.cancel");
        }
    }

    /** The log line for a cancelled run whose trace's end the store could not keep. */
    static String cancelTraceLost(String runId, RuntimeException e) {
        return "run " + shown(runId) + " was cancelled (its status is saved), but the store could not keep the end of its"
                + " trace (state_change and run_finished): " + StoreFailures.why(e) + "; the run's trace in the store lacks"
                + " them, so rein show and Runs.show show no ending; " + StoreFailures.WHAT_TO_DO;
    }

    /** The log line for a saved decision whose approval_decided trace event the store could not keep. */
    static String decisionTraceLost(String runId, RuntimeException e) {
        return "the decision on run " + shown(runId) + " was saved and applies, but the store could not keep its approval_decided"
                + " trace event: " + StoreFailures.why(e) + "; the run's trace in the store lacks it; " + StoreFailures.WHAT_TO_DO;
    }

    /** {@code runId} as a message or log line quotes it: control characters as escapes. */
    private static String shown(String runId) {
        return dev.rein.internal.text.RunIds.shown(runId);
    }
}
