package dev.rein.internal.concurrent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Does something when a time limit passes, unless {@link #disarm() disarmed} first: interrupts the
 * thread that armed it ({@link #forCurrentThread}) or runs a short action ({@link #after}). All
 * alarms share one daemon thread per JVM, which only delivers them.
 *
 * <p>Almost every alarm is disarmed long before it is due (a model or tool call ends well within
 * its limit), so arming and disarming must not wake that thread: it sleeps until the earliest
 * deadline it knows of and is woken only for an alarm due before that. A run that arms one alarm
 * per call therefore costs the thread one wake-up per time limit, not one per call (a scheduled
 * executor wakes its thread for every task that becomes the head of its queue).
 */
public final class Alarm {
    private static final int ARMED = 0;
    private static final int DISARMED = 1;
    private static final int FIRING = 2;
    private static final int FIRED = 3;
    private static final VarHandle STATE;
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final Ticker TICKER = new Ticker();

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Alarm.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Thread target;
    private final Runnable action;
    private final long due;
    private final long sequence;
    /** Compared and set through {@code STATE}; read and written directly otherwise. */
    private volatile int state = ARMED;

    private Alarm(Thread target, Runnable action, long nanos) {
        this.target = target;
        this.action = action;
        this.due = System.nanoTime() + nanos;
        this.sequence = SEQUENCE.getAndIncrement();
        TICKER.add(this);
    }

    /** Interrupts the current thread after {@code limit} unless disarmed before. */
    public static Alarm forCurrentThread(Duration limit) {
        return new Alarm(Thread.currentThread(), null, saturatedNanos(limit));
    }

    /**
     * Runs {@code action} on the alarm thread after {@code limit} unless disarmed before. The action
     * must be short and must not block: every alarm of the JVM waits for it.
     */
    public static Alarm after(Duration limit, Runnable action) {
        return new Alarm(null, action, saturatedNanos(limit));
    }

    private void fire() {
        if (STATE.compareAndSet(this, ARMED, FIRING)) {
            try {
                if (target != null) {
                    target.interrupt();
                } else {
                    action.run();
                }
            } finally {
                state = FIRED;
            }
        }
    }

    /**
     * Stops the alarm and returns whether it went off; if it did, it has finished going off when
     * this returns. An alarm of {@link #forCurrentThread} must be disarmed on its own thread when
     * the work ends: an interrupt it delivered is cleared here, so it cannot reach whatever the
     * thread does next (the work may also have consumed it already by throwing
     * {@link InterruptedException}).
     */
    public boolean disarm() {
        if (STATE.compareAndSet(this, ARMED, DISARMED)) {
            TICKER.remove(this);
            return false;
        }
        while (state == FIRING) { // the alarm thread is between its two steps in fire()
            Thread.onSpinWait();
        }
        if (target != null) {
            Thread.interrupted();
        }
        return true;
    }

    private static long saturatedNanos(Duration limit) {
        if (limit.isNegative()) {
            return 0;
        }
        return limit.compareTo(Duration.ofDays(3650)) > 0 ? TimeUnit.DAYS.toNanos(3650) : limit.toNanos();
    }

    /** The one thread that delivers alarms, and the alarms it waits for, earliest first. */
    private static final class Ticker implements Runnable {
        private static final long IDLE = Long.MAX_VALUE;
        private final ConcurrentSkipListMap<Alarm, Boolean> pending = new ConcurrentSkipListMap<>(
                Comparator.<Alarm>comparingLong(a -> a.due).thenComparingLong(a -> a.sequence));
        private final Thread thread;
        /** When the thread will wake up on its own ({@link System#nanoTime()}), or IDLE. */
        private volatile long plannedWake = IDLE;

        Ticker() {
            thread = Thread.ofPlatform().name("rein-alarm").daemon(true).unstarted(this);
            thread.start();
        }

        void add(Alarm alarm) {
            pending.put(alarm, Boolean.TRUE);
            // Read after the add: either the thread sees this alarm when it re-checks after
            // planning its sleep, or this sees the planned wake-up and wakes it if it is too late.
            long planned = plannedWake;
            if (planned == IDLE || alarm.due - planned < 0) {
                LockSupport.unpark(thread);
            }
        }

        void remove(Alarm alarm) {
            pending.remove(alarm);
        }

        @Override
        public void run() {
            while (true) {
                Alarm first = firstOrNull();
                long now = System.nanoTime();
                if (first != null && first.due - now <= 0) {
                    if (pending.remove(first) != null) {
                        deliver(first);
                    }
                    continue;
                }
                long wake = first == null ? IDLE : first.due;
                plannedWake = wake;
                Alarm recheck = firstOrNull();
                if (recheck != null && (wake == IDLE || recheck.due - wake < 0)) {
                    continue; // one was added while planning: plan again
                }
                if (wake == IDLE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, wake - now);
                }
            }
        }

        private Alarm firstOrNull() {
            Map.Entry<Alarm, Boolean> first = pending.firstEntry();
            return first == null ? null : first.getKey();
        }

        private static void deliver(Alarm alarm) {
            try {
                alarm.fire();
            } catch (RuntimeException e) {
                // The actions are Rein's own (an interrupt, a task's cancellation); should one fail
                // anyway, the thread that every other alarm depends on must go on.
            }
        }
    }
}
