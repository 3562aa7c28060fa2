package dev.rein.anthropic;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * HTTP for the Messages API on the JDK's {@link HttpClient}: one client per model, shared by all
 * calls. Why not the SDK's OkHttp client: OkHttp leaves Nagle's algorithm on, so a request body
 * larger than one segment waits for the server's delayed ACK (about 40 ms) on every long-history
 * step, and the SDK builds a new OkHttp client for every request. The JDK client sets
 * {@code TCP_NODELAY} on every connection, multiplexes thousands of exchanges on one selector
 * thread, and aborts an exchange when the calling thread is interrupted, so a call runs on the
 * caller's own thread.
 */
final class Transport implements AutoCloseable {
    /** The API version this module speaks (the one the pinned SDK sends). */
    static final String API_VERSION = "2026-10-21";

    private final ThreadPoolExecutor executor;
    private final HttpClient http;
    private final URI messages;
    private final URI countTokens;
    private final String[] auth;
    private final Duration readTimeout;
    private final Duration requestTimeout;
    private final Watchdog watchdog;
    /**
     * The fixed part of every request to each endpoint (URI, credentials, version, content type,
     * accept), built and checked once: each request copies it ({@link HttpRequest.Builder#copy}
     * copies the headers without checking each name and value again) and adds only what varies.
     * A builder is not thread-safe by its contract, so copies are taken under its lock (see request).
     */
    private final HttpRequest.Builder streamTemplate;
    private final HttpRequest.Builder jsonTemplate;

    Transport(String baseUrl, String apiKey, String authToken, Duration connectTimeout, Duration readTimeout,
              Duration requestTimeout) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.messages = URI.create(base + "/v1/messages");
        this.countTokens = URI.create(base + "/v1/messages/count_tokens");
        this.auth = credentials(apiKey, authToken);
        this.readTimeout = readTimeout;
        this.requestTimeout = requestTimeout;
        this.executor = httpTasks();
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(connectTimeout)
                // HTTP/1.1, one pooled connection per concurrent call: over HTTP/2 the JDK client fails
                // calls beyond the server's MAX_CONCURRENT_STREAMS instead of opening another
                // connection (JDK-8225647), which thousands of concurrent runs would hit.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .executor(executor);
        // As OkHttp did: the JVM's proxy settings (https.proxyHost, ...) apply.
        ProxySelector proxies = ProxySelector.getDefault();
        if (proxies != null) {
            builder.proxy(proxies);
        }
        this.http = builder.build();
        this.watchdog = new Watchdog(readTimeout, headerTimeout());
        this.streamTemplate = template(messages, "text/event-stream");
        this.jsonTemplate = template(countTokens, "application/json");
    }

    /**
     * The headers every request to {@code uri} carries. No {@code HttpRequest.timeout}: the JDK client
     * would wake its selector thread for every request to arm that timer; the watchdog bounds the
     * wait for the headers instead (see send). Never changed after construction; see request for
     * how concurrent calls share it.
     */
    private HttpRequest.Builder template(URI uri, String accept) {
        List<String> headers = new ArrayList<>(8);
        headers.addAll(List.of(auth));
        headers.addAll(List.of("anthropic-version", API_VERSION, "content-type", "application/json", "accept", accept));
        return HttpRequest.newBuilder(uri).headers(headers.toArray(String[]::new));
    }

    /**
     * The credential headers, as the official SDKs send them: {@code x-api-key} for a key and
     * {@code Authorization: Bearer} for a token, both when both are configured (a gateway may
     * check one and the API the other).
     */
    private static String[] credentials(String apiKey, String authToken) {
        List<String> headers = new ArrayList<>(4);
        if (apiKey != null) {
            headers.addAll(List.of("x-api-key", apiKey));
        }
        if (authToken != null) {
            headers.addAll(List.of("authorization", "Bearer " + authToken));
        }
        return headers.toArray(String[]::new);
    }

    /**
     * The pool for the client's own tasks (delivering response data, completing exchanges): as many
     * daemon threads as processors, idle ones ending after a minute. The client's default is an
     * unbounded pool, which under thousands of concurrent calls on a busy CPU grew to over two
     * thousand platform threads, each with a stack of its own.
     */
    private static ThreadPoolExecutor httpTasks() {
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                Thread.ofPlatform().name("rein-anthropic-http-", 0).daemon(true).factory());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** The JDK client, for tests that inspect its connections. */
    HttpClient client() {
        return http;
    }

    /** Exchanges whose body is still open (for tests). */
    int openExchanges() {
        return watchdog.open();
    }

    /**
     * An exchange whose body is an event stream, guarded by the read and request timeouts. The
     * request body goes back to its pool when the exchange is closed (not when the send fails).
     */
    Exchange stream(WireBuffer body, List<String> betas, Map<String, String> extraHeaders)
            throws IOException, InterruptedException {
        return send(streamRequest(body, betas, extraHeaders), body);
    }

    /** The request {@link #stream} sends (package-private for TransportTest). */
    HttpRequest streamRequest(WireBuffer body, List<String> betas, Map<String, String> extraHeaders) {
        return request(streamTemplate, body, betas, extraHeaders);
    }

    /** A plain JSON exchange (count_tokens) with the {@code anthropic-beta} values {@code betas}, guarded by the same timeouts. */
    Exchange json(WireBuffer body, List<String> betas) throws IOException, InterruptedException {
        return send(request(jsonTemplate, body, betas, Map.of()), body);
    }

    private Exchange send(HttpRequest request, WireBuffer body) throws IOException, InterruptedException {
        long started = System.nanoTime(); // the request timeout bounds the whole call, the wait for its headers included
        Watchdog.HeaderWait headers = watchdog.awaitHeaders(headerTimeout());
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException | InterruptedException e) {
            // The body is not given back to the pool: it is sent from its own bytes, and an exchange that failed
            // (a timeout, an interrupt, a broken connection) may end before the connection writer has let go of
            // them; the collector takes it.
            if (headers.end()) { // the exchange failed because the watchdog stopped it
                throw noHeaders();
            }
            throw e;
        } catch (RuntimeException | Error e) { // the wait must end, or the watchdog would interrupt the thread later
            headers.end();
            throw e;
        }
        headers.end(); // the headers came; an interrupt the watchdog sent in the same instant is cleared
        return watchdog.watch(response, started, requestTimeout, body);
    }

    /** Until the response headers arrive, silence is bounded by the read timeout (and the whole call by the request timeout). */
    private Duration headerTimeout() {
        return readTimeout.compareTo(requestTimeout) < 0 ? readTimeout : requestTimeout;
    }

    /** The JDK would say only 'request timed out': name the limit that ran out, so it is clear what to raise. */
    private java.net.http.HttpTimeoutException noHeaders() {
        return new java.net.http.HttpTimeoutException("no response headers within the "
                + (readTimeout.compareTo(requestTimeout) <= 0 ? "read timeout (" + human(readTimeout) + "; readTimeout)"
                : "request timeout (" + human(requestTimeout) + "; requestTimeout)"));
    }

    /** A timeout as people write it: {@code 700 ms}, {@code 30 s}, {@code 10 min}. */
    static String human(Duration d) {
        long millis = d.toMillis();
        if (millis % 60_000 == 0) {
            return millis / 60_000 + " min";
        }
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    private HttpRequest request(HttpRequest.Builder template, WireBuffer body, List<String> betas,
                                Map<String, String> extraHeaders) {
        HttpRequest.Builder request;
        // The JDK documents builders as not thread-safe. OpenJDK's copy only reads the template, but
        // concurrent calls copy the same one, so the copy is taken under the template's lock to stay
        // within the contract on any JDK; copy never blocks, so the lock is held for a moment only.
        synchronized (template) {
            request = template.copy();
        }
        if (!betas.isEmpty()) {
            request.header("anthropic-beta", String.join(",", betas));
        }
        // The caller's trace context (traceparent), so the API call joins the run's trace.
        extraHeaders.forEach(request::header);
        return request.POST(body.publisher()).build();
    }

    @Override
    public void close() {
        watchdog.close();
        // Not close(): it would wait for exchanges still streaming.
        http.shutdownNow();
        executor.shutdownNow();
    }
}
