package dev.rein.tool;

import dev.rein.ReinException;
import java.time.Duration;
import java.time.Instant;

/**
 * The normalised observation of one tool call: the text the model sees, the error flag and class,
 * where the data came from, when it was observed and how long the call took.
 *
 * @param retryAfter  for a {@link ErrorClass#TRANSIENT} failure, how long the failing system asked
 *                    to wait before trying again; else null
 * @param reinMessage the content is one of Rein's own fixed messages (a refusal, a limit, a timeout),
 *                    the only text that reaches the model outside the untrusted-data wrapper. False
 *                    for everything a tool, an interceptor or the outside world wrote, errors included.
 * @param userContent what the tool returned for the person only ({@link ToolOutput#withUserContent}): masked as
 *                    the content is, recorded in the trace, never sent to the model; null for none
 */
public record ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                         String source, Instant observedAt, Duration duration, Duration retryAfter, boolean reinMessage,
                         String userContent) {
    /** Results built outside a run are stamped with the system clock; the executor restamps Rein's own with the run's. */
    private static final java.time.Clock DEFAULT_CLOCK = java.time.Clock.systemUTC();

    /** @throws ReinException when the call id, the tool name, the content or the time observed is null, naming it */
    public ToolResult {
        if (callId == null) {
            throw new ReinException("a tool result was given no callId (null): give the id of the call it answers");
        }
        if (toolName == null) {
            throw new ReinException("the tool result of call " + callId + " was given no toolName (null): give the name of"
                    + " the tool called");
        }
        if (content == null) {
            throw new ReinException("the tool result of call " + callId + " (" + toolName + ") was given no content (null):"
                    + " give the text the model sees (\"\" for none: Rein then tells the model the result was empty)");
        }
        errorClass = errorClass == null ? (isError ? ErrorClass.EXECUTION_FAILED : ErrorClass.NONE) : errorClass;
        if (observedAt == null) {
            throw new ReinException("the tool result of call " + callId + " (" + toolName + ") was given no observedAt"
                    + " (null): give when it was observed (Instant.now(), or the run's clock)");
        }
        duration = duration == null ? Duration.ZERO : duration;
        userContent = userContent == null || userContent.isBlank() ? null : userContent;
    }

    /** A result without a part for the person only. */
    public ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                      String source, Instant observedAt, Duration duration, Duration retryAfter, boolean reinMessage) {
        this(callId, toolName, content, isError, errorClass, source, observedAt, duration, retryAfter, reinMessage, null);
    }

    /** A result whose content is not Rein's own (so it is wrapped as untrusted data). */
    public ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                      String source, Instant observedAt, Duration duration, Duration retryAfter) {
        this(callId, toolName, content, isError, errorClass, source, observedAt, duration, retryAfter, false);
    }

    /** A result without a retry hint, whose content is not Rein's own. */
    public ToolResult(String callId, String toolName, String content, boolean isError, ErrorClass errorClass,
                      String source, Instant observedAt, Duration duration) {
        this(callId, toolName, content, isError, errorClass, source, observedAt, duration, null);
    }

    public static ToolResult success(ToolCall call, String content, String source) {
        return new ToolResult(call.id(), call.name(), content, false, ErrorClass.NONE, source, DEFAULT_CLOCK.instant(), Duration.ZERO);
    }

    /**
     * An error result whose message was written by a tool, an interceptor or from outside data (a URL,
     * a host, a path, an exception message): the model sees it inside the untrusted-data wrapper.
     */
    public static ToolResult error(ToolCall call, ErrorClass errorClass, String message) {
        return new ToolResult(call.id(), call.name(), message, true, errorClass, null, DEFAULT_CLOCK.instant(), Duration.ZERO);
    }

    /**
     * An error result with one of Rein's own fixed messages, which the model sees unwrapped. Never put
     * text from a tool, an exception or the outside world in it: use {@link #error} for that.
     */
    public static ToolResult reinError(ToolCall call, ErrorClass errorClass, String message) {
        return new ToolResult(call.id(), call.name(), message, true, errorClass, "rein", DEFAULT_CLOCK.instant(), Duration.ZERO, null, true);
    }

    /**
     * A successful result whose content is one of Rein's own fixed notes about what the tool returned (it was empty, or
     * for the person only), which the model sees unwrapped; never text from the tool. It keeps the tool's {@code source}
     * (null for none), so strict provenance treats the result as it treats the tool's: the wrapping depends on
     * {@code reinMessage} only.
     */
    static ToolResult reinNote(ToolCall call, String note, String source) {
        return new ToolResult(call.id(), call.name(), note, false, ErrorClass.NONE, source, DEFAULT_CLOCK.instant(), Duration.ZERO, null, true);
    }

    /**
     * With {@code newContent} for the model. Content that differs is no longer Rein's own words ({@link #reinMessage}
     * false), so the model gets it wrapped as the tool's data: an interceptor that appends a server's text to Rein's note
     * must not send that text as Rein's. The same content keeps the mark.
     */
    public ToolResult withContent(String newContent) {
        return new ToolResult(callId, toolName, newContent, isError, errorClass, source, observedAt, duration, retryAfter,
                reinMessage && content.equals(newContent), userContent);
    }

    /**
     * With {@code newContent}, keeping {@link #reinMessage}: for Rein's own stages only (retry notes, secret masking),
     * which add nothing from the tool or the outside world to Rein's text.
     */
    ToolResult withOwnContent(String newContent) {
        return new ToolResult(callId, toolName, newContent, isError, errorClass, source, observedAt, duration, retryAfter, reinMessage, userContent);
    }

    public ToolResult withObservedAt(Instant when) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, when, duration, retryAfter, reinMessage, userContent);
    }

    public ToolResult withDuration(Duration newDuration) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, observedAt, newDuration, retryAfter, reinMessage, userContent);
    }

    public ToolResult withSource(String newSource) {
        return new ToolResult(callId, toolName, content, isError, errorClass, newSource, observedAt, duration, retryAfter, reinMessage, userContent);
    }

    /** With both the call's duration and the time it was observed (one copy instead of two). */
    ToolResult stamped(Duration newDuration, Instant when) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, when, newDuration, retryAfter, reinMessage, userContent);
    }

    /** With {@code text} for the person only (null for none); the model never sees it. */
    public ToolResult withUserContent(String text) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, observedAt, duration, retryAfter, reinMessage, text);
    }

    public ToolResult withRetryAfter(Duration hint) {
        return new ToolResult(callId, toolName, content, isError, errorClass, source, observedAt, duration, hint, reinMessage, userContent);
    }

    /**
     * True unless the content is one of Rein's own fixed messages: whatever a tool, an interceptor or
     * the outside world wrote (successes and errors alike) is wrapped as untrusted data.
     */
    public boolean fromTool() {
        return !reinMessage;
    }

    /** True when Rein refused the call before it ran (a security-relevant event, audited). */
    public boolean refused() {
        return switch (errorClass) {
            case UNKNOWN_TOOL, INVALID_ARGUMENTS, PERMISSION_DENIED, LIMIT_REACHED, REJECTED, MISSING_SOURCE -> true;
            case NONE, EXECUTION_FAILED, TRANSIENT, TIMEOUT, INTERVENTION, CANCELLED, AWAITING_APPROVAL -> false;
        };
    }
}
