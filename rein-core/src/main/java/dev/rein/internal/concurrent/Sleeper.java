package dev.rein.internal.concurrent;

import java.time.Duration;

/** How a retry waits between attempts; tests replace it so that a 30 s wait takes no time. */
@FunctionalInterface
public interface Sleeper {
    /** The calling thread sleeps. */
    Sleeper THREAD = delay -> Thread.sleep(delay.toMillis());

    void sleep(Duration delay) throws InterruptedException;
}
