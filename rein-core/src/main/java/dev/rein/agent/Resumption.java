package dev.rein.agent;

import dev.rein.ConfigurationException;
import dev.rein.ReinException;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalRequest;
import dev.rein.internal.text.MissingRun;
import dev.rein.internal.text.RunIds;
import dev.rein.internal.trace.DecisionEvents;
import dev.rein.model.OutputSchema;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.StoreConflictException;
import dev.rein.state.StoreException;
import dev.rein.state.StoredOutputSchema;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The loop's edges with the store: announcing a resumed run, and saving a pause or an end. */
final class Resumption {
    private Resumption() {}

    /**
     * Loads a stored run for resuming and claims it: the first save of the resumed run makes any
     * other process that still holds it fail at its next checkpoint.
     */
    static Run claim(AgentConfig config, String runId) {
        requireRunId(runId, "resume");
        RunSnapshot snapshot = config.safety().store().load(runId).orElseThrow(() -> new ReinException(
                MissingRun.message(
                        config.safety().store() instanceof InMemoryRunStore, runId, "this agent's store", "agent.runs().list()")));
        if (snapshot.status().terminal()) {
            String reply = Replies.replyable(snapshot)
                    ? ". To continue it with a person's answer or a follow-up, use agent.reply(runId, text)" : "";
            throw new ReinException("run " + runId + " already ended " + snapshot.status() + " (" + snapshot.reason()
                    + "); only a paused or interrupted run can be resumed" + reply);
        }
        if (!snapshot.pendingApprovals().isEmpty()) {
            throw new ApprovalException("run " + runId + " still waits for a decision on "
                    + snapshot.pendingApprovals().stream().map(r -> r.tool() + " " + r.actionHash()).toList()
                    + "; decide each first (Runs.approve, reject or edit; on the command line: rein approve)", snapshot.pendingApprovals());
        }
        Run run;
        try {
            run = Run.resume(snapshot, config);
        } catch (SchemaRefusal refused) {
            // the decisions were stored and traced when made (Runs); the refusal says they wait for the right agent (another
            // ConfigurationException, an application's own, is passed on as it was: it is not about the run's schema)
            throw notApplied(refused, snapshot, "they are kept, and apply when such an agent resumes the run");
        }
        run.checkpoint();
        return run;
    }

    /**
     * {@code refused} saying that the decisions taken on the run's pause were not applied (and on which tools), and
     * {@code then} what becomes of them; {@code refused} itself when none were taken. A refused resume must not drop a
     * person's decision unsaid. The note keeps the refusal's kind, which decides the run's reason on an engine: a
     * {@link ConfigurationException} stays one, another {@link ReinException} (the application's words) stays one, and
     * anything else (a bug) becomes a ReinException saying "internal error" as a driver says it, its cause kept.
     */
    static RuntimeException notApplied(RuntimeException refused, RunSnapshot snapshot, String then) {
        List<String> decided = DecisionEvents.of(snapshot.runId(), snapshot.steps(), snapshot.approvals(), null).stream()
                .map(TraceEvent.ApprovalDecided::tool).toList();
        if (decided.isEmpty()) {
            return refused;
        }
        String note = "The decisions taken on its pause (" + String.join(", ", decided) + ") were not applied: " + then;
        RuntimeException said;
        if (refused instanceof ConfigurationException) {
            said = new ConfigurationException(sentences(refused.getMessage(), note));
        } else if (refused instanceof ReinException) {
            said = new ReinException(sentences(refused.getMessage(), note));
        } else {
            said = new ReinException(sentences("internal error: " + refused, note));
        }
        said.initCause(refused);
        return said;
    }

    /**
     * {@code first} and then {@code next}, as one sentence follows another: a full stop between them unless {@code first}
     * ends a sentence itself ({@code .}, {@code !}, {@code ?}, {@code …}, also in their full-width forms), also inside
     * closing quotes or brackets ({@code "stop."}, {@code (see docs.)}, {@code 「…。」}), so that an application's message
     * ending in "." does not read "..". A blank {@code first} (an exception without a message) leaves {@code next} alone.
     */
    static String sentences(String first, String next) {
        String ended = first == null ? "" : first.stripTrailing();
        if (ended.isEmpty()) {
            return next;
        }
        int end = ended.length();
        while (end > 0 && CLOSERS.indexOf(ended.charAt(end - 1)) >= 0) {
            end--; // the sentence may end inside the quote or bracket that closes the message
        }
        boolean closed = end > 0 && ".!?\u2026\u3002\uFF01\uFF1F\uFF0E".indexOf(ended.charAt(end - 1)) >= 0;
        return ended + (closed ? " " : ". ") + next;
    }

    /** Closing quotes and brackets, which may follow a sentence's end: ASCII, typographic and CJK forms. */
    private static final String CLOSERS = "\"')]}\u2019\u201D\u00BB\u203A\u300D\u300F\u3011\u3009\u300B\uFF09\uFF3D\uFF5D";

    /**
     * The refusal of an agent whose output schema is not the run's ({@link #typedAs}): the one refusal of a resume that
     * leaves the decisions taken on the pause waiting for another agent, so the only one {@link #claim} (Agent.resume,
     * locally) says {@link #notApplied} of; on an engine ({@code DrivenRun.resumed}) any refusal ends the run and says
     * so. A {@link ConfigurationException} as any other to the caller.
     */
    static final class SchemaRefusal extends ConfigurationException {
        SchemaRefusal(String message) {
            super(message);
        }
    }

    /** How a stored run is continued, which decides what a schema's refusal advises. */
    enum Continuation {
        /** Agent.resume: refused, the run stays as it is, to be resumed by the right agent. */
        RESUME,
        /** Agent.reply: a new turn, which an agent with its own schema types anew. */
        REPLY,
        /** A driven run's activity (a Temporal worker): refused, the engine ends the run FAILED configuration_error. */
        DRIVEN
    }

    /**
     * The agent to continue {@code snapshot} with, as to the shape of its answer ({@link Run#resume} and
     * {@link Run#reply} ask it, so every path does, the local one and a driven one alike). A run stored without a
     * schema (untyped, or saved by a Rein that did not keep it) continues with the agent's, as before.
     *
     * <p>A resume continues the turn that was asked in the stored shape: an agent with no schema takes the run's (its
     * JSON: answers are checked against it as the first run checked them, and the model is told it again); an agent
     * with the same schema (the same JSON, whatever its name) keeps its own, which also checks that an answer reads as
     * the type it was generated from. An agent with another schema is refused before anything of the run changes: a
     * caller reading the answer as the old type would fail only at the end.
     *
     * <p>A reply asks a new question, which may want another shape: an agent with a schema of its own types the new
     * turn with it (and it replaces the run's); an agent with none keeps the run's.
     *
     * @throws ConfigurationException when the agent has another schema than the run's (a resume: a driven
     *                       run's activity ends the run FAILED configuration_error)
     * @throws ReinException when the stored schema cannot be
     *                       used by this Rein (the run can still be shown and cancelled)
     */
    static AgentConfig typedAs(AgentConfig config, RunSnapshot snapshot, Continuation way) {
        StoredOutputSchema stored = snapshot.outputSchema();
        Optional<OutputSchema> own = config.outputSchema();
        if (stored == null || own.isPresent() && (way == Continuation.REPLY || stored.sameSchemaAs(own.get()))) {
            return config;
        }
        if (own.isPresent()) {
            throw refusal(snapshot, stored.name() == null ? "output" : stored.name(), own.get().name(), way);
        }
        OutputSchema schema;
        try {
            schema = stored.outputSchema();
        } catch (ReinException e) {
            throw new ReinException("run " + snapshot.runId() + " cannot continue: " + e.getMessage() + ". The run is"
                    + " unchanged and can still be shown and cancelled (Runs.show, Runs.cancel; rein show, rein cancel)", e);
        }
        return config.toBuilder().outputSchema(schema).build().config();
    }

    /** An agent whose schema {@code own} is not the run's {@code name}, refused: what to do, the way the run continues. */
    private static SchemaRefusal refusal(RunSnapshot snapshot, String name, String own, Continuation way) {
        String other = own.equals(name) ? "another schema named '" + name + "'" : "the output schema '" + own + "'";
        // a reply's turn may have another schema than the first turn's (an agent with its own replaced it): the
        // schema named is the run's now, not said to be the one it was started with
        boolean replied = snapshot.conversation().turn() > 1;
        String refused = "run " + snapshot.runId() + (replied ? " has the output schema '" + name + "' (that of its current"
                + " turn, which a reply opened)" : " was started with the output schema '" + name + "'") + ", and this agent"
                + " asks for " + other + ": the run's answer keeps the shape "
                + (replied ? "its turn was asked in" : "the run was started with") + ". ";
        if (way == Continuation.DRIVEN) {
            // the engine ends the run for this refusal, and Agent.resume refuses an ended run: the local advice cannot
            // be followed there
            return new SchemaRefusal(refused + "This ends the run (FAILED configuration_error), and an ended run"
                    + " cannot be continued: start it again as a new run on a task queue whose workers' agent has the output"
                    + " schema '" + name + "' or none (the run's own is then used), and give an agent with another schema a"
                    + " task queue of its own");
        }
        return new SchemaRefusal(refused + "Continue it with an agent built with the same schema ("
                + (name.matches("\\p{Lu}[\\p{L}\\p{N}_$]*")
                ? "for a schema of a Java type, e.g. agent.config().toBuilder().outputType(" + name
                + ".class).build().resume(\"" + snapshot.runId() + "\")"
                : "agent.config().toBuilder().outputSchema(...) with it") + ") or with an agent built with no output"
                + " schema (the run's own is then used)");
    }

    /** A run id given to resume or reply: null is a programmer error, said as one (the store would throw NullPointerException). */
    static void requireRunId(String runId, String method) {
        if (runId == null) {
            throw new ReinException(method + "(...) was given no run id: pass the id of a stored run (RunResult.runId(), or one"
                    + " of agent.runs().list())");
        }
        String problem = RunIds.problem(runId);
        if (problem != null) {
            // refused, not looked up: a database store would look up the id with '?' in its place, another run's
            // agent.runs().list() does give such an id of a run an older Rein saved: say what can be done with that run
            String older = RunIds.unstorable(runId) != null ? ""
                    : " (a run an older Rein saved under such an id cannot be continued: read it with agent.runs().show and end"
                    + " it with agent.runs().cancel)";
            throw new ReinException(method + "(...) was given run id '" + RunIds.shown(runId)
                    + "', which no run has: " + problem + "; pass the id as RunResult.runId() or agent.runs().list() gives it"
                    + older);
        }
    }

    /**
     * Traces the resume, and the decisions people made while the run was paused. Those made through
     * {@code Runs} ({@code storedDecisions}: a run resumed from its store) are in the stored trace
     * since they were made, so only the other listeners are told of them here; a durable engine's
     * decisions (signals) are traced here only.
     */
    static void announce(Run run, boolean storedDecisions) {
        long active = Duration.between(run.startedAt, run.now()).toMillis();
        run.emit(new TraceEvent.RunResumed(run.runId, run.step(), run.now(), run.resumedFrom, active, run.config.modelName(),
                AgentLoop.limits(run)));
        run.emit(new TraceEvent.StateChanged(run.runId, run.step(), run.now(), run.resumedFrom, RunStatus.RUNNING, Reasons.RESUMED));
        for (TraceEvent.ApprovalDecided decided : DecisionEvents.of(run.runId, run.step(), run.approvals.snapshot(), null)) {
            if (storedDecisions) {
                run.emitUnstored(decided);
            } else {
                run.emit(decided);
            }
        }
    }

    static String waitingMessage(Run run) {
        List<ApprovalRequest> pending = run.approvals.snapshot().undecided();
        return "waiting for a person to decide on " + pending.stream()
                .map(r -> r.tool() + " (action " + ActionHash.shortForm(r.actionHash()) + ")")
                .collect(Collectors.joining(", "))
                + "; approve, reject or edit it, then resume run " + run.runId;
    }

    /**
     * Saves the run with its result. A pause that cannot be saved is no pause (nothing could
     * resume it), so it becomes a failure; a terminal result keeps its status and says what was lost.
     */
    static RunResult saveFinal(Run run, RunResult result) {
        try {
            run.checkpoint(result);
            return result;
        } catch (RuntimeException e) {
            if (e instanceof StoreConflictException && Reasons.STORE_CONFLICT.equals(result.reason())) {
                return result; // lost to another holder of the run already, as the message says: its end is not saved either
            }
            // Any failure, not only the store's own: the run must end with this result either way.
            String cause = e instanceof StoreException ? e.getMessage() : e.toString();
            String lost = " (the run's final state could not be saved: " + cause + ")";
            RunStatus status = result.status() == RunStatus.WAITING_APPROVAL ? RunStatus.FAILED : result.status();
            String reason = status == result.status() ? result.reason() : Reasons.STORE_ERROR;
            run.moveTo(status);
            return result.endedAs(status, reason, result.message() + lost);
        }
    }
}
