package dev.rein.internal.concurrent;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Runs work within a time limit: the runtime's one "thread with a timeout" (model calls within the
 * deadline, tool calls within their timeout). {@link #run} starts a virtual thread and waits at
 * most the limit; on timeout or interrupt the worker is interrupted, so blocking I/O in it ends at
 * once. {@link #runHere} runs work that ends on interrupt on the caller's own thread, interrupted
 * by an {@link Alarm}: no thread per call.
 */
public final class Timed {
    private Timed() {}

    /** On a worker thread of {@link #run}: the task it runs, whose cancellation says its caller stopped waiting. */
    private static final ThreadLocal<FutureTask<?>> WORKING_FOR = new ThreadLocal<>();

    /**
     * Whether the caller of the {@link #run} whose worker this thread is has stopped waiting for it (its limit passed,
     * or it was interrupted: a run's cancel). The worker is interrupted then, but work that swallowed the interrupt can
     * still tell it is no longer wanted, and start nothing more (another attempt of a tool call). False on any other
     * thread.
     */
    public static boolean abandoned() {
        FutureTask<?> task = WORKING_FOR.get();
        return task != null && task.isCancelled();
    }

    /** What the work ended with. */
    public sealed interface Outcome<T> {
        record Done<T>(T value) implements Outcome<T> {}

        record Failed<T>(Throwable cause) implements Outcome<T> {}

        record TimedOut<T>() implements Outcome<T> {}
    }

    /**
     * Runs {@code work} on a virtual thread named {@code name} for at most {@code limit}.
     *
     * @throws InterruptedException when the waiting thread is interrupted (the worker is interrupted too)
     */
    public static <T> Outcome<T> run(String name, Duration limit, Callable<T> work) throws InterruptedException {
        FutureTask<T> task = new FutureTask<>(work);
        Thread.ofVirtual().name(name).start(() -> {
            WORKING_FOR.set(task);
            task.run();
        });
        // An untimed wait ended by an alarm: a timed wait on a virtual thread would schedule and
        // cancel a timer task of the JDK's delay scheduler (and wake its thread) for every call.
        Alarm alarm = Alarm.after(limit, () -> task.cancel(true));
        try {
            return new Outcome.Done<>(task.get());
        } catch (CancellationException e) { // only the alarm cancels the task
            return new Outcome.TimedOut<>();
        } catch (InterruptedException e) {
            task.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            return new Outcome.Failed<>(e.getCause());
        } finally {
            alarm.disarm();
        }
    }

    /**
     * Runs {@code work} on the current thread for at most {@code limit}: an {@link Alarm}
     * interrupts the thread when the limit passes, so this suits only work that ends promptly on
     * interrupt. Whatever the work returned or threw (but an {@link Error}) after the alarm went
     * off, the outcome is {@link Outcome.TimedOut} and the alarm's interrupt is cleared; an
     * interrupt from anyone else in the same instant is cleared with it (the time limit is what
     * ended the work).
     *
     * <p>Work that returned (or threw something else) with the thread's interrupt status set, not by the alarm,
     * returns its outcome with the status still set: the caller decides what it means (a tool call ends on it; a
     * model's response that came is kept, since it was paid for).
     *
     * <p>{@code DeadlineStage} and {@code TimeoutStage} repeat this body around {@link #here}: change them together.
     *
     * @throws InterruptedException when the work threw it, the thread interrupted not by the alarm
     */
    public static <T> Outcome<T> runHere(Duration limit, Callable<T> work) throws InterruptedException {
        Here here = here(limit);
        Outcome<T> outcome;
        try {
            outcome = new Outcome.Done<>(work.call());
        } catch (Exception | Error e) {
            outcome = new Outcome.Failed<>(e);
        }
        return here.end(outcome);
    }

    /**
     * {@link #runHere} for a caller that runs the work itself, between this and {@link Here#end}: the same alarm and
     * outcome, without the work's lambda and this class's frame on the stack while it runs. The model-call chain's
     * deadline stage ({@code DeadlineStage}) and the tool chain's timeout stage ({@code TimeoutStage}, for a tool that
     * aborts on interrupt) use it, since a run waiting for its model or blocked in such a handler parks with that
     * stack, and thousands of parked runs copy every frame of it to the heap. Both repeat {@link #runHere}'s body (this,
     * its try/catch, {@link Here#end}): change the three together. The try/catch cannot move in here without putting
     * a frame of this class's back under the work.
     */
    public static Here here(Duration limit) {
        return new Here(Alarm.forCurrentThread(limit));
    }

    /** A limit armed on the current thread by {@link #here}; {@link #end} once, on the same thread. */
    public static final class Here {
        private final Alarm alarm;

        private Here(Alarm alarm) {
            this.alarm = alarm;
        }

        /**
         * What the work ended with, as {@link #runHere} says it: {@link Outcome.TimedOut} when the alarm went off
         * (its interrupt cleared) unless the work failed with an {@link Error}.
         *
         * @throws InterruptedException when the work threw it, the thread interrupted not by the alarm
         */
        public <T> Outcome<T> end(Outcome<T> outcome) throws InterruptedException {
            // An Error stays an Error even past the limit; anything else was the alarm's doing.
            if (alarm.disarm() && !(outcome instanceof Outcome.Failed<T> f && f.cause() instanceof Error)) {
                return new Outcome.TimedOut<>();
            }
            if (outcome instanceof Outcome.Failed<T> failed && failed.cause() instanceof InterruptedException ie) {
                throw ie;
            }
            return outcome;
        }
    }
}
