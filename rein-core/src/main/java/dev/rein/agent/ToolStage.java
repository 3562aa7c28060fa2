package dev.rein.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.approval.ApprovalRequest;
import dev.rein.internal.replay.RecordedAnswers;
import dev.rein.internal.secret.MaskedText;
import dev.rein.internal.text.DeadlineRefusal;
import dev.rein.internal.text.Fence;
import dev.rein.json.Json;
import dev.rein.model.ToolResultBlock;
import dev.rein.security.UntrustedData;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The act stage: hands the proposed calls to the executor, traces and audits each result, and
 * records it in the agent state.
 *
 * <p>When some calls of a response need approval, the others run first (reads before the pause,
 * so the person decides with their results already recorded) and their results are kept; the run
 * pauses. On resume the decided calls run (or get their rejection), and every call of the response
 * gets exactly one result, in call order.
 */
final class ToolStage {
    private final Run run;
    /** Arguments a person edited in the step being answered, by call id. */
    private final Map<String, JsonNode> edits = new HashMap<>();
    /** A replay's recorded answers, which may word a refusal as the recording did; null outside a replay. */
    private final RecordedAnswers recorded;

    ToolStage(Run run) {
        this.run = run;
        this.recorded = RunTools.recordedAnswers(run.config);
    }

    /** What a batch of calls came to: a result for every call, or a pause for the deferred ones. */
    sealed interface Batch {
        /** Every call has its result, in call order. */
        record Results(List<ToolResult> results) implements Batch {}

        /** These calls wait for a person; the others' results are kept until the run resumes. */
        record Paused(List<ToolOutcome.Deferred> deferred) implements Batch {}
    }

    /** Runs {@code calls}: their results in call order, or a pause when some wait for approval. */
    Batch execute(List<ToolCall> calls) throws InterruptedException {
        int step = run.step();
        List<ToolCall> toRun = prepare(calls);
        // Kept by call position, for a cancel in the middle and, in a replay, as the recording worded them (an array: no
        // map per step for the rare case).
        AtomicReferenceArray<ToolResult> ended = new AtomicReferenceArray<>(toRun.size());
        // Results are traced as they arrive (each names its call); the state learns them in call order.
        List<ToolOutcome> fresh;
        try {
            fresh = toRun.isEmpty() ? List.of() : run.executor.runAll(toRun, call -> context(step, call), answered -> {
                ToolOutcome o = asRecorded(step, answered);
                if (o instanceof ToolOutcome.Done d) {
                    traceResult(step, d.result());
                    ended.set(positionOf(toRun, d.callId()), d.result());
                }
            });
        } catch (InterruptedException e) {
            keepEndedBeforeTheCancel(step, toRun, ended);
            throw e;
        }
        if (recorded != null) {
            // each result as the callback traced it (the replay asked once, there), not asked again
            List<ToolOutcome> handed = new ArrayList<>(fresh.size());
            for (int i = 0; i < fresh.size(); i++) {
                ToolResult traced = ended.get(i);
                handed.add(fresh.get(i) instanceof ToolOutcome.Done && traced != null ? ToolOutcome.of(traced) : fresh.get(i));
            }
            fresh = handed;
        }
        return collect(calls, toRun, fresh);
    }

    /** {@code outcome} as a replay hands it on ({@link RecordedAnswers#answered}); as it is outside a replay. */
    private ToolOutcome asRecorded(int step, ToolOutcome outcome) {
        return recorded == null ? outcome : recorded.answered(step, outcome);
    }

    /**
     * A cancel came while the step's calls ran: the results of those that ended before it are kept with
     * the run's stored approvals (as a pause keeps them), and the state learns them, so a reply to the
     * cancelled run answers each such call with its own result, not as cut off. The history is left as it was.
     */
    private void keepEndedBeforeTheCancel(int step, List<ToolCall> toRun, AtomicReferenceArray<ToolResult> ended) {
        List<ToolResult> kept = new ArrayList<>(toRun.size());
        for (int i = 0; i < toRun.size(); i++) {
            ToolResult result = ended.get(i);
            if (result != null) {
                run.observed(step, toRun.get(i).arguments(), result);
                kept.add(result);
            }
        }
        run.approvals.stash(kept);
    }

    /** Where the call {@code callId} is in {@code calls} (a step has a few calls at most). */
    private static int positionOf(List<ToolCall> calls, String callId) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).id().equals(callId)) {
                return i;
            }
        }
        throw new IllegalStateException("the executor reported a call it was not given: " + callId);
    }

    /**
     * The calls of {@code calls} still to run, with a person's edits applied: a call that already
     * ran before a pause keeps its result.
     */
    List<ToolCall> prepare(List<ToolCall> calls) {
        Map<String, ToolResult> done = run.approvals.completed();
        List<ToolCall> toRun = new ArrayList<>(calls.size());
        for (ToolCall call : calls) {
            if (!done.containsKey(call.id())) {
                ToolCall effective = run.approvals.applyEdit(call);
                Optional<JsonNode> edited = run.approvals.editedArguments(call.id());
                if (edited.isPresent()) {
                    edits.put(call.id(), edited.get());
                }
                toRun.add(effective);
            }
        }
        return toRun;
    }

    /** One prepared call through the executor on its own (an engine runs each call as its own task); its result traced. */
    ToolOutcome runOne(ToolCall call) throws InterruptedException {
        int step = run.step();
        ToolOutcome outcome = asRecorded(step, run.executor.run(call, context(step, call)));
        if (outcome instanceof ToolOutcome.Done d) {
            traceResult(step, d.result());
        }
        return outcome;
    }

    /**
     * The outcomes of the prepared calls ({@code toRun}, in order) recorded in the state: the
     * results of all {@code calls} in call order, or a pause when some wait for approval.
     */
    Batch collect(List<ToolCall> calls, List<ToolCall> toRun, List<ToolOutcome> fresh) {
        int step = run.step();
        Map<String, ToolResult> completed = run.approvals.completed();
        if (completed.isEmpty() && doneInCallOrder(calls, fresh)) {
            // The usual step: every call ran now and none waits; the results are the outcomes' in call order.
            ToolResult[] results = new ToolResult[fresh.size()];
            for (int i = 0; i < results.length; i++) {
                results[i] = ((ToolOutcome.Done) fresh.get(i)).result();
                run.observed(step, toRun.get(i).arguments(), results[i]);
            }
            run.approvals.clear();
            return new Batch.Results(List.of(results));
        }
        Map<String, ToolResult> done = new LinkedHashMap<>(completed);
        List<ToolOutcome.Deferred> deferred = new ArrayList<>();
        for (int i = 0; i < fresh.size(); i++) {
            switch (fresh.get(i)) {
                case ToolOutcome.Done d -> {
                    run.observed(step, toRun.get(i).arguments(), d.result());
                    done.put(d.callId(), d.result());
                }
                case ToolOutcome.Deferred d -> deferred.add(d);
            }
        }
        if (!deferred.isEmpty()) {
            run.approvals.stash(done.values());
            for (ApprovalRequest request : run.approvals.snapshot().undecided()) {
                run.emit(new TraceEvent.ApprovalRequested(run.runId, step, run.now(), request.callId(), request.tool(),
                        request.risk().name(), request.arguments(), request.actionHash()));
            }
            return new Batch.Paused(deferred);
        }
        run.approvals.clear();
        // By position, not by id: a model may give two calls of one response the same id, and each
        // still gets its own result (prepare kept the calls without a result, in call order)
        List<ToolResult> results = new ArrayList<>(calls.size());
        int next = 0;
        for (ToolCall call : calls) {
            results.add(completed.containsKey(call.id()) ? completed.get(call.id())
                    : ((ToolOutcome.Done) fresh.get(next++)).result());
        }
        return new Batch.Results(results);
    }

    /** Whether every call has its result, at the call's own position. */
    private static boolean doneInCallOrder(List<ToolCall> calls, List<ToolOutcome> outcomes) {
        if (outcomes.size() != calls.size()) {
            return false;
        }
        for (int i = 0; i < outcomes.size(); i++) {
            if (!(outcomes.get(i) instanceof ToolOutcome.Done) || !outcomes.get(i).callId().equals(calls.get(i).id())) {
                return false;
            }
        }
        return true;
    }

    /** Whether the executor runs {@code call} after the reads, one at a time (WRITE and IRREVERSIBLE tools). */
    boolean sideEffecting(ToolCall call) {
        return run.executor.sideEffecting(call);
    }

    /**
     * As {@link #block}, for a result kept with the run's approvals when a cancel cut its step short (a reply answers
     * the cancelled run's calls with it): a person's edit of the call is noted, as when the step went on.
     */
    ToolResultBlock keptBlock(ToolResult r) {
        run.approvals.editedArguments(r.callId()).ifPresent(edited -> edits.put(r.callId(), edited));
        return block(r);
    }

    /** A result as the model sees it: tool output wrapped as untrusted data, a person's edit noted, secrets masked. */
    ToolResultBlock block(ToolResult r) {
        // The loop's own finish tool answers only with Rein's fixed refusal, which is not data from outside.
        boolean reinsOwn = run.config.finishTool() && FinishTool.NAME.equals(r.toolName());
        String content = r.fromTool() && run.config.safety().wrapToolOutput() && !reinsOwn
                ? UntrustedData.wrap(r.content(), r.source(), r.toolName()) : r.content();
        JsonNode edited = edits.remove(r.callId());
        String unmasked = content;
        if (edited != null) {
            // The note must not claim the edited call ran when Rein refused it (say, edited arguments that do not fit).
            // The arguments are the person's text (perhaps pasted from a page): fenced as data, masked before the
            // fence's cut at 500 characters could leave part of a secret that the masking below no longer knows.
            String arguments = Json.write(edited);
            unmasked = arguments + "\n" + content;
            String quoted = Fence.quoted(run.redactor.redact(arguments), "edited arguments");
            content = (ranNot(r) ? "[rein] A person edited the arguments of this call to those quoted here; with them it was"
                    + " not run:\n" : "[rein] A person edited the arguments of this call before it ran; it ran with the arguments"
                    + " quoted here:\n") + quoted + "\n" + content;
        }
        // The executor's masking stage sees only what a handler returned; a person's edited arguments
        // in the note above, or the refusal of an interceptor above that stage, may hold a secret too.
        // This is the last text before the model reads it, so every known value is masked here.
        String masked = run.redactor.redact(content);
        // (with an edit, the note's arguments were masked before they were fenced: whether they held a secret is asked of
        // them as the person gave them)
        boolean secretFound = edited == null ? !masked.equals(content) : !run.redactor.redact(unmasked).equals(unmasked);
        if (secretFound) {
            // the masking stage audited (and masked) what a handler returned: a secret found here came from elsewhere,
            // and docs/safety.md promises an audit event for every masked result
            RunTools.audit(run, "secret_masked", r.toolName(), r.callId(),
                    MaskedText.audited("the result of tool '" + r.toolName() + "'", RunTools.secretsIn(run, unmasked)));
        }
        return new ToolResultBlock(r.callId(), masked, r.isError());
    }

    /** Whether Rein stopped the call before its handler ran (a refusal, a guard's intervention, a passed deadline). */
    private static boolean ranNot(ToolResult r) {
        return switch (r.errorClass()) {
            case UNKNOWN_TOOL, INVALID_ARGUMENTS, PERMISSION_DENIED, LIMIT_REACHED, REJECTED, INTERVENTION -> true;
            case TIMEOUT -> DeadlineRefusal.isNotCalled(r.content());
            default -> false;
        };
    }

    private void traceResult(int step, ToolResult r) {
        // before the result, which ends the call: a listener that keeps a call open until its result (an OpenTelemetry
        // span) records the refusal on that call, as it does the call's other audit facts
        if (r.refused()) {
            RunTools.audit(run, "refused", r.toolName(), r.callId(), r.errorClass().name() + ": " + firstLine(r.content()));
        }
        run.emit(new TraceEvent.ToolCompleted(run.runId, step, run.now(), r.callId(), r.toolName(), r.content(),
                r.isError(), r.errorClass().name(), r.source(), r.duration().toMillis(), !r.fromTool(), risk(r.toolName()),
                r.userContent()));
    }

    /** The tool's risk for the trace, known also for a call refused at validation; null for an unknown tool. */
    private String risk(String toolName) {
        return run.tools().find(toolName).map(tool -> tool.risk().name()).orElse(null);
    }

    private ToolContext context(int step, ToolCall call) {
        return new ToolContext(run.runId, step, call.id(), idempotencyKey(run.runId, step, call.index()),
                run.meter.deadline(), run.principal, run.secrets, run.config.clock());
    }

    /** Stable across retries and resumes of the same call: derived only from its position in the run. */
    static String idempotencyKey(String runId, int step, int index) {
        return runId + ":" + step + ":" + index;
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        String line = nl < 0 ? text : text.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
