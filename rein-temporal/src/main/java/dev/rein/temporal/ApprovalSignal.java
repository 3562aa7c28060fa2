package dev.rein.temporal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A person's decision as a signal: {@code decision} is approve, reject or edit; it applies only to
 * the pending action whose hash is {@code actionHash}. The workflow refuses (and lists in
 * {@code refusedDecisions}) a signal without either, as one sent around the handle may be: a
 * signal that could not be read would be dropped by Temporal without a word.
 *
 * @param reason    for a rejection: what the model is told (may be null)
 * @param arguments for an edit: the arguments the action runs with instead
 */
public record ApprovalSignal(String decision, String actionHash, String reason, JsonNode arguments, String decidedBy) {
    public static ApprovalSignal approve(String actionHash, String decidedBy) {
        return new ApprovalSignal("approve", Objects.requireNonNull(actionHash, "actionHash"), null, null, decidedBy);
    }

    public static ApprovalSignal reject(String actionHash, String reason, String decidedBy) {
        return new ApprovalSignal("reject", Objects.requireNonNull(actionHash, "actionHash"), reason, null, decidedBy);
    }

    public static ApprovalSignal edit(String actionHash, JsonNode arguments, String decidedBy) {
        return new ApprovalSignal("edit", Objects.requireNonNull(actionHash, "actionHash"), null,
                Objects.requireNonNull(arguments, "arguments"), decidedBy);
    }
}
