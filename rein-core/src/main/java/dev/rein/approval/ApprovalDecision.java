package dev.rein.approval;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import dev.rein.ReinException;

/**
 * A person's decision on one pending action, bound to the hash of the action they saw, with who
 * made it and when. Each is required: a decision without them is refused with a
 * {@link ReinException} saying what to pass. A decision stored without a name (by a Rein that took
 * one, or a Temporal signal sent without {@code decided_by}) is read back as made by
 * {@link #NOT_RECORDED}, so such a run still loads and resumes.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "decision")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ApprovalDecision.Approve.class, name = "approve"),
        @JsonSubTypes.Type(value = ApprovalDecision.Reject.class, name = "reject"),
        @JsonSubTypes.Type(value = ApprovalDecision.Edit.class, name = "edit")
})
public sealed interface ApprovalDecision {
    /** Who decided, for a decision read from JSON that had no name (stored before a name was required). */
    String NOT_RECORDED = "(not recorded)";

    /** The hash of the action the person decided on. */
    String actionHash();

    /** Who decided, as recorded with the decision and shown in the trace ({@code approval_decided}) and by {@code rein show}. */
    String decidedBy();

    /** When the decision was made. */
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
        /** @throws ReinException when {@code actionHash}, {@code decidedBy} or {@code decidedAt} is missing */
        public Approve {
            requireHash(actionHash, "Approve");
            requireWhoAndWhen(decidedBy, decidedAt, "Approve");
        }

        @JsonCreator
        private static Approve read(@JsonProperty("action_hash") String actionHash, @JsonProperty("decided_by") String decidedBy,
                                    @JsonProperty("decided_at") Instant decidedAt) {
            return new Approve(actionHash, storedName(decidedBy), decidedAt);
        }
    }

    /** Do not run it; {@code reason} is given to the model as the call's result. */
    record Reject(String actionHash, String reason, String decidedBy, Instant decidedAt) implements ApprovalDecision {
        /**
         * The reason of a rejection given none (null or blank). The model is not told these words: the call's result it
         * reads is Rein's "A person rejected this call, so it was not executed. They gave no reason.", unfenced, where
         * a reason given is quoted in a fence after "Their reason, quoted:". A reason typed as exactly these words reads
         * the same.
         */
        public static final String NO_REASON = "no reason given";

        /** @throws ReinException when {@code actionHash}, {@code decidedBy} or {@code decidedAt} is missing */
        public Reject {
            requireHash(actionHash, "Reject");
            requireWhoAndWhen(decidedBy, decidedAt, "Reject");
            reason = reason == null || reason.isBlank() ? NO_REASON : reason;
        }

        @JsonCreator
        private static Reject read(@JsonProperty("action_hash") String actionHash, @JsonProperty("reason") String reason,
                                   @JsonProperty("decided_by") String decidedBy, @JsonProperty("decided_at") Instant decidedAt) {
            return new Reject(actionHash, reason, storedName(decidedBy), decidedAt);
        }
    }

    /** Run it with other arguments; the approval covers only the edited action ({@code editedHash}). */
    record Edit(String actionHash, JsonNode arguments, String editedHash, String decidedBy, Instant decidedAt)
            implements ApprovalDecision {
        /**
         * @throws ReinException when {@code actionHash}, {@code arguments}, {@code editedHash}, {@code decidedBy} or
         *                       {@code decidedAt} is missing
         */
        public Edit {
            requireHash(actionHash, "Edit");
            requireWhoAndWhen(decidedBy, decidedAt, "Edit");
            if (arguments == null) {
                throw new ReinException("an ApprovalDecision.Edit was given no arguments (null): pass the arguments to run"
                        + " instead, as a JSON object, or an Approve to run the action as proposed");
            }
            if (editedHash == null) {
                throw new ReinException("an ApprovalDecision.Edit was given no edited hash (null): pass the hash of the edited"
                        + " action, ActionHash.of(tool, arguments), which the approval covers");
            }
        }

        @JsonCreator
        private static Edit read(@JsonProperty("action_hash") String actionHash, @JsonProperty("arguments") JsonNode arguments,
                                 @JsonProperty("edited_hash") String editedHash, @JsonProperty("decided_by") String decidedBy,
                                 @JsonProperty("decided_at") Instant decidedAt) {
            return new Edit(actionHash, arguments, editedHash, storedName(decidedBy), decidedAt);
        }
    }

    /** Refuses a decision that names no action: it could only be met later, as a bare NullPointerException. */
    private static void requireHash(String actionHash, String decision) {
        if (actionHash == null) {
            throw new ReinException("an ApprovalDecision." + decision + " was given no action hash (null): pass the"
                    + " ApprovalRequest.actionHash() of the action decided on");
        }
    }

    /**
     * Refuses a decision without who made it or when: the run's record, its trace and {@code rein show}
     * would show it made "by null", at no time.
     */
    private static void requireWhoAndWhen(String decidedBy, Instant decidedAt, String decision) {
        if (decidedBy == null || decidedBy.isBlank()) {
            throw new ReinException("an ApprovalDecision." + decision + " was given no decidedBy (" + (decidedBy == null ? "null"
                    : "blank") + "): pass the name of the person deciding (\"alice\"); it is recorded with the decision");
        }
        if (decidedAt == null) {
            throw new ReinException("an ApprovalDecision." + decision + " was given no decidedAt (null): pass when it was"
                    + " decided, e.g. clock.instant()");
        }
    }

    /** A stored decision's name: one stored without a name (before it was required) reads as {@link #NOT_RECORDED}. */
    private static String storedName(String decidedBy) {
        return decidedBy == null || decidedBy.isBlank() ? NOT_RECORDED : decidedBy;
    }
}
