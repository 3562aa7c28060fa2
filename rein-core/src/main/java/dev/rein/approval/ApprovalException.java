package dev.rein.approval;

import dev.rein.ReinException;
import java.util.List;

/**
 * A decision or a resume that does not fit the run's pending approvals: a hash that is not
 * pending (the action changed, or it is another run's), a second decision on the same action,
 * a resume before every action is decided.
 */
public class ApprovalException extends ReinException {
    private final List<ApprovalRequest> pending;

    public ApprovalException(String message, List<ApprovalRequest> pending) {
        super(message);
        this.pending = List.copyOf(pending);
    }

    /** The actions still waiting for a decision. */
    public List<ApprovalRequest> pending() {
        return pending;
    }
}
