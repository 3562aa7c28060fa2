package dev.rein.agent;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A run in progress: wait for its result or cancel it from any thread. */
public final class RunHandle {
    private final String runId;
    private final CompletableFuture<RunResult> result;
    private final Runnable canceller;

    RunHandle(String runId, CompletableFuture<RunResult> result, Runnable canceller) {
        this.runId = runId;
        this.result = result;
        this.canceller = canceller;
    }

    public String runId() {
        return runId;
    }

    /**
     * Cancels the run: in-flight model and tool calls are interrupted and the run ends CANCELLED.
     * Safe to call more than once and after the run ended.
     */
    public void cancel() {
        canceller.run();
    }

    /** Waits for the result. The run itself never fails with an exception. */
    public RunResult await() throws InterruptedException {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the run loop failed unexpectedly", e.getCause());
        }
    }

    /** Waits at most {@code timeout}; one too long to count in nanoseconds waits as long as that can count. */
    public RunResult await(Duration timeout) throws InterruptedException, TimeoutException {
        if (timeout == null) {
            throw new NullPointerException("await(timeout) was given no timeout: pass a Duration, or call await() to wait until the run ends");
        }
        try {
            // convert saturates where Duration.toNanos throws (past 292 years, e.g. ChronoUnit.FOREVER)
            return result.get(TimeUnit.NANOSECONDS.convert(timeout), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the run loop failed unexpectedly", e.getCause());
        }
    }

    public CompletableFuture<RunResult> future() {
        return result;
    }

    public boolean isDone() {
        return result.isDone();
    }
}
