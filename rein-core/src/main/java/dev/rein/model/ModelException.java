package dev.rein.model;

import java.time.Duration;
import java.util.Objects;

/**
 * A failed model call. Carries what the runtime needs to decide on a retry: the kind of failure,
 * the HTTP status (0 when there was none), whether a retry can help and how long the provider
 * asked us to wait. The message is the provider's own.
 *
 * <p>A provider may bill a call that failed (a stream cut after its usage report, a generation the
 * server ended with an error): such a failure carries the {@link #usage() usage} the provider
 * reported for it, which the run charges to its token and money budgets, each attempt once (a
 * retried one too), priced as a response to the same model is; {@link Usage#NOT_REPORTED} when the
 * provider reported none, and then nothing is charged.
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
    private final Usage usage;

    /** A failure for which the provider reported no usage ({@link Usage#NOT_REPORTED}). */
    public ModelException(Kind kind, int httpStatus, String message, boolean retryable, Duration retryAfter,
                          String requestId, Throwable cause) {
        this(kind, httpStatus, message, retryable, retryAfter, requestId, cause, Usage.NOT_REPORTED);
    }

    /**
     * A failure for which the provider reported {@code usage}: the tokens it billed for the failed call,
     * which the run charges to its budgets.
     *
     * @param usage the usage the provider reported for the failed call; null or {@link Usage#NOT_REPORTED} for none
     */
    public ModelException(Kind kind, int httpStatus, String message, boolean retryable, Duration retryAfter,
                          String requestId, Throwable cause, Usage usage) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.httpStatus = httpStatus;
        this.retryable = retryable;
        this.retryAfter = retryAfter;
        this.requestId = requestId;
        this.usage = usage == null ? Usage.NOT_REPORTED : usage;
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

    /**
     * The usage the provider reported for the failed call (it may bill one, as for a stream cut after
     * its usage report), which the run charges to its budgets; {@link Usage#NOT_REPORTED} when it reported none.
     */
    public Usage usage() {
        return usage;
    }
}
