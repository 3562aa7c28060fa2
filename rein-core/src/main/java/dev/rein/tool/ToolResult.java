package dev.rein.tool;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The normalised observation of one tool call: the text the model sees, the error flag and class,
 * where the data came from, when it was observed and how long the call took.
 *
 * @param retryAfter for a {@link ErrorClass#TRANSIENT} failure, how long the failing system asked
 *                   to wait before trying again; else null
 */
public record ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                         String source, Instant observedAt, Duration duration, Duration retryAfter) {
    public ToolResult {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(content, "content");
        errorClass = errorClass == null ? (isError ? ErrorClass.EXECUTION_FAILED : ErrorClass.NONE) : errorClass;
        Objects.requireNonNull(observedAt, "observedAt");
        duration = duration == null ? Duration.ZERO : duration;
    }

    /** A result without a retry hint. */
    public ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                      String source, Instant observedAt, Duration duration) {
        this(callId, toolName, content, isError, errorClass, source, observedAt, duration, null);
    }

    public static ToolResult success(ToolCall call, String content, String source) {
        return new ToolResult(call.id(), call.name(), content, false, ErrorClass.NONE, source, Instant.now(), Duration.ZERO);
    }

    public static ToolResult error(ToolCall call, ErrorClass errorClass, String message) {
        return new ToolResult(call.id(), call.name(), message, true, errorClass, "rein", Instant.now(), Duration.ZERO);
    }

    public ToolResult withContent(String newContent) {
        return new ToolResult(callId, toolName, newContent, isError, errorClass, source, observedAt, duration, retryAfter);
    }

    public ToolResult withDuration(Duration newDuration) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, observedAt, newDuration, retryAfter);
    }

    public ToolResult withSource(String newSource) {
        return new ToolResult(callId, toolName, content, isError, errorClass, newSource, observedAt, duration, retryAfter);
    }

    public ToolResult withRetryAfter(Duration hint) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, observedAt, duration, hint);
    }

    /** True when the content came from the tool itself rather than from Rein refusing or stopping the call. */
    public boolean fromTool() {
        return switch (errorClass) {
            case NONE, EXECUTION_FAILED, TRANSIENT -> true;
            case UNKNOWN_TOOL, INVALID_ARGUMENTS, PERMISSION_DENIED, LIMIT_REACHED, TIMEOUT, REJECTED, INTERVENTION,
                 CANCELLED, MISSING_SOURCE, AWAITING_APPROVAL -> false;
        };
    }

    /** True when Rein refused the call before it ran (a security-relevant event, audited). */
    public boolean refused() {
        return switch (errorClass) {
            case UNKNOWN_TOOL, INVALID_ARGUMENTS, PERMISSION_DENIED, LIMIT_REACHED, REJECTED, MISSING_SOURCE -> true;
            case NONE, EXECUTION_FAILED, TRANSIENT, TIMEOUT, INTERVENTION, CANCELLED, AWAITING_APPROVAL -> false;
        };
    }
}
