package dev.rein.testkit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** For tests of code that must abort when its thread is interrupted (a model call waiting for a late response). */
public final class Interrupting {
    private Interrupting() {}

    /** A step that may throw. */
    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    /**
     * Runs {@code call} on a new virtual thread, waits for {@code reached} (e.g. the fake server
     * taking the request), interrupts that thread and returns what the call threw, or null when it
     * returned normally.
     *
     * @throws AssertionError when the call has not ended {@code within} after the interrupt
     */
    public static Throwable interruptOnceReached(Action call, Action reached, Duration within) throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            try {
                call.run();
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        reached.run();
        caller.interrupt();
        try {
            return outcome.get(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("the interrupted call had not ended " + within.toSeconds() + " s after the interrupt");
        }
    }
}
