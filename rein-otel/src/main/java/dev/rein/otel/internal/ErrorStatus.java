package dev.rein.otel.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * The ERROR status of a failed operation, as the conventions' "Recording errors" asks: a
 * description only when there is more to say than {@code error.type}, which it must not repeat.
 */
final class ErrorStatus {
    private ErrorStatus() {}

    /** Status ERROR, described by {@code description} when it says anything. */
    static void set(Span span, String description) {
        if (description == null || description.isBlank()) {
            span.setStatus(StatusCode.ERROR);
        } else {
            span.setStatus(StatusCode.ERROR, description);
        }
    }
}
