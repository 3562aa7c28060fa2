package dev.rein.anthropic;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;

/**
 * One open response: status, headers and a body whose reads are watched for the read and request
 * timeouts. Closing it releases the connection (or aborts the exchange when the body was not read
 * to the end).
 */
final class Exchange implements AutoCloseable {
    private final HttpResponse<InputStream> response;
    /** How many leading bytes {@link #firstByteIs} may look at (whitespace before a JSON body). */
    private static final int PEEK = 64;

    private final PushbackInputStream body;
    private final Watchdog watchdog;
    private final long deadline;
    private volatile long lastRead = System.nanoTime();
    private volatile String expired;
    /** System.nanoTime() by which the body must have ended once the message is whole ({@link #settle}). */
    private volatile long settleBy;
    private volatile boolean settling;

    private final WireBuffer requestBody;

    /** The request timeout, for the message when it runs out. */
    private final java.time.Duration requestTimeout;

    Exchange(HttpResponse<InputStream> response, Watchdog watchdog, long deadline, WireBuffer requestBody,
             java.time.Duration requestTimeout) {
        this.response = response;
        this.requestTimeout = requestTimeout;
        this.requestBody = requestBody;
        this.body = new PushbackInputStream(response.body(), PEEK);
        this.watchdog = watchdog;
        this.deadline = deadline;
    }

    int status() {
        return response.statusCode();
    }

    HttpHeaders headers() {
        return response.headers();
    }

    String requestId() {
        return headers().firstValue("request-id").orElse(null);
    }

    /** Reads into {@code buffer}; -1 at the end of the body. */
    int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            int n = body.read(buffer, offset, length);
            lastRead = System.nanoTime();
            return n;
        } catch (IOException e) {
            String reason = expired;
            if (reason != null) {
                throw new java.net.http.HttpTimeoutException(reason);
            }
            throw e;
        }
    }

    /**
     * Whether the first byte of the body that is not whitespace is {@code expected}; the bytes looked
     * at are pushed back, so the body still reads from its start.
     */
    boolean firstByteIs(char expected) throws IOException {
        byte[] seen = new byte[PEEK];
        int n = 0;
        try {
            while (n < PEEK) {
                int read = read(seen, n, 1);
                if (read <= 0) {
                    return false;
                }
                byte b = seen[n++];
                if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                    return b == expected;
                }
            }
            return false;
        } finally {
            body.unread(seen, 0, n);
        }
    }

    /** The whole body (an error reply or a count_tokens answer). */
    byte[] readAll() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = read(buffer, 0, buffer.length)) >= 0; ) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    long lastRead() {
        return lastRead;
    }

    long deadline() {
        return deadline;
    }

    java.time.Duration requestTimeout() {
        return requestTimeout;
    }

    /**
     * The message is whole (message_stop came): the body should end at once, and a server that keeps it
     * open longer than {@code grace} (a proxy that holds the connection) has it ended by the watchdog,
     * instead of holding the call until the read timeout.
     */
    void settle(java.time.Duration grace) {
        settleBy = System.nanoTime() + grace.toNanos();
        settling = true;
    }

    /** Whether the message is whole and the body still open past the grace of {@link #settle}. */
    boolean unsettled(long now) {
        return settling && now - settleBy > 0;
    }

    void expire(String reason) {
        expired = reason;
        try {
            body.close();
        } catch (IOException ignored) {
            // Closing only aborts the exchange; the reader reports the timeout.
        }
    }

    @Override
    public void close() {
        watchdog.release(this);
        try {
            body.close();
        } catch (IOException ignored) {
            // Nothing to release beyond what close already did.
        }
        // The request body is sent from its own bytes (WireBuffer.publisher) and may go back to the pool, to be
        // rewritten at once, whatever the status: a server may answer before it has read the body (and often does),
        // but the JDK's HTTP/1.1 exchange (Transport forces HTTP_1_1) delivers no response before its connection
        // writer has taken the body's end: Exchange.startSendingBody is sendBodyAsync().thenCompose(getResponseAsync)
        // (JDK 25; Exchange.sendRequestBody, the same composition, in a 2023 copy; read: copies from JDK 17-era, a 2023
        // copy and JDK 25, the same order in each, JDK 21 itself not read or run; docs/performance-log.md, perf5),
        // and Http1Exchange completes the body-sent step only when the writer polls the body's end, which the plain
        // SocketTube does only after the earlier buffers are written to the kernel (over TLS, SSLFlowDelegate has
        // wrapped them into copies by then). One exception: when the connection's read side has already failed (the
        // server closed it), Http1Exchange.cancelIfFailed ends the body-sent step early so the header read can report
        // the failure; a response already buffered may then be delivered while the writer still holds part of the
        // body, whose bytes go to a server that has answered and closed. RequestBodyReuseTest fails if this breaks.
        requestBody.release();
    }
}
