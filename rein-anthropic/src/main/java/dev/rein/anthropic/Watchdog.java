package dev.rein.anthropic;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The read and request timeouts of streamed exchanges. The JDK client bounds only the wait for the
 * response headers; after that one virtual thread checks the open exchanges a few times per read
 * timeout and closes the body of one that was silent too long, ran past its whole-call limit, or
 * stayed open after its message was whole ({@link Exchange#settle}),
 * which ends the reader's blocking read with an {@link IOException}. A read costs one
 * {@link System#nanoTime()} store, not a timer per event.
 */
final class Watchdog implements AutoCloseable {
    private final Set<Exchange> open = ConcurrentHashMap.newKeySet();
    private final long readTimeoutNanos;
    /** The read timeout as messages name it. */
    private final String readTimeout;
    private final Thread thread;
    private volatile boolean closed;

    Watchdog(Duration readTimeout) {
        this.readTimeoutNanos = readTimeout.toNanos();
        this.readTimeout = Transport.human(readTimeout);
        long tick = Math.clamp(readTimeout.toMillis() / 4, 10, 1000);
        this.thread = Thread.ofVirtual().name("rein-anthropic-watchdog").start(() -> run(tick));
    }

    Exchange watch(HttpResponse<InputStream> response, Duration requestTimeout, WireBuffer requestBody) {
        Exchange exchange = new Exchange(response, this, System.nanoTime() + requestTimeout.toNanos(), requestBody,
                requestTimeout);
        open.add(exchange);
        return exchange;
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
}
