package dev.rein.temporal.internal;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A person's decision as a signal: {@code decision} is approve, reject or edit; it applies only to
 * the pending action whose hash is {@code actionHash}. The workflow refuses (and lists in
 * {@code refusedDecisions}) a signal without either, as one sent around the handle may be: a
 * signal that could not be read would be dropped by Temporal without a word.
 *
 * @param reason     for a rejection: what the model is told (may be null)
 * @param arguments  for an edit: the arguments the action runs with instead
 * @param unreadable what made a signal read from JSON no decision (its input is not a JSON object, or a field is of
 *                   the wrong kind), which the workflow refuses with; null for a readable one. Never sent
 */
public record ApprovalSignal(String decision, String actionHash, String reason, JsonNode arguments, String decidedBy,
                             @JsonIgnore String unreadable) {
    /** A decision as sent (the signal's JSON object has these fields, snake_case). */
    public ApprovalSignal(String decision, String actionHash, String reason, JsonNode arguments, String decidedBy) {
        this(decision, actionHash, reason, arguments, decidedBy, null);
    }

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

    /**
     * The signal as read from its JSON: any value is read, so that one sent around the handle (the Temporal CLI's
     * {@code --input '"approve"'}, an array of the fields, an object for the hash) reaches the workflow, which refuses
     * it saying what was wrong; a value Jackson could not map to the record would be dropped by Temporal unseen.
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static ApprovalSignal read(JsonNode sent) {
        if (sent == null || sent.isNull() || sent.isMissingNode()) {
            return null; // no input: the workflow refuses that itself
        }
        if (!sent.isObject()) {
            return new ApprovalSignal(null, null, null, null, null, "the decide signal's input is " + kind(sent)
                    + (sent.isValueNode() ? " (" + abbreviated(sent.toString()) + ")" : "") + ", not a JSON object");
        }
        String wrong = null;
        String[] texts = new String[4];
        String[] fields = {"decision", "action_hash", "reason", "decided_by"};
        for (int i = 0; i < fields.length; i++) {
            JsonNode value = sent.get(fields[i]);
            if (value == null || value.isNull()) {
                continue;
            }
            if (value.isContainerNode()) {
                wrong = wrong != null ? wrong : "its '" + fields[i] + "' is " + kind(value) + ", not a string";
            } else {
                texts[i] = value.asText(); // a number or a boolean as its text, as Jackson reads it into a string
            }
        }
        return new ApprovalSignal(texts[0], texts[1], texts[2], sent.get("arguments"), texts[3], wrong);
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static String abbreviated(String text) {
        return text.codePointCount(0, text.length()) <= 80 ? text
                : text.substring(0, text.offsetByCodePoints(0, 80)) + "…";
    }
}
