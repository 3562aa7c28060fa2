package dev.rein.internal.model;

import dev.rein.model.ModelException;
import dev.rein.model.Usage;

/**
 * An attempt a replayed model fails again as the recorded run's failed ({@code model_retry}): the
 * retry stage retries it at once, whatever the retry policy and without waiting (the recorded run
 * did retry it), and traces it as recorded, so its reported usage is charged where the run charged it.
 */
public final class RecordedRetry extends ModelException {
    private final long delayMillis;

    public RecordedRetry(Kind kind, int httpStatus, String message, String requestId, Usage usage, long delayMillis) {
        super(kind, httpStatus, message, true, null, requestId, null, usage);
        this.delayMillis = delayMillis;
    }

    /** How long the recorded run waited before the next attempt. */
    public long delayMillis() {
        return delayMillis;
    }
}
