package dev.rein.anthropic;

import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A growable byte array taken from a small shared pool and given back by its user: the event-stream
 * reader's buffers when the reader is closed; a request body when its exchange is closed after a
 * response came (a send that failed leaves it to the collector; see {@link #publisher}). Every call runs on a fresh
 * thread, so thread-local reuse would never hit; a shared pool does. Buffers above 1 MiB are not
 * kept, so a single huge request does not stay in memory.
 */
final class WireBuffer extends OutputStream {
    private static final int POOLED = 256;
    private static final int MAX_KEPT_BYTES = 1 << 20;
    private static final Queue<WireBuffer> FREE = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger FREE_COUNT = new AtomicInteger();

    private byte[] bytes;
    private int length;

    private WireBuffer(int capacity) {
        this.bytes = new byte[capacity];
    }

    /** An empty buffer of at least {@code capacity} bytes. */
    static WireBuffer take(int capacity) {
        WireBuffer buffer = FREE.poll();
        if (buffer == null) {
            return new WireBuffer(capacity);
        }
        FREE_COUNT.decrementAndGet();
        buffer.length = 0;
        buffer.ensure(capacity);
        return buffer;
    }

    /** Gives the buffer back; it must not be used afterwards. */
    void release() {
        if (bytes.length <= MAX_KEPT_BYTES && FREE_COUNT.incrementAndGet() <= POOLED) {
            FREE.offer(this);
        } else if (bytes.length <= MAX_KEPT_BYTES) {
            FREE_COUNT.decrementAndGet();
        }
    }

    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    void length(int length) {
        this.length = length;
    }

    void ensure(int capacity) {
        if (capacity > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
        }
    }

    @Override
    public void write(int b) {
        ensure(length + 1);
        bytes[length++] = (byte) b;
    }

    @Override
    public void write(byte[] from, int offset, int count) {
        ensure(length + count);
        System.arraycopy(from, offset, bytes, length, count);
        length += count;
    }

    /**
     * The content as a request body, sent from this buffer's own array (one buffer per subscription, as often as the
     * client subscribes). The JDK's {@code BodyPublishers.ofByteArray} copies the bytes on every subscription, and the
     * exchange keeps that copy until it ends: a second copy of every request body in flight, alive across the model's
     * whole wait. The buffer must then not be written or released while the client may still read it. A server may
     * answer before it has read the body, so its answer alone does not say that; the JDK's HTTP/1.1 exchange does
     * (Transport forces {@code HTTP_1_1}): {@code Exchange.startSendingBody} (JDK 25; {@code sendRequestBody} in a
     * 2023 copy, the same code) is {@code sendBodyAsync().thenCompose(getResponseAsync)}, so no response is delivered
     * before the connection writer has taken the body's end, and the plain {@code SocketTube} takes more only after the
     * earlier buffers are written to the kernel (over TLS, {@code SSLFlowDelegate} has wrapped them into copies by
     * then). Read: copies from JDK 17-era, a 2023 copy and JDK 25, the same order in each; JDK 21 itself was not read
     * or run (docs/performance-log.md, 2026-12-07, perf5). So the buffer goes back to the pool once a response came,
     * whatever its status ({@link Exchange#close}); {@code RequestBodyReuseTest} (plain HTTP and TLS) fails if a JDK
     * breaks that order. It has run on JDK 25 only.
     */
    HttpRequest.BodyPublisher publisher() {
        return new Body(bytes, length);
    }

    /** {@link #publisher}: the bytes as one buffer wrapping them. */
    private record Body(byte[] content, int length) implements HttpRequest.BodyPublisher {
        @Override
        public long contentLength() {
            return length;
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            AtomicBoolean over = new AtomicBoolean(); // one item; a request from inside onNext finds it over
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    if (over.getAndSet(true)) {
                        return;
                    }
                    if (n <= 0) { // as Reactive Streams rule 3.9 says
                        subscriber.onError(new IllegalArgumentException("request " + n + " items: must be positive"));
                        return;
                    }
                    subscriber.onNext(ByteBuffer.wrap(content, 0, length));
                    subscriber.onComplete();
                }

                @Override
                public void cancel() {
                    over.set(true);
                }
            });
        }
    }

    /** The content as UTF-8 text (tests, messages). */
    String text() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
