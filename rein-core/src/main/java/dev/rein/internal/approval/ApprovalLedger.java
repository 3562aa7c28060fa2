package dev.rein.internal.approval;

import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolResult;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The live approval state of one run, shared by the calls of a step that run in parallel.
 * Thread-safe. {@link #snapshot()} is what gets stored.
 */
public final class ApprovalLedger {
    private final Map<String, ApprovalRequest> requests = new LinkedHashMap<>();
    private final Map<String, ApprovalDecision> decisions = new HashMap<>();
    private final Map<String, ToolResult> completed = new HashMap<>();

    public ApprovalLedger(ApprovalState state) {
        state.requests().forEach(r -> requests.put(r.callId(), r));
        decisions.putAll(state.decisions());
        completed.putAll(state.completed());
    }

    synchronized Optional<ApprovalDecision> decisionFor(String callId) {
        return Optional.ofNullable(decisions.get(callId));
    }

    /** Asks for a decision on a call, replacing any earlier request and decision for it. */
    synchronized void request(ApprovalRequest request) {
        requests.put(request.callId(), request);
        decisions.remove(request.callId());
    }

    /** The arguments a call runs with: a person's edit replaces the model's proposal. */
    public synchronized ToolCall applyEdit(ToolCall call) {
        if (decisions.get(call.id()) instanceof ApprovalDecision.Edit edit) {
            return new ToolCall(call.id(), call.name(), edit.arguments(), call.index());
        }
        return call;
    }

    /** The edited arguments of a call, if a person edited it. */
    public synchronized Optional<JsonNode> editedArguments(String callId) {
        return decisions.get(callId) instanceof ApprovalDecision.Edit edit ? Optional.of(edit.arguments()) : Optional.empty();
    }

    /** Results of this step's calls that already ran before the pause, by call id. */
    public synchronized Map<String, ToolResult> completed() {
        return Map.copyOf(completed);
    }

    /** Keeps results of calls that ran while others wait for approval. */
    public synchronized void stash(Collection<ToolResult> results) {
        results.forEach(r -> completed.put(r.callId(), r));
    }

    /** The step is answered: forget its requests, decisions and results. */
    public synchronized void clear() {
        requests.clear();
        decisions.clear();
        completed.clear();
    }

    public synchronized ApprovalState snapshot() {
        if (requests.isEmpty() && decisions.isEmpty() && completed.isEmpty()) {
            return ApprovalState.NONE; // the common case, taken at every checkpoint
        }
        return new ApprovalState(requests.values().stream().toList(), decisions, completed);
    }
}
