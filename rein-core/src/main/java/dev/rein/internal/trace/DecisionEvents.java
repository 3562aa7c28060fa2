package dev.rein.internal.trace;

import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code approval_decided} events of a run's decisions: written when made (Runs) and told to a resumed run's listeners. */
public final class DecisionEvents {
    private DecisionEvents() {}

    /** One event per decided request of {@code approvals} whose call has no decision in {@code before} (null: all of them). */
    public static List<TraceEvent.ApprovalDecided> of(String runId, int step, ApprovalState approvals,
                                                      Map<String, ApprovalDecision> before) {
        List<TraceEvent.ApprovalDecided> events = new ArrayList<>();
        for (ApprovalRequest request : approvals.requests()) {
            ApprovalDecision d = approvals.decisions().get(request.callId());
            if (d != null && (before == null || !before.containsKey(request.callId()))) {
                events.add(new TraceEvent.ApprovalDecided(runId, step, d.decidedAt(), request.callId(), request.tool(),
                        d.actionHash(), d.name(), d instanceof ApprovalDecision.Reject r ? r.reason() : null,
                        d instanceof ApprovalDecision.Edit e ? e.arguments() : null, d.approvedHash(), d.decidedBy()));
            }
        }
        return events;
    }
}
