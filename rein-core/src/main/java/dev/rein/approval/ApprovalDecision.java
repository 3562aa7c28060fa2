package dev.rein.approval;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import dev.rein.ReinException;

/**
 * A person's decision on one pending action, bound to the hash of the action they saw.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "decision")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ApprovalDecision.Approve.class, name = "approve"),
        @JsonSubTypes.Type(value = ApprovalDecision.Reject.class, name = "reject"),
        @JsonSubTypes.Type(value = ApprovalDecision.Edit.class, name = "edit")
})
public sealed interface ApprovalDecision {
    /** The hash of the action the person decided on. */
    String actionHash();

    String decidedBy();

    Instant decidedAt();

    /** The hash of the action that may run after this decision, or null when nothing may run. */
    default String approvedHash() {
        return switch (this) {
            case Approve a -> a.actionHash();
            case Reject r -> null;
            case Edit e -> e.editedHash();
        };
    }

    /** "approve", "reject" or "edit". */
    default String name() {
        return switch (this) {
            case Approve a -> "approve";
            case Reject r -> "reject";
            case Edit e -> "edit";
        };
    }

    /** Run the action as shown. */
    record Approve(String actionHash, String decidedBy, Instant decidedAt) implements ApprovalDecision {
        /** @throws ReinException when {@code actionHash} is null */
        public Approve {
            requireHash(actionHash, "Approve");
        }
    }

    /** Do not run it; {@code reason} is given to the model as the call's result. */
    record Reject(String actionHash, String reason, String decidedBy, Instant decidedAt) implements ApprovalDecision {
        /** @throws ReinException when {@code actionHash} is null */
        public Reject {
            requireHash(actionHash, "Reject");
            reason = reason == null || reason.isBlank() ? "no reason given" : reason;
        }
    }

    /** Run it with other arguments; the approval covers only the edited action ({@code editedHash}). */
    record Edit(String actionHash, JsonNode arguments, String editedHash, String decidedBy, Instant decidedAt)
            implements ApprovalDecision {
        /** @throws ReinException when {@code actionHash}, {@code arguments} or {@code editedHash} is null */
        public Edit {
            requireHash(actionHash, "Edit");
            if (arguments == null) {
                throw new ReinException("an ApprovalDecision.Edit was given no arguments (null): pass the arguments to run"
                        + " instead, as a JSON object, or an Approve to run the action as proposed");
            }
            if (editedHash == null) {
                throw new ReinException("an ApprovalDecision.Edit was given no edited hash (null): pass the hash of the edited"
                        + " action, ActionHash.of(tool, arguments), which the approval covers");
            }
        }
    }

    /** Refuses a decision that names no action: it could only be met later, as a bare NullPointerException. */
    private static void requireHash(String actionHash, String decision) {
        if (actionHash == null) {
            throw new ReinException("an ApprovalDecision." + decision + " was given no action hash (null): pass the"
                    + " ApprovalRequest.actionHash() of the action decided on");
        }
    }
}
