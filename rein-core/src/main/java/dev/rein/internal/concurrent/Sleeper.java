package dev.rein.internal.concurrent;

import java.time.Duration;

/** How a retry waits between attempts; tests replace it so that a 30 s wait takes no time. */
@FunctionalInterface
public interface Sleeper {
    /** The calling thread sleeps, for the whole delay: a sub-millisecond part is not dropped. */
    Sleeper THREAD = Thread::sleep;

    void sleep(Duration delay) throws InterruptedException;
}
