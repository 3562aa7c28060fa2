package dev.rein.model;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A failed model call. Carries what the runtime needs to decide on a retry: the kind of failure,
 * the HTTP status (0 when there was none), whether a retry can help and how long the provider
 * asked us to wait. The message is the provider's own.
 *
 * <p>A call can fail after the server reported its usage (a stream that broke or ended in an error
 * after the server counted the input): the failure then carries that {@linkplain #reportedUsage()
 * reported usage}, for the trace and telemetry to show. A run charges its budgets nothing for a
 * failed call, so that usage counts toward no token or money limit.
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
    private final Usage reportedUsage;

    public ModelException(Kind kind, int httpStatus, String message, boolean retryable, Duration retryAfter,
                          String requestId, Throwable cause) {
        this(kind, httpStatus, message, retryable, retryAfter, requestId, null, cause);
    }

    /**
     * A failure of a call whose server reported usage before it failed.
     *
     * @param reportedUsage the usage the server reported for the call that then failed; null when it reported none
     */
    public ModelException(Kind kind, int httpStatus, String message, boolean retryable, Duration retryAfter,
                          String requestId, Usage reportedUsage, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
        this.httpStatus = httpStatus;
        this.retryable = retryable;
        this.retryAfter = retryAfter;
        this.requestId = requestId;
        this.reportedUsage = reportedUsage;
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
     * The usage the server reported for this call before it failed (a stream that began, reported the
     * input it counted, then broke or ended in an error), or empty when it reported none. Data for the
     * trace ({@code reported_usage} of {@code model_retry} and {@code model_failed}) and telemetry: a
     * failed call charges the run's token and money budgets nothing, so this usage is in no budget.
     * Counts the server did not report before the failure (an output count that comes only at the end
     * of a stream) are the provider's estimate, and the usage is then marked {@link Usage#estimated()}.
     */
    public Optional<Usage> reportedUsage() {
        return Optional.ofNullable(reportedUsage);
    }
}
