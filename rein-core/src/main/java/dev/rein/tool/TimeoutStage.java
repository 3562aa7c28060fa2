package dev.rein.tool;

import dev.rein.internal.text.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Bounds the rest of the pipeline (retries included) by the tool's timeout, never past the run's
 * deadline. The rest runs on its own virtual thread, which is interrupted when time is up; the
 * narrowed deadline is passed on in the context so retries and handlers can respect it.
 */
final class TimeoutStage implements ToolInterceptor {
    private final Duration defaultTimeout;

    TimeoutStage(Duration defaultTimeout) {
        this.defaultTimeout = defaultTimeout;
    }

    @Override
    public ToolResult intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        Duration timeout = invocation.tool().timeout() != null ? invocation.tool().timeout() : defaultTimeout;
        Instant now = invocation.context().clock().instant();
        Instant runDeadline = invocation.context().deadline();
        boolean deadlineBinds = Duration.between(now, runDeadline).compareTo(timeout) < 0;
        Instant callDeadline = deadlineBinds ? runDeadline : now.plus(timeout);
        Duration wait = Duration.between(now, callDeadline);
        if (wait.isNegative() || wait.isZero()) {
            return ToolResult.reinError(call, ErrorClass.TIMEOUT, "The run's deadline has passed; tool '" + call.name() + "' was not called.");
        }
        ToolInvocation bounded = invocation.withContext(invocation.context().withDeadline(callDeadline));
        FutureTask<ToolResult> task = new FutureTask<>(() -> chain.proceed(bounded));
        Thread.ofVirtual().name("rein-tool-" + call.name()).start(task);
        try {
            return task.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            String why = deadlineBinds ? "the run's deadline was reached" : "it exceeded its timeout of " + Durations.human(timeout);
            String effect = invocation.tool().risk() == Risk.READ ? ""
                    : " It may or may not have taken effect; check before calling it again.";
            return ToolResult.reinError(call, ErrorClass.TIMEOUT, "Tool '" + call.name() + "' was stopped because " + why + "."
                    + effect + " Try a smaller request or another approach.");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return ToolResult.error(call, ErrorClass.EXECUTION_FAILED, "Tool '" + call.name() + "' could not be run: "
                    + cause.getClass().getSimpleName() + ": " + cause.getMessage());
        } catch (InterruptedException e) {
            task.cancel(true);
            throw e;
        }
    }
}
