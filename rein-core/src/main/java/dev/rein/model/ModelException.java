package dev.rein.model;

import java.time.Duration;
import java.util.Objects;

/**
 * A failed model call. Carries what the runtime needs to decide on a retry: the kind of failure,
 * the HTTP status (0 when there was none), whether a retry can help and how long the provider
 * asked us to wait. The message is the provider's own.
 */
public class ModelException extends Exception {

    /** Failure classes, independent of the provider. */
    public enum Kind {
        INVALID_REQUEST(false),
        AUTHENTICATION(false),
        PERMISSION(false),
        NOT_FOUND(false),
        REQUEST_TOO_LARGE(false),
        CONFLICT(true),
        RATE_LIMITED(true),
        OVERLOADED(true),
        SERVER_ERROR(true),
        TIMEOUT(true),
        CONNECTION(true),
        MALFORMED_RESPONSE(false),
        OTHER(false);

        private final boolean retryableByDefault;

        Kind(boolean retryableByDefault) {
            this.retryableByDefault = retryableByDefault;
        }

        public boolean retryableByDefault() {
            return retryableByDefault;
        }
    }

    private final Kind kind;
    private final int httpStatus;
    private final boolean retryable;
    private final Duration retryAfter;
    private final String requestId;

    public ModelException(Kind kind, int httpStatus, String message, boolean retryable, Duration retryAfter,
                          String requestId, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.httpStatus = httpStatus;
        this.retryable = retryable;
        this.retryAfter = retryAfter;
        this.requestId = requestId;
    }

    public ModelException(Kind kind, int httpStatus, String message) {
        this(kind, httpStatus, message, kind.retryableByDefault(), null, null, null);
    }

    public Kind kind() {
        return kind;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public boolean retryable() {
        return retryable;
    }

    /** How long the provider asked us to wait before retrying, or null. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** The provider's request id, or null. */
    public String requestId() {
        return requestId;
    }
}
