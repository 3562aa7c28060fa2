package dev.rein.testkit;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * What the fake API servers share ({@link FakeMessagesServer}, {@link dev.rein.testkit.openai.FakeChatCompletionsServer}):
 * an HTTP server on 127.0.0.1 served by virtual threads, every request it received (recorded before it is validated or
 * answered), the real API's request validation switched on or off, and a close that ends every delay and hang.
 *
 * @param <S> the server's own type, which {@link #validateRequests(boolean)} returns for chaining
 */
public abstract class FakeApiServer<S extends FakeApiServer<S>> implements AutoCloseable {
    /** How long {@link #takeRequest()} waits: long enough for a slow CI machine, short enough to fail. */
    public static final Duration DEFAULT_TAKE_TIMEOUT = Duration.ofSeconds(10);

    private final List<RecordedRequest> recorded = new CopyOnWriteArrayList<>();
    private final BlockingQueue<RecordedRequest> untaken = new LinkedBlockingQueue<>();
    private final List<Consumer<RecordedRequest>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicInteger requestCounter = new AtomicInteger();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicBoolean closing = new AtomicBoolean();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpServer http;
    private volatile boolean validation = true;

    /**
     * Binds the server; it serves once the subclass calls {@link #serve(HttpHandler)}.
     *
     * @param port the port, or 0 for an ephemeral one
     * @throws IOException if the port cannot be bound
     */
    protected FakeApiServer(int port) throws IOException {
        // The literal address, not "localhost": the base URL must not depend on name resolution or IPv6.
        http = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 0);
        http.setExecutor(executor);
    }

    /**
     * Starts serving every path with {@code handler}.
     *
     * @param handler the server's handler
     */
    protected final void serve(HttpHandler handler) {
        http.createContext("/", handler);
        http.start();
    }

    /**
     * The base URL clients are given.
     *
     * @return the base URL
     */
    public abstract String baseUrl();

    /**
     * The port the server listens on.
     *
     * @return the port
     */
    public int port() {
        return http.getAddress().getPort();
    }

    /**
     * Turns the real API's request validation on (the default) or off, e.g. to send a request the
     * API would reject and see the scripted reply anyway.
     *
     * @param enabled whether to validate
     * @return this server
     */
    @SuppressWarnings("unchecked")
    public S validateRequests(boolean enabled) {
        this.validation = enabled;
        return (S) this;
    }

    /**
     * Whether requests are validated.
     *
     * @return {@code true} if validation is on
     */
    public boolean validatesRequests() {
        return validation;
    }

    /**
     * All requests received so far, in arrival order.
     *
     * @return an unmodifiable snapshot
     */
    public List<RecordedRequest> requests() {
        return List.copyOf(recorded);
    }

    /**
     * How many requests were received.
     *
     * @return the count
     */
    public int requestCount() {
        return recorded.size();
    }

    /**
     * The most recent request.
     *
     * @return the request
     * @throws IllegalStateException if none was received
     */
    public RecordedRequest lastRequest() {
        List<RecordedRequest> snapshot = requests();
        if (snapshot.isEmpty()) {
            throw new IllegalStateException("no request was received");
        }
        return snapshot.get(snapshot.size() - 1);
    }

    /**
     * The oldest request not taken yet, waiting up to {@link #DEFAULT_TAKE_TIMEOUT} for one to
     * arrive; each request is taken once.
     *
     * @return the request
     * @throws IllegalStateException if none arrives in time
     */
    public RecordedRequest takeRequest() {
        return takeRequest(DEFAULT_TAKE_TIMEOUT);
    }

    /**
     * The oldest request not taken yet, waiting up to {@code timeout} for one to arrive.
     *
     * @param timeout how long to wait
     * @return the request
     * @throws IllegalStateException if none arrives in time, or the waiting thread is interrupted
     */
    public RecordedRequest takeRequest(Duration timeout) {
        try {
            RecordedRequest request = untaken.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
            if (request == null) {
                throw new IllegalStateException("no request arrived within " + timeout);
            }
            return request;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a request", e);
        }
    }

    /**
     * Stops the server: ends every delay and hang with a dropped connection, closes the port and
     * the handler threads. Idempotent.
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed.countDown();
        http.stop(0);
        executor.shutdownNow();
        try {
            // Handlers only write to sockets that are closed by now, so they end promptly.
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Records a request and tells the listeners, before the request is answered.
     *
     * @param request the request received
     */
    protected void record(RecordedRequest request) {
        recorded.add(request);
        untaken.add(request);
        listeners.forEach(listener -> listener.accept(request));
    }

    /**
     * Adds a listener called with each request before it is answered, on the handler's thread;
     * the standalone servers write their record file this way, so a line is on disk before the
     * client sees the answer.
     *
     * @param listener the listener
     */
    protected void addListener(Consumer<RecordedRequest> listener) {
        listeners.add(listener);
    }

    /**
     * The next {@code x-request-id}: {@code req_fake_001}, {@code req_fake_002}, ...
     *
     * @return the id
     */
    protected String nextRequestId() {
        return "req_fake_%03d".formatted(requestCounter.incrementAndGet());
    }

    /**
     * Released when the server closes, which ends every delay and hang.
     *
     * @return the latch
     */
    protected final CountDownLatch closedSignal() {
        return closed;
    }
}
