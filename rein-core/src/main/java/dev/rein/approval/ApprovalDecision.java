package dev.rein.approval;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

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
        public Approve {
            Objects.requireNonNull(actionHash, "actionHash");
        }
    }

    /** Do not run it; {@code reason} is given to the model as the call's result. */
    record Reject(String actionHash, String reason, String decidedBy, Instant decidedAt) implements ApprovalDecision {
        public Reject {
            Objects.requireNonNull(actionHash, "actionHash");
            reason = reason == null || reason.isBlank() ? "no reason given" : reason;
        }
    }

    /** Run it with other arguments; the approval covers only the edited action ({@code editedHash}). */
    record Edit(String actionHash, JsonNode arguments, String editedHash, String decidedBy, Instant decidedAt)
            implements ApprovalDecision {
        public Edit {
            Objects.requireNonNull(actionHash, "actionHash");
            Objects.requireNonNull(arguments, "arguments");
            Objects.requireNonNull(editedHash, "editedHash");
        }
    }
}
