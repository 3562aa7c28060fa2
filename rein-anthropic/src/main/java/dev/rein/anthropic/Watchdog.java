package dev.rein.anthropic;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The read and request timeouts of exchanges. One virtual thread checks a few times per timeout:
 * <ul>
 *   <li>the calls still waiting for their response headers ({@link #awaitHeaders}), interrupting
 *       one whose limit ran out, which makes the JDK client abort its exchange;</li>
 *   <li>the open exchanges, closing the body of one that was silent too long, ran past its
 *       whole-call limit, or stayed open after its message was whole ({@link Exchange#settle}),
 *       which ends the reader's blocking read with an {@link IOException}.</li>
 * </ul>
 * A call costs a set insertion and a read one {@link System#nanoTime()} store, not a timer each
 * (the JDK client's own request timeout wakes its selector thread for every request).
 */
final class Watchdog implements AutoCloseable {
    private final Set<Exchange> open = ConcurrentHashMap.newKeySet();
    private final Set<HeaderWait> waiting = ConcurrentHashMap.newKeySet();
    private final long readTimeoutNanos;
    /** The read timeout as messages name it. */
    private final String readTimeout;
    private final Thread thread;
    private volatile boolean closed;

    /** @param headerTimeout the wait for response headers (at most the read timeout), which sets how often it checks */
    Watchdog(Duration readTimeout, Duration headerTimeout) {
        this.readTimeoutNanos = readTimeout.toNanos();
        this.readTimeout = Transport.human(readTimeout);
        long tick = Math.clamp(headerTimeout.toMillis() / 4, 10, 1000);
        this.thread = Thread.ofVirtual().name("rein-anthropic-watchdog").start(() -> run(tick));
    }

    /** Watches the body of a call that started at {@code startedNanos} ({@link System#nanoTime()}). */
    Exchange watch(HttpResponse<InputStream> response, long startedNanos, Duration requestTimeout, WireBuffer requestBody) {
        Exchange exchange = new Exchange(response, this, startedNanos + requestTimeout.toNanos(), requestBody,
                requestTimeout);
        open.add(exchange);
        return exchange;
    }

    /**
     * Starts bounding the current thread's wait for response headers by {@code limit}; the caller
     * must {@linkplain HeaderWait#end() end} it however the wait ends.
     */
    HeaderWait awaitHeaders(Duration limit) {
        HeaderWait wait = new HeaderWait(Thread.currentThread(), System.nanoTime() + limit.toNanos());
        waiting.add(wait);
        return wait;
    }

    int open() {
        return open.size();
    }

    void release(Exchange exchange) {
        open.remove(exchange);
    }

    private void run(long tickMillis) {
        while (!closed) {
            LockSupport.parkNanos(tickMillis * 1_000_000);
            long now = System.nanoTime();
            for (HeaderWait wait : waiting) {
                if (now - wait.deadline > 0) {
                    wait.expire();
                }
            }
            for (Exchange exchange : open) {
                if (exchange.unsettled(now)) {
                    exchange.expire("the stream stayed open after message_stop");
                } else if (now - exchange.lastRead() > readTimeoutNanos) {
                    exchange.expire("the stream was silent longer than the read timeout (" + readTimeout + "; readTimeout)");
                } else if (now - exchange.deadline() > 0) {
                    exchange.expire("the call ran longer than the request timeout ("
                            + Transport.human(exchange.requestTimeout()) + "; requestTimeout)");
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    /** One call's wait for its response headers. */
    final class HeaderWait {
        private static final int WAITING = 0;
        private static final int ENDED = 1;
        private static final int INTERRUPTING = 2;
        private static final int INTERRUPTED = 3;

        private final Thread caller;
        private final long deadline;
        private final AtomicInteger state = new AtomicInteger(WAITING);

        private HeaderWait(Thread caller, long deadline) {
            this.caller = caller;
            this.deadline = deadline;
        }

        private void expire() {
            waiting.remove(this);
            if (state.compareAndSet(WAITING, INTERRUPTING)) {
                caller.interrupt();
                state.set(INTERRUPTED);
            }
        }

        /**
         * Ends the wait, on the caller's thread. Returns whether the limit ran out first: the caller
         * was then interrupted, and that interrupt is cleared here (one from anyone else in the same
         * instant with it: the time limit is what ended the wait; a run's cancel still holds, as the
         * runtime's retry stage reads the run's cancel flag, not the interrupt, before retrying).
         */
        boolean end() {
            waiting.remove(this);
            if (state.compareAndSet(WAITING, ENDED)) {
                return false;
            }
            while (state.get() == INTERRUPTING) {
                Thread.onSpinWait();
            }
            Thread.interrupted();
            return true;
        }
    }
}
