package dev.rein.temporal.internal;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import java.time.Duration;

/**
 * Heartbeats of one activity attempt while it runs, so that Temporal tells a live worker's long
 * call (a tool allowed to take longer than the attempt timeout) from a dead worker's, and retries
 * only the second elsewhere. Stops when closed, or when Temporal answers that the attempt is over
 * (cancelled, timed out, the worker stopping).
 */
final class Heartbeats implements AutoCloseable {
    private final Thread beating;

    private Heartbeats(Thread beating) {
        this.beating = beating;
    }

    /** Heartbeats three times per heartbeat timeout of {@code context}'s attempt; none without one. */
    static Heartbeats start(ActivityExecutionContext context) {
        Duration timeout = context.getInfo().getHeartbeatTimeout();
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            return new Heartbeats(null);
        }
        long every = Math.max(100, timeout.toMillis() / 3);
        return new Heartbeats(Thread.ofVirtual().name("rein-heartbeat").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    context.heartbeat(null);
                    Thread.sleep(every);
                }
            } catch (InterruptedException e) {
                // the call ended
            } catch (ActivityCompletionException e) {
                // the attempt is over for Temporal: nothing more to report
            }
        }));
    }

    @Override
    public void close() {
        if (beating != null) {
            beating.interrupt();
        }
    }
}
