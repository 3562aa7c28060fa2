package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The last stage: runs the handler on its own virtual thread with the tool's timeout (never past
 * the run's deadline) and turns whatever happens into a normalised {@link ToolResult}.
 */
final class HandlerInvocation implements ToolInterceptor {
    static final String EMPTY_RESULT = "(the tool ran successfully; the result was empty)";

    private final Duration defaultTimeout;

    HandlerInvocation(Duration defaultTimeout) {
        this.defaultTimeout = defaultTimeout;
    }

    @Override
    public ToolResult intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        Duration timeout = invocation.tool().timeout() != null ? invocation.tool().timeout() : defaultTimeout;
        Duration untilDeadline = Duration.between(Instant.now(), invocation.context().deadline());
        boolean deadlineBinds = untilDeadline.compareTo(timeout) < 0;
        Duration wait = deadlineBinds ? untilDeadline : timeout;
        if (wait.isNegative() || wait.isZero()) {
            return ToolResult.error(call, ErrorClass.TIMEOUT, "The run's deadline has passed; tool '" + call.name() + "' was not called.");
        }
        FutureTask<Object> task = new FutureTask<>(() -> invocation.tool().handler().handle(call.arguments(), invocation.context()));
        Thread.ofVirtual().name("rein-tool-" + call.name()).start(task);
        try {
            return normalise(call, task.get(wait.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            task.cancel(true);
            String why = deadlineBinds ? "the run's deadline was reached" : "it exceeded its timeout of " + human(timeout);
            return ToolResult.error(call, ErrorClass.TIMEOUT, "Tool '" + call.name() + "' was stopped because " + why
                    + ". Try a smaller request or another approach.");
        } catch (ExecutionException e) {
            return failure(call, e.getCause());
        } catch (InterruptedException e) {
            task.cancel(true);
            throw e;
        }
    }

    static ToolResult normalise(ToolCall call, Object value) {
        return switch (value) {
            case null -> ToolResult.success(call, EMPTY_RESULT, null);
            case ToolOutput out when out.content().isBlank() ->
                    out.isError() ? ToolResult.error(call, ErrorClass.EXECUTION_FAILED, "(the tool reported an error without a message)")
                            : ToolResult.success(call, EMPTY_RESULT, out.source());
            case ToolOutput out -> out.isError()
                    ? withSource(ToolResult.error(call, ErrorClass.EXECUTION_FAILED, out.content()), out.source())
                    : ToolResult.success(call, out.content(), out.source());
            case String s when s.isBlank() -> ToolResult.success(call, EMPTY_RESULT, null);
            case String s -> ToolResult.success(call, s, null);
            case JsonNode node -> ToolResult.success(call, node.isTextual() ? orEmpty(node.asText()) : Json.write(node), null);
            default -> ToolResult.success(call, Json.write(value), null);
        };
    }

    private static String orEmpty(String s) {
        return s.isBlank() ? EMPTY_RESULT : s;
    }

    private static ToolResult withSource(ToolResult r, String source) {
        return source == null ? r : new ToolResult(r.callId(), r.toolName(), r.content(), true, r.errorClass(), source,
                r.observedAt(), r.duration());
    }

    private static ToolResult failure(ToolCall call, Throwable cause) {
        if (cause instanceof RetryableToolException retryable) {
            return ToolResult.error(call, ErrorClass.TRANSIENT, "Tool '" + call.name() + "' failed temporarily: " + retryable.getMessage());
        }
        String message = cause.getMessage() == null ? "(no message)" : cause.getMessage();
        return ToolResult.error(call, ErrorClass.EXECUTION_FAILED,
                "Tool '" + call.name() + "' failed with " + cause.getClass().getSimpleName() + ": " + message);
    }

    static String human(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }
}
