package dev.rein.internal.concurrent;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Interrupts a thread when a time limit passes, unless {@link #disarm() disarmed} first: a time
 * limit for work that runs on the caller's own thread and ends on interrupt. All alarms share one
 * daemon scheduler thread per JVM (it only delivers interrupts; no work runs on it).
 */
public final class Alarm {
    private static final int ARMED = 0;
    private static final int DISARMED = 1;
    private static final int FIRING = 2;
    private static final int FIRED = 3;
    private static final ScheduledThreadPoolExecutor SCHEDULER = scheduler();

    private final Thread target;
    private final AtomicInteger state = new AtomicInteger(ARMED);
    private final ScheduledFuture<?> timer;

    private Alarm(Thread target, long nanos) {
        this.target = target;
        this.timer = SCHEDULER.schedule(this::fire, nanos, TimeUnit.NANOSECONDS);
    }

    /** Interrupts the current thread after {@code limit} unless disarmed before. */
    public static Alarm forCurrentThread(Duration limit) {
        return new Alarm(Thread.currentThread(), saturatedNanos(limit));
    }

    private void fire() {
        if (state.compareAndSet(ARMED, FIRING)) {
            target.interrupt();
            state.set(FIRED);
        }
    }

    /**
     * Stops the alarm; call it on the alarm's thread when the work ends. Returns whether the alarm
     * went off. If it did, its interrupt has been delivered by the time this returns and is cleared
     * here, so it cannot reach whatever the thread does next (the work may also have consumed it
     * already by throwing {@link InterruptedException}).
     */
    public boolean disarm() {
        if (state.compareAndSet(ARMED, DISARMED)) {
            timer.cancel(false);
            return false;
        }
        while (state.get() == FIRING) { // the scheduler is between its two statements in fire()
            Thread.onSpinWait();
        }
        Thread.interrupted();
        return true;
    }

    private static long saturatedNanos(Duration limit) {
        if (limit.isNegative()) {
            return 0;
        }
        return limit.compareTo(Duration.ofDays(3650)) > 0 ? TimeUnit.DAYS.toNanos(3650) : limit.toNanos();
    }

    private static ScheduledThreadPoolExecutor scheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("rein-deadline-alarm").daemon(true).factory());
        // A disarmed alarm leaves the queue at once: thousands of runs arm and disarm one per call.
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }
}
