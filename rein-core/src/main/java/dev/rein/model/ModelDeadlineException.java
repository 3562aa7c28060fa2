package dev.rein.model;

/**
 * The run's deadline passed before the model answered. Not a provider failure: the run stops for
 * its time budget. Never retried.
 */
public final class ModelDeadlineException extends ModelException {
    public ModelDeadlineException(String message) {
        super(Kind.TIMEOUT, 0, message, false, null, null, null);
    }
}
