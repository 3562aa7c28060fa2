package dev.rein.state;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import java.util.List;
import java.util.Optional;

/**
 * One run as {@code rein show} presents it: its summary and final words, the agent state, the
 * actions waiting for a decision, the handoff (when a person must take over) and a one-line-per-event
 * trace summary.
 */
public record RunView(RunSummary summary, String message, String answer, AgentState state,
                      List<ApprovalRequest> pendingApprovals, Optional<Handoff> handoff, List<String> trace) {
    static RunView of(RunSnapshot s, List<StoredEvent> events) {
        Optional<Handoff> handoff = Optional.empty();
        boolean needsPerson = s.status() == RunStatus.FAILED || s.status() == RunStatus.STOPPED_BUDGET
                || s.status() == RunStatus.CANCELLED;
        if (needsPerson && s.state() != null) {
            String question = Reasons.NEEDS_USER_INPUT.equals(s.reason()) ? s.answer() : "";
            handoff = Optional.of(Handoff.of(s.reason(), question, s.finish() != null ? s.finish().summary() : s.message(), s.state()));
        }
        return new RunView(s.summary(), s.message(), s.answer(), s.state(), s.pendingApprovals(), handoff,
                TraceSummary.lines(events));
    }

    /** A plain-text rendering for terminals. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("Run ").append(summary.runId()).append("  ").append(summary.status());
        if (!summary.reason().isBlank()) {
            sb.append(" (").append(summary.reason()).append(')');
        }
        sb.append("\n  Goal: ").append(summary.goal())
                .append("\n  Steps: ").append(summary.steps()).append("   Cost: USD ").append(summary.costUsd().toPlainString())
                .append("   Model: ").append(summary.model()).append('\n');
        if (!message.isBlank()) {
            sb.append("  Message: ").append(message).append('\n');
        }
        if (!answer.isBlank()) {
            sb.append("  Answer: ").append(answer).append('\n');
        }
        if (!pendingApprovals.isEmpty()) {
            sb.append("  Waiting for approval:\n");
            for (ApprovalRequest r : pendingApprovals) {
                sb.append("    - ").append(r.tool()).append(" [").append(r.risk()).append("] action ").append(r.actionHash()).append('\n')
                        .append("      arguments: ").append(Json.write(r.arguments())).append('\n');
            }
        }
        handoff.ifPresent(h -> sb.append(h.describe().indent(2)));
        if (handoff.isEmpty() && state != null) {
            sb.append("  Facts: ").append(state.facts().size()).append("   Attempted actions: ")
                    .append(state.attemptedActions().size()).append('\n');
        }
        if (!trace.isEmpty()) {
            sb.append("  Trace:\n");
            trace.forEach(line -> sb.append("    ").append(line).append('\n'));
        }
        return sb.toString();
    }
}
