package dev.rein.tool;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The normalised observation of one tool call: the text the model sees, the error flag and class,
 * where the data came from, when it was observed and how long the call took.
 */
public record ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                         String source, Instant observedAt, Duration duration) {
    public ToolResult {
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(content, "content");
        errorClass = errorClass == null ? (isError ? ErrorClass.EXECUTION_FAILED : ErrorClass.NONE) : errorClass;
        Objects.requireNonNull(observedAt, "observedAt");
        duration = duration == null ? Duration.ZERO : duration;
    }

    public static ToolResult success(ToolCall call, String content, String source) {
        return new ToolResult(call.id(), call.name(), content, false, ErrorClass.NONE, source, Instant.now(), Duration.ZERO);
    }

    public static ToolResult error(ToolCall call, ErrorClass errorClass, String message) {
        return new ToolResult(call.id(), call.name(), message, true, errorClass, "rein", Instant.now(), Duration.ZERO);
    }

    public ToolResult withContent(String newContent) {
        return new ToolResult(callId, toolName, newContent, isError, errorClass, source, observedAt, duration);
    }

    public ToolResult withDuration(Duration newDuration) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, observedAt, newDuration);
    }
}
