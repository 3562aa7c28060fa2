package dev.rein.stall;

import java.util.Map;
import java.util.Objects;

/**
 * One detection: which detector fired, on which call (null for detections over a whole step),
 * the text shown to the model, the evidence, and how many times this detector has fired in the
 * run so far (1 for the first).
 */
public record Finding(String detector, String callId, String message, Map<String, Object> evidence, int occurrence) {
    public Finding {
        Objects.requireNonNull(detector, "detector");
        Objects.requireNonNull(message, "message");
        evidence = Map.copyOf(evidence);
    }
}
