package dev.rein.temporal.internal;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCanceledException;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityNotExistsException;
import java.time.Duration;

/**
 * Heartbeats of one activity attempt while it runs, so that Temporal tells a live worker's long
 * call (a tool allowed to take longer than the attempt timeout) from a dead worker's, and retries
 * only the second elsewhere. Stops when closed, or when Temporal answers that the attempt is over
 * (cancelled, timed out, the worker stopping). When the run was cancelled or the attempt is no longer
 * Temporal's (its workflow closed, or it timed out and was started again elsewhere), the call is
 * interrupted, as a local cancel interrupts it: its result would be thrown away.
 */
final class Heartbeats implements AutoCloseable {
    private final ActivityExecutionContext context;
    private final Thread beating;
    private final Thread working;
    /** What each heartbeat carries: Temporal hands the last one to the activity's next attempt. */
    private volatile Object details;
    private boolean closed;
    private boolean interruptedTheCall;
    private ActivityCompletionException why;

    private Heartbeats(ActivityExecutionContext context, long every, Object details) {
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
            return new Heartbeats(null, 0, details);
        }
        return new Heartbeats(context, Math.max(100, timeout.toMillis() / 3), details);
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
        } catch (ActivityCanceledException | ActivityNotExistsException e) {
            interruptTheCall(e);
        } catch (ActivityCompletionException e) {
            // the worker is stopping: it interrupts its own calls if it must
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
