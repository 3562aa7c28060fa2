package dev.rein.stall;

import dev.rein.ReinException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One detection: which detector fired, on which call (null for detections over a whole step),
 * the text shown to the model, the evidence, and how many times this detector has fired in the
 * run so far (1 for the first). The evidence is kept in the order the detector gave it.
 */
public record Finding(String detector, String callId, String message, Map<String, Object> evidence, int occurrence) {
    /** @throws ReinException when the detector, the message, the evidence or a value in it is null */
    public Finding {
        if (detector == null) {
            throw new ReinException("a stall finding was given no detector (null): give the name of the detector that fired");
        }
        if (message == null) {
            throw new ReinException("the stall finding of detector '" + detector + "' was given no message (null): give the"
                    + " text shown to the model");
        }
        if (evidence == null) {
            throw new ReinException("the stall finding of detector '" + detector + "' was given no evidence (null): give"
                    + " what it saw, Map.of() for nothing");
        }
        evidence.forEach((key, value) -> {
            if (key == null || value == null) {
                throw new ReinException("the stall finding of detector '" + detector + "' has evidence '" + key + "' with a"
                        + " null " + (key == null ? "name" : "value") + ": leave it out, or give a value (\"\" for none)");
            }
        });
        // In the detector's order: the stop message prints it, and Map.copyOf's order changes from JVM to JVM
        // (a run replayed in another process would end with another message and answer).
        evidence = Collections.unmodifiableMap(new LinkedHashMap<>(evidence));
    }
}
