package dev.rein.state;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalRequest;
import dev.rein.internal.text.Controls;
import dev.rein.json.Json;
import java.util.List;
import java.util.Optional;

/**
 * One run as {@code rein show} presents it: its summary and final words, the agent state, the
 * actions waiting for a decision, the decisions made but not yet carried out, the handoff (when a
 * person must take over) and a one-line-per-event trace summary.
 *
 * @param decided the paused step's actions a person has decided on, in call order: they are carried
 *                out when the run resumes (empty unless the run waits for approval)
 * @param replies the person's replies that opened the run's later turns, oldest first (empty for a
 *                run in its first turn)
 */
public record RunView(RunSummary summary, String message, String answer, AgentState state,
                      List<ApprovalRequest> pendingApprovals, List<Decided> decided, Optional<Handoff> handoff,
                      List<String> trace, List<Conversation.Reply> replies) {
    /** A paused action and the decision a person made on it, recorded before the run resumed. */
    public record Decided(ApprovalRequest request, ApprovalDecision decision) {
        /**
         * One line for people: the decision, who made it, the action and what will run. The reason and
         * the name are a person's free text (a name may come from {@code $USER}): their control
         * characters are shown as escapes, so neither can end the line and fake one after it.
         */
        public String describe() {
            String what = switch (decision) {
                case ApprovalDecision.Approve a -> "approved";
                case ApprovalDecision.Reject r -> "rejected (" + Controls.visible(r.reason().replace('\n', ' '), false) + ")";
                case ApprovalDecision.Edit e -> "approved with edited arguments " + Json.write(e.arguments());
            };
            return request.tool() + " [" + request.risk() + "] action " + request.actionHash() + ": " + what
                    + " by " + Controls.visible(decision.decidedBy(), false);
        }
    }

    public RunView {
        decided = decided == null ? List.of() : List.copyOf(decided);
        replies = replies == null ? List.of() : List.copyOf(replies);
    }

    /** A view without replies (the shape before replies were shown). */
    public RunView(RunSummary summary, String message, String answer, AgentState state,
                   List<ApprovalRequest> pendingApprovals, List<Decided> decided, Optional<Handoff> handoff,
                   List<String> trace) {
        this(summary, message, answer, state, pendingApprovals, decided, handoff, trace, List.of());
    }

    /** A view without recorded decisions (the shape before decisions were shown). */
    public RunView(RunSummary summary, String message, String answer, AgentState state,
                   List<ApprovalRequest> pendingApprovals, Optional<Handoff> handoff, List<String> trace) {
        this(summary, message, answer, state, pendingApprovals, List.of(), handoff, trace);
    }

    static RunView of(RunSnapshot s, List<StoredEvent> events) {
        Optional<Handoff> handoff = Optional.empty();
        boolean needsPerson = s.status() == RunStatus.FAILED || s.status() == RunStatus.STOPPED_BUDGET
                || s.status() == RunStatus.CANCELLED;
        if (needsPerson && s.state() != null) {
            String question = Reasons.NEEDS_USER_INPUT.equals(s.reason()) ? s.answer() : "";
            handoff = Optional.of(Handoff.of(s.reason(), question, s.finish() != null ? s.finish().summary() : s.message(), s.state()));
        }
        // A decision is carried out only on resume; until then it is listed apart from the trace's
        // approval_decided, so a person can see that theirs was recorded and is still to be carried out.
        List<Decided> decided = s.status() != RunStatus.WAITING_APPROVAL ? List.of()
                : s.approvals().requests().stream().filter(r -> s.approvals().decisions().containsKey(r.callId()))
                        .map(r -> new Decided(r, s.approvals().decisions().get(r.callId()))).toList();
        return new RunView(s.summary(), s.message(), s.answer(), s.state(), s.pendingApprovals(), decided, handoff,
                TraceSummary.lines(events), s.conversation().replies());
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
        if (!replies.isEmpty()) {
            sb.append("  Replies:\n");
            // one line per reply, so a reply cannot pass for another section
            replies.forEach(r -> sb.append("    turn ").append(r.turn()).append(": ")
                    .append(r.text().replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ')).append('\n'));
        }
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
        if (!decided.isEmpty()) {
            sb.append("  Decided, carried out when the run resumes:\n");
            decided.forEach(d -> sb.append("    - ").append(d.describe()).append('\n'));
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
