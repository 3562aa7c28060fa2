package dev.rein.anthropic;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A growable byte array taken from a small shared pool and given back when the exchange that used
 * it is over: request bodies and the event-stream reader's buffers. Every call runs on a fresh
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

    /** The content as UTF-8 text (tests, messages). */
    String text() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
