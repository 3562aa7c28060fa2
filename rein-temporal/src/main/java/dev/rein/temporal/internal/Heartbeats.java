package dev.rein.temporal.internal;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCanceledException;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityNotExistsException;
import io.temporal.client.ActivityPausedException;
import io.temporal.client.ActivityResetException;
import io.temporal.client.ActivityWorkerShutdownException;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;

/**
 * Heartbeats of one activity attempt while it runs, so that Temporal tells a live worker's long
 * call (a tool allowed to take longer than the attempt timeout) from a dead worker's, and retries
 * only the second elsewhere. Stops when closed, or when Temporal answers that the attempt is over
 * (cancelled, timed out, the worker stopping). When the run was cancelled or the attempt is no longer
 * Temporal's (its workflow closed, or it timed out and was started again elsewhere), the call is
 * interrupted, as a local cancel interrupts it: its result would be thrown away. So it is when an operator
 * pauses or resets the activity (Temporal's Activity Operations): the attempt then fails retryably, and
 * Temporal makes the call again once the activity is unpaused.
 */
final class Heartbeats implements AutoCloseable {
    /** The failure type of an attempt stopped because an operator paused the activity (Temporal's Activity Operations). */
    static final String PAUSED = "activity_paused";
    /** The failure type of an attempt stopped because an operator reset the activity. */
    static final String RESET = "activity_reset";
    private final ActivityExecutionContext context;
    /** The attempt's context, also when it has no heartbeat timeout (then {@link #context} is null: nothing beats). */
    private final ActivityExecutionContext attempt;
    private final Thread beating;
    private final Thread working;
    /** What each heartbeat carries: Temporal hands the last one to the activity's next attempt. */
    private volatile Object details;
    private boolean closed;
    private boolean interruptedTheCall;
    private ActivityCompletionException why;

    private Heartbeats(ActivityExecutionContext attempt, ActivityExecutionContext context, long every, Object details) {
        this.attempt = attempt;
        this.context = context;
        this.details = details;
        this.working = Thread.currentThread();
        this.beating = context == null ? null : Thread.ofVirtual().name("rein-heartbeat").start(() -> beat(context, every));
    }

    /**
     * Heartbeats three times per heartbeat timeout of {@code context}'s attempt, from the attempt's thread; none without
     * one. Each heartbeat carries {@code details} (null for none).
     */
    static Heartbeats start(ActivityExecutionContext context, Object details) {
        Duration timeout = context.getInfo().getHeartbeatTimeout();
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            return new Heartbeats(context, null, 0, details);
        }
        return new Heartbeats(context, context, Math.max(100, timeout.toMillis() / 3), details);
    }

    /** What the heartbeats carry from now on, sent at once: the attempt's failure reports it to the next attempt. */
    void details(Object next) {
        details = next;
        if (context != null) {
            try {
                context.heartbeat(next);
            } catch (ActivityCompletionException e) {
                // the attempt is over for Temporal (cancelled, timed out): its failure is not delivered anyway
            }
        }
    }

    private void beat(ActivityExecutionContext context, long every) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                context.heartbeat(details);
                Thread.sleep(every);
            }
        } catch (InterruptedException e) {
            // the call ended
        } catch (ActivityCanceledException | ActivityNotExistsException | ActivityPausedException | ActivityResetException e) {
            // a pause or reset by an operator stops the call too (Temporal's docs: a heartbeating activity is interrupted
            // on its next heartbeat), where taking it for the worker stopping left the call running to its end
            interruptTheCall(e);
        } catch (ActivityCompletionException e) {
            // the worker is stopping: it interrupts its own calls if it must
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the worker's heartbeat executor has shut down between the SDK's check and the beat: it is stopping too
        }
    }

    private synchronized void interruptTheCall(ActivityCompletionException why) {
        if (!closed) {
            interruptedTheCall = true;
            this.why = why;
            working.interrupt();
        }
    }

    /**
     * What Temporal answered when the call was interrupted: an {@link ActivityCanceledException} when the activity was
     * cancelled (the attempt reports it by throwing it, so the workflow sees a cancel and not a failure). Null when the
     * call was not interrupted.
     */
    synchronized ActivityCompletionException why() {
        return why;
    }

    /**
     * The attempt's failure when an operator paused or reset the activity and the call was stopped for it: retryable,
     * so that Temporal makes the call again once the activity is unpaused (at once after a reset). Null otherwise.
     */
    synchronized ApplicationFailure stoppedByAnOperator() {
        if (why instanceof ActivityPausedException) {
            return ApplicationFailure.newFailure("the activity was paused by an operator (Temporal's activity pause), so its"
                    + " call was stopped; Temporal makes it again once the activity is unpaused (temporal activity unpause)",
                    PAUSED);
        }
        if (why instanceof ActivityResetException) {
            return ApplicationFailure.newFailure("the activity was reset by an operator (Temporal's activity reset), so its"
                    + " call was stopped; Temporal makes it again from its first attempt", RESET);
        }
        return null;
    }

    /**
     * Whether the worker running the attempt is stopping ({@code WorkerFactory.shutdown} or {@code shutdownNow}): the SDK
     * shuts the worker's heartbeat executor down first, and from then on refuses a heartbeat with
     * ActivityWorkerShutdownException. Otherwise a heartbeat with the current details is sent (or throttled).
     */
    boolean workerStopping() {
        try {
            attempt.heartbeat(details);
            return false;
        } catch (ActivityWorkerShutdownException | java.util.concurrent.RejectedExecutionException e) {
            return true; // the second: the executor shut down between the SDK's check and the heartbeat
        } catch (ActivityCompletionException e) {
            return false; // cancelled, timed out, paused, reset: over for Temporal, not the worker stopping
        }
    }

    /** True when the call was interrupted because the run was cancelled or the attempt was over for Temporal. */
    synchronized boolean interruptedTheCall() {
        return interruptedTheCall;
    }

    /** Stops heartbeating; after this the call is never interrupted by it. Called on the attempt's thread. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        if (beating != null) {
            beating.interrupt();
        }
    }
}
