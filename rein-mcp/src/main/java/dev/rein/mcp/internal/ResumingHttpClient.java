package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The HTTP client of a streamable HTTP session, which resumes SSE streams the server closed
 * early. Protocol revision 2025-11-25 lets a server prime a stream with an event id and then close
 * the connection at any time ("SSE polling"); the client should then reconnect with a {@code GET}
 * carrying {@code Last-Event-ID}, after the {@code retry} time the server set, and the stream goes
 * on there. The SDK's transport skips the priming event and never reconnects such a stream: a
 * request's answer would wait for the call's timeout, and the server's own messages (such as
 * {@code notifications/tools/list_changed}) would stop reaching Rein once the {@code GET} stream
 * for them closed.
 *
 * <p>It watches every response with {@code text/event-stream}, passing the bytes on unchanged.
 * When a request's stream ({@code POST}) ends without a JSON-RPC response but with an event id, it
 * asks for the rest with {@code GET} (the request's headers: session id, protocol version, the
 * configured headers) and hands each message that arrives to {@link #deliverTo}, polling again
 * while the server keeps closing early, until the answer came, the limit passed, or the session
 * closed. The {@code GET} stream for the server's own messages is resumed so for as long as the
 * session lasts and the server accepts it.
 */
final class ResumingHttpClient extends HttpClient {
    /** The wait before reconnecting when the server set no {@code retry} time. */
    private static final long DEFAULT_RETRY_MILLIS = 1000;
    /** The longest wait before reconnecting after failed reconnections, as the TypeScript SDK's client caps it. */
    private static final long MAX_BACKOFF_MILLIS = 30_000;
    /** Reconnections failing in a row (a dropped connection) after which a stream is given up. */
    private static final int MAX_FAILURES = 3;
    /**
     * The most bytes of one message Rein reads from a server over HTTP: the SDK's transport is given
     * it for what it reads, and Rein's own reading of event streams (resumed ones) keeps to it too.
     */
    static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

    private final HttpClient delegate;
    private final Duration limit;
    private volatile Consumer<String> messages = message -> {};
    /**
     * Where the stand-ins for malformed answers go ({@link MalformedAnswer#response}), as the SDK's records: as text they
     * would be read with {@code McpSchema.deserializeJsonRpcMessage}, which logs the text it reads whole (DEBUG).
     */
    private volatile Consumer<io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage> standIns = message -> {};
    /** Told, once, that the stream for the server's own messages brought a message larger than Rein reads. */
    private volatile Runnable onOversized = () -> {};
    private final java.util.concurrent.atomic.AtomicBoolean oversizedSaid = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile boolean closed;
    /** Opened when the session ends, so a resumption waiting before its next GET ends at once, not after its wait. */
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    /** The resumptions running (each a virtual thread), for tests: none once the session ended. */
    private final java.util.concurrent.atomic.AtomicInteger resumptions = new java.util.concurrent.atomic.AtomicInteger();
    private final Set<InputStream> resuming = ConcurrentHashMap.newKeySet();

    private ResumingHttpClient(HttpClient delegate, Duration limit) {
        this.delegate = delegate;
        this.limit = limit;
    }

    /**
     * What is told, the first time only, that a resumed stream for the server's own messages
     * (notifications, requests) brought a message larger than {@link #MAX_MESSAGE_BYTES}, which is
     * dropped: it answers no call to end, so nothing else would say it was lost.
     */
    void onOversized(Runnable said) {
        this.onOversized = said;
    }

    /** Told, once, the first event of the session passed over (see {@link #onSkipped}). */
    private volatile Consumer<String> onSkipped = event -> {};
    private final java.util.concurrent.atomic.AtomicBoolean skippedSaid = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * What is told, the first time only, the data of an event passed over unread: JSON that is no
     * JSON-RPC message ({@code {}}, a log line), or on the stream for the server's own messages an
     * error without an id, which answers no request. Without it such events vanished without a word,
     * where stdio says the first line it skips.
     */
    void onSkipped(Consumer<String> said) {
        this.onSkipped = said;
    }

    private void skipped(JsonNode message) {
        // {} is what a conforming server replays for its priming event (the TypeScript SDK's event store keeps it so): passed
        // over, but nothing to warn of
        if (message.isObject() && message.isEmpty()) {
            return;
        }
        if (skippedSaid.compareAndSet(false, true)) {
            onSkipped.accept(Json.write(message));
        }
    }

    /** Told that the server no longer knows the current session (see {@link #onSessionGone}). */
    private volatile Consumer<String> onSessionGone = why -> {};
    /** The session id the last POST carried: the SDK's current session; null while one is being initialized. */
    private volatile String currentSession;
    /**
     * Sessions whose {@code GET} for the server's own messages was answered 404 or 400: a POST-only
     * route (Express: 'Cannot GET /mcp'), which answers every {@code GET} so while the session lives.
     * A 404 to a {@code GET} resuming one of their streams says the same, not that the session is gone.
     */
    private final java.util.Set<String> withoutGet = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * What is told, with the reason, that the server answered a {@code GET} resuming a stream of
     * the current session with 404: the transports spec has a server answer so for a session it
     * ended or forgot (a restart), and the client then MUST start a new session. Nothing of the
     * SDK sees that {@code GET}, and the answer a resumed request's stream awaited can no longer come.
     */
    void onSessionGone(Consumer<String> told) {
        this.onSessionGone = told;
    }

    /**
     * The instant the caller of the request with a given id (JSON text) gives up at, null when not
     * known; a resumption of that request's stream waits past neither it nor {@link #limit}.
     */
    private volatile java.util.function.Function<String, Instant> deadlines = id -> null;

    /** Where the deadline of a request's caller is looked up (see {@link #deadlines}). */
    void deadlinesFrom(java.util.function.Function<String, Instant> deadlines) {
        this.deadlines = deadlines;
    }

    /**
     * Requests (their ids as JSON text) whose callers stopped waiting, the latest {@link ByRequest#KEPT}:
     * the cancellation protocol has the client send {@code notifications/cancelled} and nothing more
     * for them, so their streams are resumed no more (a stream may end after its call did).
     */
    private final java.util.Map<String, Boolean> ended = new java.util.LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) {
            return size() > ByRequest.KEPT;
        }
    };
    /** The resumed stream being read for each request awaiting its answer, by the request's id as JSON text. */
    private final java.util.Map<String, InputStream> readingFor = new ConcurrentHashMap<>();
    /**
     * Opened when a request's caller stops waiting, by the request's id as JSON text, so its resumption waiting before the
     * next GET (a backoff, a Retry-After) ends at once, not after its wait.
     */
    private final java.util.Map<String, java.util.concurrent.CountDownLatch> wakers = new ConcurrentHashMap<>();
    /**
     * The GET each resumption has sent and is awaiting the response headers of, by the request's id as JSON text (the
     * stream for the server's own messages under ""): cancelled, so aborted, when the call ends or the session does. Until
     * its headers come there is no stream in {@link #readingFor} to close, and a server holding the GET held the thread.
     */
    private final java.util.Map<String, CompletableFuture<?>> sendingFor = new ConcurrentHashMap<>();

    /**
     * Tells that the caller of the request with id {@code id} (JSON text) stopped waiting for it (it
     * was answered, given up, cancelled): a resumption of its stream ends, closing a {@code GET} it
     * holds open, and none begins for it.
     */
    void requestEnded(String id) {
        synchronized (ended) {
            ended.put(id, Boolean.TRUE);
        }
        java.util.concurrent.CountDownLatch waiting = wakers.get(id);
        if (waiting != null) {
            waiting.countDown();
        }
        CompletableFuture<?> sending = sendingFor.get(id);
        if (sending != null) {
            sending.cancel(true);
        }
        InputStream open = readingFor.get(id);
        if (open != null) {
            try {
                open.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private boolean hasEnded(String id) {
        synchronized (ended) {
            return ended.containsKey(id);
        }
    }

    /** Where the messages of resumed streams go, as JSON text. */
    void deliverTo(Consumer<String> messages) {
        this.messages = messages;
    }

    /** Where the stand-ins for malformed answers go, as the SDK's records, in order with the messages ({@link #deliverTo}). */
    void deliverStandInsTo(Consumer<io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage> standIns) {
        this.standIns = standIns;
    }

    /** Stops every resumption (the session ended). */
    void stopResuming() {
        closed = true;
        stopped.countDown();
        wakers.values().forEach(java.util.concurrent.CountDownLatch::countDown);
        sendingFor.values().forEach(sending -> sending.cancel(true));
        for (InputStream stream : resuming) {
            try {
                stream.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        noteSession(request);
        return following(request, watched(request, handler), 0).thenApply(response -> accepted(request, response));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        noteSession(request);
        return following(request, watched(request, handler), 0).thenApply(response -> accepted(request, response));
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        noteSession(request);
        try {
            return following(request, watched(request, handler), 0).thenApply(response -> accepted(request, response)).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Notes the session a POST of the SDK's goes to (none for an initialize, which opens a new one). */
    private void noteSession(HttpRequest request) {
        if ("POST".equals(request.method())) {
            currentSession = request.headers().firstValue("Mcp-Session-Id").orElse(null);
        }
    }

    /**
     * {@code response} as the SDK should see it. A notification or a response posted is answered 202
     * without a body, the transports spec says, but servers on web frameworks often answer 200 with
     * text ("OK"), which the SDK fails on as an unknown media type (on notifications/initialized, the
     * whole start). Any 2xx accepted it and no answer is to be read from it, so the SDK is shown the
     * 202 without content it expects; the body is still drained. A request's answer is left as it is.
     */
    private <T> HttpResponse<T> accepted(HttpRequest request, HttpResponse<T> response) {
        if ("GET".equals(request.method()) && (response.statusCode() == 400 || response.statusCode() == 404)) {
            // The GET for the server's own messages, which a server without such a stream answers 405. A POST-only
            // route answers 404 (Express: 'Cannot GET /mcp') or 400 instead, which the SDK takes for a session the
            // server forgot and ends the session under the start. Said so, 405. A session really forgotten is
            // found out by the next POST, which a 404 answers too. The session is noted: such a route answers a
            // GET resuming a stream 404 as well, which then says nothing of the session (see resume). A 405 is
            // not noted: it says only that there is no stream for the server's own messages, and a server may
            // still resume a request's stream from its Last-Event-ID.
            if (request.headers().firstValue("Last-Event-ID").isEmpty()) {
                request.headers().firstValue("Mcp-Session-Id").ifPresent(withoutGet::add);
            }
            return as(405, response);
        }
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT);
        if (!"POST".equals(request.method()) || response.statusCode() / 100 != 2 || response.statusCode() == 202
                || type.isBlank() || type.contains("json") || type.contains("text/event-stream") || requestId(request) != null) {
            return response;
        }
        return as(202, response);
    }

    /** {@code response} with status {@code status} and no content headers; its body is still there to be drained. */
    private static <T> HttpResponse<T> as(int status, HttpResponse<T> response) {
        java.net.http.HttpHeaders headers = java.net.http.HttpHeaders.of(response.headers().map(),
                (name, value) -> !name.equalsIgnoreCase("Content-Type") && !name.equalsIgnoreCase("Content-Length"));
        return new HttpResponse<>() {
            @Override
            public int statusCode() {
                return status;
            }

            @Override
            public HttpRequest request() {
                return response.request();
            }

            @Override
            public Optional<HttpResponse<T>> previousResponse() {
                return response.previousResponse();
            }

            @Override
            public java.net.http.HttpHeaders headers() {
                return headers;
            }

            @Override
            public T body() {
                return response.body();
            }

            @Override
            public Optional<javax.net.ssl.SSLSession> sslSession() {
                return response.sslSession();
            }

            @Override
            public java.net.URI uri() {
                return response.uri();
            }

            @Override
            public Version version() {
                return response.version();
            }
        };
    }

    /** Redirects followed for one request at most, as browsers bound them too. */
    private static final int MAX_REDIRECTS = 5;

    /**
     * Sends {@code request}, following a 307 or 308 redirect to the same server (scheme, host and
     * port): the request is sent again unchanged, method, body and headers (session id, the
     * configured headers) included, as those statuses ask, so an endpoint moved from {@code /mcp} to
     * {@code /mcp/} (as ASGI mounts answer) works. Any other redirect fails with {@link NotFollowed}
     * naming where it pointed: to another server the configured headers, often a token, must not
     * go, and a 301/302/303 turns a POST into a GET, which no MCP endpoint answers.
     */
    private <T> CompletableFuture<HttpResponse<T>> following(HttpRequest request, HttpResponse.BodyHandler<T> handler, int hops) {
        return following(request, handler, hops, sent -> {});
    }

    /**
     * As {@link #following(HttpRequest, HttpResponse.BodyHandler, int)}, telling {@code onSent} each exchange sent (the
     * request, then each redirect followed), whose cancelling aborts it: a resumption's {@code GET} still waiting for its
     * response headers is ended so when its call ends.
     */
    private <T> CompletableFuture<HttpResponse<T>> following(HttpRequest request, HttpResponse.BodyHandler<T> handler, int hops,
                                                             Consumer<CompletableFuture<?>> onSent) {
        java.util.concurrent.atomic.AtomicReference<java.net.URI> target = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<BadSessionId> badSession = new java.util.concurrent.atomic.AtomicReference<>();
        HttpResponse.BodyHandler<T> unlessRedirected = info -> {
            String session = info.headers().firstValue("Mcp-Session-Id").orElse(null);
            if (session != null && !BadSessionId.visibleAscii(session)) {
                // Refused before its body is read: the SDK could not send it back (or an intermediary would change it).
                badSession.set(new BadSessionId());
                @SuppressWarnings("unchecked") // no body is read: the request fails
                HttpResponse.BodySubscriber<T> none = (HttpResponse.BodySubscriber<T>) HttpResponse.BodySubscribers.discarding();
                return none;
            }
            if (info.statusCode() / 100 != 3 || info.statusCode() == 304) {
                return handler.apply(info);
            }
            target.set(info.headers().firstValue("Location").map(l -> resolve(request.uri(), l)).orElse(null));
            @SuppressWarnings("unchecked") // no body is read from a redirect: the request is sent again, or fails
            HttpResponse.BodySubscriber<T> none = (HttpResponse.BodySubscriber<T>) HttpResponse.BodySubscribers.discarding();
            return none;
        };
        CompletableFuture<HttpResponse<T>> sent = delegate.sendAsync(request, unlessRedirected);
        onSent.accept(sent);
        return sent.thenCompose(response -> {
            if (badSession.get() != null) {
                return CompletableFuture.failedFuture(badSession.get());
            }
            if (response.statusCode() / 100 != 3 || response.statusCode() == 304) {
                return CompletableFuture.completedFuture(response);
            }
            java.net.URI to = target.get();
            boolean sameServer = to != null && request.uri().getScheme().equalsIgnoreCase(to.getScheme())
                    && request.uri().getHost().equalsIgnoreCase(String.valueOf(to.getHost())) && port(request.uri()) == port(to);
            if ((response.statusCode() == 307 || response.statusCode() == 308) && sameServer && hops < MAX_REDIRECTS) {
                return following(HttpRequest.newBuilder(request, (name, value) -> true).uri(to).build(), handler, hops + 1, onSent);
            }
            return CompletableFuture.failedFuture(new NotFollowed(response.statusCode(), to, sameServer));
        });
    }

    private static java.net.URI resolve(java.net.URI base, String location) {
        try {
            return base.resolve(location.trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static int port(java.net.URI uri) {
        return uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    /** A session id that is not visible ASCII, which the transports spec forbids, in a person's words (never the id itself). */
    static final class BadSessionId extends IOException {
        BadSessionId() {
            super("it sent an Mcp-Session-Id header with a character that is not visible ASCII, where MCP's streamable HTTP"
                    + " transport allows only visible ASCII (0x21 to 0x7E: no space, control or non-ASCII character), so it could"
                    + " not be sent back with the requests that follow");
        }

        static boolean visibleAscii(String value) {
            return value.chars().allMatch(c -> c >= 0x21 && c <= 0x7E);
        }
    }

    /** A redirect Rein does not follow, and why, in a person's words. */
    static final class NotFollowed extends IOException {
        NotFollowed(int status, java.net.URI to, boolean sameServer) {
            super("it answered HTTP " + status + ", a redirect " + (to == null ? "without a valid Location"
                    : !sameServer ? "to " + shown(to) + " on another server, where Rein does not send the server's \"headers\";"
                            + " if that address is right, set \"url\" to it"
                    : status != 307 && status != 308 ? "to " + shown(to) + ", which Rein does not follow (a " + status
                            + " turns the POST into a GET); set \"url\" to that address"
                    : "to " + shown(to) + " after " + MAX_REDIRECTS + " redirects already; set \"url\" to the endpoint's address"));
        }

        /** Scheme, host, port and path only: a query or user info may carry a token. */
        private static String shown(java.net.URI uri) {
            return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                    + (uri.getRawPath() == null ? "" : uri.getRawPath());
        }
    }

    private <T> HttpResponse.BodyHandler<T> watched(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        if (!"POST".equals(request.method()) && !"GET".equals(request.method())) {
            return handler;
        }
        return info -> {
            HttpResponse.BodySubscriber<T> body = handler.apply(info);
            if ("POST".equals(request.method()) && info.statusCode() >= 400) {
                JsonNode id = requestId(request);
                String method = id == null ? method(request) : null;
                if (method != null) {
                    refusedNotifications.put(method, info.statusCode());
                } else {
                    refusedStatuses.put(Json.write(id), info.statusCode());
                    // A 503 or 429 may say when to come back (RFC 9110 section 10.2.3); read now, as a date counts from now.
                    String header = info.headers().firstValue("Retry-After").orElse("");
                    long retryAfter = retryAfterMillis(header, Instant.now());
                    if (id != null && retryAfter > 0) {
                        retryAfters.put(Json.write(id), retryAfter);
                    } else if (id != null && !header.isBlank()) {
                        // 0, a date past or words: no wait, but said as it was, not as no Retry-After at all
                        noWaitRetryAfters.put(Json.write(id), header);
                    }
                }
                return new Refused<>(body, id, true);
            }
            if ("POST".equals(request.method()) && info.statusCode() / 100 == 2) {
                JsonNode message = body(request); // read once for all below
                JsonNode id = message != null && message.has("method") && message.hasNonNull("id") ? message.get("id") : null;
                HttpResponse.BodySubscriber<T> read = answerOf(info, request, body, id);
                // Any 2xx to a ping whose body ends says the server took it and is alive, whatever that body is (none, an
                // empty one); the status line alone does not: a hung server may send it and never the rest.
                return id != null && "ping".equals(message.path("method").asText())
                        ? new Ended<>(read, () -> answeredPings.put(Json.write(id), info.statusCode())) : read;
            }
            return eventStream(info) ? new Watched<>(body, request) : body;
        };
    }

    /** How the 2xx answer to a POST is read: {@code id} is the JSON-RPC id of the request it carries, null for none. */
    private <T> HttpResponse.BodySubscriber<T> answerOf(HttpResponse.ResponseInfo info, HttpRequest request,
                                                        HttpResponse.BodySubscriber<T> body, JsonNode id) {
        if (id == null) {
            return eventStream(info) ? new Watched<>(body, request) : body;
        }
        // A request is answered with JSON or an event stream; without a body its answer never comes (the SDK takes it as
        // sent and waits), so it ends now, as a response stream ending unanswered does. A 204 never has a body (RFC 9110
        // section 15.3.5), whatever its Content-Type says, so it is told first.
        if (info.statusCode() == 204) {
            return new Unanswered<>(body, id, 204);
        }
        if (json(info)) {
            // Kept to read an error without an id, which answers this POST's request (see idlessErrorOf).
            return new Refused<>(body, id, false);
        }
        if (!eventStream(info) && (info.statusCode() == 202 || info.headers().firstValueAsLong("Content-Length").orElse(-1) == 0)) {
            return new Unanswered<>(body, id, info.statusCode());
        }
        return eventStream(info) ? new Watched<>(body, request) : body;
    }

    private static boolean json(HttpResponse.ResponseInfo info) {
        return info.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT).contains("json");
    }

    /** Passes a body on unchanged, running {@code ended} when it completes without error, before its reader hears of it. */
    static final class Ended<T> extends ForwardingBodySubscriber<T> {
        private final Runnable ended;

        Ended(HttpResponse.BodySubscriber<T> downstream, Runnable ended) {
            super(downstream);
            this.ended = ended;
        }

        @Override
        public void onComplete() {
            try {
                ended.run();
            } finally {
                downstream.onComplete(); // the reader must hear the end whatever the note did
            }
        }
    }

    /** The JSON-RPC error of the last error status a POST was answered with, as "JSON-RPC error CODE: MESSAGE"; else null. */
    private volatile String refusal;

    /**
     * What the server said when it last refused a request with an HTTP error status: the JSON-RPC
     * error (without an id) the transports spec lets such an answer carry, which says why (the
     * TypeScript SDK's 'Invalid Host header'); null when it sent none. The SDK keeps only the status.
     */
    String refusal() {
        return refusal;
    }

    /**
     * The HTTP error status each notification method was last refused with; forgotten once read.
     * Bounded by the notification methods a client posts (initialized, cancelled and the like).
     */
    private final java.util.Map<String, Integer> refusedNotifications = new ConcurrentHashMap<>();

    /**
     * The HTTP error status the server last refused a notification of {@code method} with (such as
     * {@code notifications/initialized}), and forgets it; null when it refused none. The SDK names
     * only the status, or for a 400 or 404 not even that (it takes them for a forgotten session),
     * and never which message was refused.
     */
    Integer refusedNotification(String method) {
        return refusedNotifications.remove(method);
    }

    /** What the server said when it refused the request with JSON-RPC id {@code id}, as {@link #refusal()}; forgotten once read. */
    private final ByRequest<String> refusals = new ByRequest<>();
    /** The HTTP error status each request was refused with, by its JSON-RPC id; forgotten once read. */
    private final ByRequest<Integer> refusedStatuses = new ByRequest<>();

    /**
     * The HTTP error status the server refused the request with JSON-RPC id {@code id} with, and
     * forgets it; null when it refused none. The SDK names no status of a 400 or 404 to a request
     * with a session id: it takes both for a forgotten session.
     */
    Integer refusedStatusOf(Object id) {
        return id == null ? null : refusedStatuses.take(Json.write(Json.mapper().valueToTree(id)));
    }

    /** The 2xx status of each ping's POST whose body ended without error, by its JSON-RPC id; forgotten once read. */
    private final ByRequest<Integer> answeredPings = new ByRequest<>();

    /**
     * Whether the server answered the POST of the {@code ping} with JSON-RPC id {@code id} with a 2xx status and its
     * body ended without error, and forgets it: it took the ping, so it is alive, even when the answer has no body the
     * SDK can read as a result (a 204, or a 200 whose body is empty). A 2xx whose body never ends is no answer.
     */
    boolean pingAnswered(Object id) {
        return id != null && answeredPings.take(Json.write(Json.mapper().valueToTree(id))) != null;
    }

    /** The waits the Retry-After of an HTTP error status refusing a request asked for, in milliseconds, by its JSON-RPC id. */
    private final ByRequest<Long> retryAfters = new ByRequest<>();

    /**
     * How long the server asked with {@code Retry-After} to wait before trying the request with
     * JSON-RPC id {@code id} again, when it refused it with an HTTP error status (a 503 or 429), in
     * milliseconds, and forgets it; 0 when it asked nothing. The SDK keeps only the status.
     */
    long retryAfterOf(Object id) {
        Long wait = id == null ? null : retryAfters.take(Json.write(Json.mapper().valueToTree(id)));
        return wait == null ? 0 : wait;
    }

    /** The Retry-After headers, as sent, of HTTP error statuses that asked for no wait (0, a date past, words), by JSON-RPC id. */
    private final ByRequest<String> noWaitRetryAfters = new ByRequest<>();

    /**
     * The {@code Retry-After} header, as sent, of the HTTP error status that refused the request with JSON-RPC id
     * {@code id} when it asked for no wait ({@code 0}, a date already past, or something neither seconds nor a date),
     * and forgets it; null when there was none or it asked for a wait ({@link #retryAfterOf}).
     */
    String noWaitRetryAfterOf(Object id) {
        return id == null ? null : noWaitRetryAfters.take(Json.write(Json.mapper().valueToTree(id)));
    }

    /** JSON-RPC errors without an id that answered a POST, by the id of its request; forgotten once read. */
    private final ByRequest<String> idlessErrors = new ByRequest<>();

    /**
     * The JSON-RPC error without an id ({@code "id": null}, or none) that answered the POST of the
     * request with id {@code id}, as "JSON-RPC error CODE: MESSAGE"; null when none did. JSON-RPC
     * answers a request the server could not read so, and the SDK refuses such an answer as a
     * message it cannot read, but over streamable HTTP it answers that POST's request.
     */
    String idlessErrorOf(Object id) {
        return id == null ? null : idlessErrors.take(Json.write(Json.mapper().valueToTree(id)));
    }

    /** The failures that cut off a request's response stream before its answer, by the id of its request; forgotten once read. */
    private final ByRequest<Throwable> cutOff = new ByRequest<>();

    /**
     * Why the response stream of the request with JSON-RPC id {@code id} was cut off before its
     * answer (a broken TLS connection, a reset), which nothing could resume; null when it was not
     * cut off so (the server closed it, or it was answered).
     */
    Throwable cutOffBy(Object id) {
        return id == null ? null : cutOff.take(Json.write(Json.mapper().valueToTree(id)));
    }

    /** What the server said, as {@link #refusal()}, when it refused the request with JSON-RPC id {@code id}; null when nothing. */
    String refusalOf(Object id) {
        return id == null ? null : refusals.take(Json.write(Json.mapper().valueToTree(id)));
    }

    /** Passes an empty answer to a request on, then gives the request its error: no answer will come. */
    private final class Unanswered<T> extends ForwardingBodySubscriber<T> {
        private final JsonNode id;
        private final int status;

        Unanswered(HttpResponse.BodySubscriber<T> downstream, JsonNode id, int status) {
            super(downstream);
            this.id = id;
            this.status = status;
        }

        @Override
        public void onComplete() {
            downstream.onComplete();
            if (!closed) {
                ObjectNode error = Json.object().put("jsonrpc", "2.0").set("id", id);
                error.putObject("error").put("code", -32603).put("message", "the request was answered without a body")
                        .putObject("data").put(UNANSWERED, true).put(NO_BODY, status);
                messages.accept(Json.write(error));
            }
        }
    }

    /** The key of the HTTP status an unanswered request's error carries when the request was answered without a body. */
    static final String NO_BODY = "dev.rein/no-body";

    /**
     * Passes an error answer's body (or a request's JSON answer) on unchanged, reading its JSON-RPC
     * error as it passes and holding none of it: a stack trace in its data may be megabytes.
     */
    private final class Refused<T> extends ForwardingBodySubscriber<T> {
        /** The id of the request refused; null for a notification or a response. */
        private final JsonNode id;
        /** True for an HTTP error status; false for a 2xx JSON answer to a request, read for its id and error. */
        private final boolean errorStatus;
        private final AnswerScan scan = new AnswerScan();

        Refused(HttpResponse.BodySubscriber<T> downstream, JsonNode id, boolean errorStatus) {
            super(downstream);
            this.id = id;
            this.errorStatus = errorStatus;
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
            for (ByteBuffer buffer : item) {
                scan.feed(buffer);
            }
            downstream.onNext(item);
        }

        @Override
        public void onComplete() {
            if (errorStatus) {
                // Not JSON, or no error in it: then the status alone says what there is to say.
                if (scan.error() != null) {
                    refused(scan.error());
                }
                downstream.onComplete();
                return;
            }
            JsonNode answered = scan.answerId();
            if (answered != null && !answered.equals(id) && !closed) {
                // An answer with another id than the request's (a server's bug) answers nothing the SDK waits for: the
                // request ends now, naming it, as when a request's event stream ends after one (Watched).
                messages.accept(Json.write(unanswered(id, answered)));
            }
            if (scan.idlessError() != null) {
                idlessErrors.put(Json.write(id), scan.idlessError());
            }
            String malformed = scan.malformedWhy();
            if (malformed != null) {
                // Before the SDK reads the body, which it cannot: the request ends with what the server sent.
                standIns.accept(MalformedAnswer.response(scan.id(), malformed, Quoted.jsonEscapes(scan.malformedQuote())));
            }
            downstream.onComplete();
        }

        private void refused(String said) {
            refusal = said;
            if (id != null) {
                refusals.put(Json.write(id), said);
            }
        }
    }

    /** {@code message} as "JSON-RPC error CODE: MESSAGE" when it is a JSON-RPC error without an id ({@code null} or none); else null. */
    private static String idlessError(JsonNode message) {
        if (message == null || !message.isObject() || message.has("method")) {
            return null;
        }
        JsonNode id = message.path("id");
        JsonNode error = message.path("error");
        return (id.isNull() || id.isMissingNode()) && error.path("message").isTextual()
                ? "JSON-RPC error " + error.path("code").asText("?") + ": " + error.path("message").asText() : null;
    }

    private static boolean eventStream(HttpResponse.ResponseInfo info) {
        return info.statusCode() / 100 == 2
                && info.headers().firstValue("Content-Type").orElse("").toLowerCase().contains("text/event-stream");
    }

    /** Passes an event stream on unchanged, noting its last event id and whether a request's answer came. */
    private final class Watched<T> extends ForwardingBodySubscriber<T> {
        private final HttpRequest request;
        /** The id of the request a POST carries, whose answer the stream is to bring; null for a GET or a notification. */
        private final JsonNode id;
        private volatile boolean answered;
        /** The id of an answer the stream brought to another request than its own; null when none came. */
        private volatile JsonNode otherId;
        /** What cut the stream off; null when it ended otherwise. */
        private volatile Throwable failure;
        private final SseEvents events = new SseEvents(this::event, MAX_MESSAGE_BYTES);
        /** Strips a byte order mark the stream starts with for the SDK, whose parser reads it as part of the first field's name. */
        private final LeadingBom bom = new LeadingBom();
        private final BatchSplitter batches;

        Watched(HttpResponse.BodySubscriber<T> downstream, HttpRequest request) {
            super(downstream);
            this.request = request;
            this.id = "POST".equals(request.method()) ? requestId(request) : null;
            // On the GET stream for the server's own messages an error without an id answers no request; the SDK
            // cannot read it and ended the stream on it, losing the messages after it (a tools/list_changed). Left
            // out, as an answer to no request is, and as on a resumed stream (deliverResumed).
            // An event whose data is JSON but no JSON-RPC message ({} as server-everything's event store replays a priming
            // event, one stream's after another's) is left out on every stream, as the TypeScript SDK's client passes it
            // over: the SDK ended the stream on it, and a tools/list_changed or the answer after it was lost.
            // A malformed answer carrying a request's id is left out too, and its stand-in handed on (event): the SDK
            // cannot read it, and the request waited for its timeout.
            boolean own = "GET".equals(request.method());
            this.batches = new BatchSplitter(message -> {
                if (MalformedAnswer.is(message)) {
                    return true;
                }
                boolean passedOver = StdioTransport.notJsonRpc(message) || own && idlessError(message) != null;
                if (passedOver) {
                    skipped(message);
                }
                return passedOver;
            });
        }

        private void event(String data) {
            List<JsonNode> ids = answerIds(data);
            // A request's stream is answered by the answer with its id: one with another id (a server's bug) answers
            // nothing the SDK waits for, and the stream ending after it must still end the request now.
            answered |= id == null ? !ids.isEmpty() : ids.contains(id);
            if (id != null && !ids.isEmpty() && !ids.contains(id)) {
                otherId = ids.getFirst();
            }
            if (data.contains("\"error\"")) { // a malformed answer has one; others are not read again
                List<JsonNode> batch = BatchSplitter.messages(data);
                for (JsonNode message : batch != null ? batch : parsed(data)) {
                    var standIn = MalformedAnswer.response(message, Json.write(message));
                    if (standIn != null) {
                        standIns.accept(standIn); // answers the request when its id is the request's (above)
                    }
                }
            }
            if ("POST".equals(request.method()) && data.contains("error")) {
                // An error without an id in a request's stream answers that request (the SDK cannot read it), as in a JSON answer.
                try {
                    String idless = idlessError(Json.mapper().readTree(data));
                    JsonNode id = idless == null ? null : requestId(request);
                    if (id != null) {
                        idlessErrors.put(Json.write(id), idless);
                        answered = true;
                    }
                } catch (IOException e) {
                    // not JSON: the SDK says so
                }
            }
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
            item.forEach(events::feed); // SseEvents strips the mark itself
            downstream.onNext(batches.split(bom.strip(item)));
        }

        @Override
        public void onError(Throwable throwable) {
            failure = throwable;
            downstream.onError(throwable);
            // A stream cut off (a dropped connection) is resumed as one the server closed: the SDK resumes neither, a
            // request's stream nor the one for the server's own messages (the TypeScript SDK's client resumes both).
            ended();
        }

        @Override
        public void onComplete() {
            List<ByteBuffer> rest = bom.end(); // a stream of one or two bytes that began as a mark does: passed on as it came
            if (!rest.isEmpty()) {
                downstream.onNext(batches.split(rest));
            }
            downstream.onComplete();
            ended();
        }

        private void ended() {
            String last = events.lastEventId();
            if (!answered && last != null && !last.isEmpty() && !closed) {
                boolean request = "POST".equals(this.request.method());
                Thread.ofVirtual().name("rein-mcp-resume").start(() -> resume(this.request, last, events.retryMillis(), request));
            } else if ("GET".equals(request.method()) && !closed && events.messages() > 0) {
                // The stream for the server's own messages, closed without an event id to resume it from (by the
                // server, or a proxy's idle timeout): a new one is opened, as the TypeScript SDK's client does, so a
                // later notifications/tools/list_changed still arrives. One that brought nothing is not: a server that
                // answers the GET with an empty stream would be polled for nothing.
                Thread.ofVirtual().name("rein-mcp-reopen").start(() -> resume(this.request, null, events.retryMillis(), false));
            } else if (!answered && !closed && "POST".equals(request.method())) {
                // Nothing can resume it (a crash, a cut connection): the request's answer will never come,
                // so it ends now rather than at its timeout, as a crash of a stdio server does.
                JsonNode id = requestId(request);
                if (id != null) {
                    if (failure != null) {
                        cutOff.put(Json.write(id), failure); // what cut it off says more than that it ended (a broken TLS connection)
                    }
                    messages.accept(Json.write(unanswered(id, otherId)));
                }
            }
        }
    }

    /**
     * Reconnects with GET from {@code lastEventId} until the session closed or the server refuses,
     * and for a request's stream ({@code awaitsAnswer}) until the answer came or time is up. A null
     * {@code lastEventId} (the stream for the server's own messages, closed without one) opens a new
     * stream; one that brings neither a message nor an event id counts as a failed reconnection.
     * A request's stream the server refuses to resume, or whose reconnections all fail, ends the
     * request at once ({@link #notResumed}).
     */
    private void resume(HttpRequest original, String lastEventId, Long retryMillis, boolean awaitsAnswer) {
        resumptions.incrementAndGet();
        try {
            resumeUntilDone(original, lastEventId, retryMillis, awaitsAnswer);
        } finally {
            resumptions.decrementAndGet();
        }
    }

    /** How many resumptions are running (or waiting before their next {@code GET}). */
    int resumptions() {
        return resumptions.get();
    }

    /**
     * The wait before the next {@code GET}: the backoff, or longer when a {@code Retry-After} asks so.
     * A request's stream is bounded by the call's time (checked by the caller); the stream for the
     * server's own messages has none, so there a Retry-After counts only up to {@link #MAX_BACKOFF_MILLIS}:
     * a 503 with {@code Retry-After: 86400} must not hold a thread and the session's client for a day.
     */
    static Duration nextWait(long backoffMillis, long retryAfterMillis, boolean awaitsAnswer) {
        long wait = Math.max(backoffMillis, retryAfterMillis);
        return Duration.ofMillis(awaitsAnswer ? wait : Math.min(wait, Math.max(backoffMillis, MAX_BACKOFF_MILLIS)));
    }

    private void resumeUntilDone(HttpRequest original, String lastEventId, Long retryMillis, boolean awaitsAnswer) {
        Instant until = awaitsAnswer ? Instant.now().plus(limit) : Instant.MAX;
        JsonNode awaited = awaitsAnswer ? requestId(original) : null;
        String key = awaited == null ? null : Json.write(awaited);
        java.util.concurrent.CountDownLatch wake = key == null ? stopped : new java.util.concurrent.CountDownLatch(1);
        if (key != null) {
            wakers.put(key, wake);
        }
        try {
            resumeUntilDone(original, lastEventId, retryMillis, awaitsAnswer, until, awaited, key, wake);
        } finally {
            if (key != null) {
                wakers.remove(key, wake);
            }
        }
    }

    private void resumeUntilDone(HttpRequest original, String lastEventId, Long retryMillis, boolean awaitsAnswer, Instant until,
                                 JsonNode awaited, String key, java.util.concurrent.CountDownLatch wake) {
        String last = lastEventId;
        Long retry = retryMillis;
        boolean[] answered = {false};
        int failures = 0;
        int passing = 0; // the status of the last GET answered with a passing error (5xx, 429, 408); 0 when the last was not
        long retryAfter = 0; // the Retry-After of that answer, in milliseconds
        String sendingKey = key == null ? "" : key;
        while (!closed && !answered[0] && failures < MAX_FAILURES) {
            if (key != null && hasEnded(key)) {
                return; // its caller stopped waiting: nothing more is asked of the server for it
            }
            try {
                // The protocol makes waiting the server's retry time a MUST; past the limit, the call has given up.
                // After failed reconnections it doubles (a server being redeployed, a proxy restarting), as the
                // TypeScript SDK's client backs off, so a short outage is outlasted and a down server not polled each second.
                long base = retry == null ? DEFAULT_RETRY_MILLIS : retry;
                long backoff = failures == 0 ? base : Math.max(base, Math.min(MAX_BACKOFF_MILLIS, base << failures));
                Duration wait = nextWait(backoff, retryAfter, awaitsAnswer);
                // The call's own deadline bounds every wait too: the stream may have ended when the call had used most of
                // its time, and a wait past it ended the call with a plain timeout, not saying what the server asked.
                Instant callEnds = key == null ? null : deadlines.apply(key);
                Instant bound = callEnds != null && callEnds.isBefore(until) ? callEnds : until;
                if (awaitsAnswer && !Instant.now().isBefore(bound)) {
                    return; // the caller has given up already (and said so to the server): nobody awaits what comes
                }
                if (awaitsAnswer && Instant.now().plus(wait).isAfter(bound)) {
                    if (passing != 0 && !closed) {
                        // The answer cannot come before the call gives up: it ends now, not at its timeout.
                        notResumed(original, passing, false, failures, retryAfter > backoff ? retryAfter : 0);
                    }
                    return;
                }
                // Not a bare sleep: the session's end opens the latch, and so does the end of the call awaiting the answer, so
                // this ends at once rather than after the wait.
                if (wake.await(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS) || closed) {
                    return; // the session ended, or the caller stopped waiting, while this waited
                }
                if (key != null && (hasEnded(key) || !Instant.now().isBefore(bound))) {
                    return; // the caller stopped waiting while this waited
                }
                HttpRequest.Builder builder = HttpRequest.newBuilder(original, (name, value) -> !name.equalsIgnoreCase("Content-Type")
                                && !name.equalsIgnoreCase("Accept") && !name.equalsIgnoreCase("Last-Event-ID"))
                        .GET()
                        .header("Accept", "text/event-stream");
                HttpRequest get = (last == null ? builder : builder.header("Last-Event-ID", last)).build();
                HttpResponse<InputStream> response;
                java.util.concurrent.atomic.AtomicReference<CompletableFuture<?>> mine = new java.util.concurrent.atomic.AtomicReference<>();
                try {
                    response = following(get, HttpResponse.BodyHandlers.ofInputStream(), 0, sent -> {
                        mine.set(sent);
                        sendingFor.put(sendingKey, sent);
                        if (closed || key != null && hasEnded(key)) {
                            sent.cancel(true); // ended as it went out: requestEnded or stopResuming may have missed it
                        }
                    }).get();
                } finally {
                    CompletableFuture<?> sent = mine.get();
                    if (sent != null) {
                        sendingFor.remove(sendingKey, sent);
                    }
                }
                try (InputStream in = response.body()) {
                    resuming.add(in);
                    if (key != null) {
                        readingFor.put(key, in);
                        if (hasEnded(key)) {
                            return; // ended as this GET went out: not read (requestEnded may have missed the stream)
                        }
                    }
                    String session = get.headers().firstValue("Mcp-Session-Id").orElse(null);
                    if (response.statusCode() == 404 && session != null && session.equals(currentSession) && !closed
                            && !withoutGet.contains(session)) {
                        // Transports, session management: a 404 to a request with the session id means the server ended or
                        // forgot the session (a restart); the client MUST start a new one, and what the stream awaited can no
                        // longer come. (A session the SDK has already replaced is left alone: its new one works. One whose
                        // first GET was answered 404 or 400 is on a POST-only route, which answers every GET so: the stream
                        // cannot be resumed, and the session lives on.)
                        onSessionGone.accept("it no longer knows its session (it answered HTTP 404 to the GET resuming its event"
                                + " stream, as a server answers for a session it ended or forgot, e.g. after a restart)");
                        return;
                    }
                    int status = response.statusCode();
                    if (status / 100 == 5 || status == 429 || status == 408) {
                        // Passing, usually (a proxy restarting, a redeploy, a server asking to come back later): tried again,
                        // backing off, as a dropped connection is and as the TypeScript SDK's client retries every status but 405.
                        failures++;
                        passing = status;
                        retryAfter = retryAfterMillis(response);
                        continue;
                    }
                    passing = 0;
                    retryAfter = 0;
                    if (response.statusCode() / 100 != 2
                            || !response.headers().firstValue("Content-Type").orElse("").toLowerCase().contains("text/event-stream")) {
                        // The server will not resume it (405: it offers no SSE stream at the endpoint; a POST-only route's
                        // 404; 400, 401, 403): nothing else can bring the answer, so the request ends now, not at its timeout.
                        if (awaitsAnswer && !closed) {
                            notResumed(original, response.statusCode(), response.statusCode() == 404 && session != null
                                    && withoutGet.contains(session), 0, 0);
                        }
                        return;
                    }
                    SseEvents events = new SseEvents(data -> {
                        answered[0] |= awaited != null && answerIds(data).contains(awaited);
                        List<JsonNode> batch = BatchSplitter.messages(data);
                        if (batch == null) {
                            deliverResumed(data, awaitsAnswer ? original : null);
                        } else {
                            batch.forEach(message -> deliverResumed(Json.write(message), awaitsAnswer ? original : null)); // revision 2025-03-26
                        }
                    }, MAX_MESSAGE_BYTES, last, retry);
                    byte[] buffer = new byte[8192];
                    for (int n; (n = in.read(buffer)) >= 0; ) {
                        events.feed(ByteBuffer.wrap(buffer, 0, n));
                        if (awaitsAnswer && events.tooLarge()) {
                            // As the SDK fails a request whose own stream brings more: the request ends now, saying so.
                            tooLarge(original);
                            return;
                        }
                        if (events.tooLarge() && oversizedSaid.compareAndSet(false, true)) {
                            onOversized.run(); // the stream goes on; the next messages are read
                        }
                    }
                    boolean brought = events.messages() > 0 || events.lastEventId() != null && !events.lastEventId().isEmpty()
                            && !events.lastEventId().equals(last);
                    last = events.lastEventId() == null || events.lastEventId().isEmpty() ? last : events.lastEventId();
                    retry = events.retryMillis();
                    failures = brought || last != null ? 0 : failures + 1;
                } finally {
                    resuming.remove(response.body());
                    if (key != null) {
                        readingFor.remove(key, response.body());
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException | java.util.concurrent.ExecutionException | RuntimeException e) {
                failures++; // a dropped connection: poll again, a few times
                passing = 0;
                retryAfter = 0;
            }
        }
        if (awaitsAnswer && !closed && !answered[0] && failures >= MAX_FAILURES) {
            notResumed(original, passing, false, failures, 0); // given up on: the answer can no longer come
        }
    }

    /**
     * The wait a {@code Retry-After} header of {@code response} asks for (RFC 9110 section 10.2.3:
     * seconds, or an HTTP date), in milliseconds; 0 when there is none or it cannot be read.
     */
    static long retryAfterMillis(HttpResponse<?> response) {
        return retryAfterMillis(response.headers().firstValue("Retry-After").orElse(""), Instant.now());
    }

    /** The wait {@code header}, a {@code Retry-After} value, asks for at {@code now}, in milliseconds (see above). */
    static long retryAfterMillis(String header, Instant now) {
        String value = header.strip();
        if (value.isEmpty()) {
            return 0;
        }
        try {
            if (value.chars().allMatch(Character::isDigit)) {
                return Math.multiplyExact(Long.parseLong(value), 1000L);
            }
            Instant at = httpDate(value, now);
            // A date in the past asks for no wait: the usual backoff.
            return at == null ? 0 : Math.max(0, Duration.between(now, at).toMillis());
        } catch (ArithmeticException | NumberFormatException e) {
            return UNREADABLE_MILLIS; // a number too large to hold: later than any call waits
        }
    }

    /**
     * The wait Rein takes a {@code Retry-After} too large to read for (a number of seconds past a long's milliseconds): later
     * than any call waits. Not a wait the server asked for, so it is said as such ({@link HttpRefusal#unreadable}).
     */
    static final long UNREADABLE_MILLIS = Long.MAX_VALUE / 2;

    /** RFC 9110's obsolete RFC 850 form of an HTTP-date, after its weekday: {@code Sunday, 06-Nov-94 08:49:37 GMT}. */
    private static final String RFC_850 = "dd-MMM-";
    /** RFC 9110's obsolete asctime form of an HTTP-date: {@code Sun Nov  6 08:49:37 1994} (in GMT). */
    private static final java.time.format.DateTimeFormatter ASCTIME =
            java.time.format.DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", java.util.Locale.US).withZone(java.time.ZoneOffset.UTC);

    /**
     * {@code value} read as an HTTP-date at {@code now}, null when it is none. RFC 9110 section
     * 5.6.7 has a recipient accept all three forms: IMF-fixdate and the obsolete RFC 850 and asctime
     * ones; a two-digit year that makes the timestamp more than 50 years ahead is the most recent past
     * year so written.
     */
    static Instant httpDate(String value, Instant now) {
        try {
            return java.time.ZonedDateTime.parse(value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            // one of the obsolete forms, or no date
        }
        int comma = value.indexOf(", ");
        if (comma > 0) {
            try {
                java.time.ZonedDateTime at = now.atZone(java.time.ZoneOffset.UTC);
                java.time.format.DateTimeFormatter rfc850 = new java.time.format.DateTimeFormatterBuilder().appendPattern(RFC_850)
                        .appendValueReduced(java.time.temporal.ChronoField.YEAR, 2, 2, at.getYear() - 49)
                        .appendPattern(" HH:mm:ss 'GMT'").toFormatter(java.util.Locale.US).withZone(java.time.ZoneOffset.UTC);
                java.time.ZonedDateTime date = java.time.ZonedDateTime.parse(value.substring(comma + 2), rfc850);
                // The whole timestamp counts, not its year: one more than 50 years ahead is a century earlier.
                if (date.isAfter(at.plusYears(50))) {
                    date = date.minusYears(100);
                }
                // Its weekday is checked against the year so read (as the IMF-fixdate parse checks its own).
                String weekday = value.substring(0, comma);
                return java.time.DayOfWeek.from(date).getDisplayName(java.time.format.TextStyle.FULL, java.util.Locale.US)
                        .equals(weekday) ? date.toInstant() : null;
            } catch (java.time.format.DateTimeParseException e) {
                // the asctime form, or no date
            }
        }
        try {
            return java.time.ZonedDateTime.parse(value, ASCTIME).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            return null; // not a date the RFC allows: the usual backoff
        }
    }

    /**
     * The key in the {@code data} of the error Rein gives a request whose stream could not be
     * resumed: the HTTP status the server refused the {@code GET} with, or 0 when every reconnection
     * failed (the connection dropped or could not be made).
     */
    static final String NOT_RESUMED = "dev.rein/not-resumed";
    /** The key in that error's {@code data}, true when the refusal was a 404 from a route that answers every {@code GET} so. */
    static final String NO_GET = "dev.rein/no-get";
    /**
     * The key in that error's {@code data}: how many {@code GET}s were tried when the status was a
     * passing error (5xx, 429, 408), tried again until the limit or the call's time ran out; else 0.
     */
    static final String ATTEMPTS = "dev.rein/attempts";
    /** The key in that error's {@code data}: the seconds a Retry-After asked to wait past the call's time; else 0. */
    static final String RETRY_AFTER = "dev.rein/retry-after";

    /**
     * Ends {@code request}, whose stream the server closed before the answer, now: the {@code GET}
     * resuming it was refused with {@code status} (0: it failed {@link #MAX_FAILURES} times in a row;
     * with {@code attempts} above 0, the status of the last of that many tries, each answered with a
     * passing error, and {@code retryAfterMillis} the wait past the call's time that ended them), so
     * the answer is lost. The transports spec makes resumption the only way to the rest of a
     * stream; without it the call would wait for its whole timeout for an answer that cannot come.
     */
    private void notResumed(HttpRequest request, int status, boolean routeWithoutGet, int attempts, long retryAfterMillis) {
        JsonNode id = requestId(request);
        if (id != null) {
            ObjectNode error = Json.object().put("jsonrpc", "2.0").set("id", id);
            error.putObject("error").put("code", -32603).put("message", "the response stream could not be resumed")
                    .putObject("data").put(UNANSWERED, true).put(NOT_RESUMED, status).put(NO_GET, routeWithoutGet)
                    .put(ATTEMPTS, status == 0 ? 0 : attempts).put(RETRY_AFTER, (retryAfterMillis + 999) / 1000);
            messages.accept(Json.write(error));
        }
    }

    /**
     * Hands on a message of a resumed stream. A JSON-RPC error without an id (which the SDK cannot
     * read, and took for no message at all) answers the request whose stream it resumes, as in the
     * POST's own stream: it is kept for {@link #idlessErrorOf} and handed on with that request's id,
     * so the request ends now. On the stream for the server's own messages ({@code request} null)
     * it answers no request, and is passed over as an answer to no request is.
     */
    private void deliverResumed(String data, HttpRequest request) {
        if (data.startsWith("{") || data.startsWith(" {")) {
            try {
                JsonNode node = Json.mapper().readTree(data);
                var standIn = MalformedAnswer.response(node, data.strip());
                if (standIn != null) {
                    standIns.accept(standIn); // a malformed answer carrying an id ends its request now
                    return;
                }
                if (node != null && StdioTransport.notJsonRpc(node)) {
                    skipped(node);
                    return; // no JSON-RPC message: passed over, as on the streams the SDK reads (Watched)
                }
            } catch (IOException e) {
                // not JSON: the session says so
            }
        }
        String idless = null;
        JsonNode error = null;
        if (data.contains("error")) {
            try {
                error = Json.mapper().readTree(data);
                idless = idlessError(error);
            } catch (IOException e) {
                // not JSON: the session says so
            }
        }
        if (idless == null) {
            messages.accept(data);
            return;
        }
        JsonNode id = request == null ? null : requestId(request);
        if (id == null) {
            skipped(error);
            return;
        }
        idlessErrors.put(Json.write(id), idless);
        ObjectNode answer = Json.object().put("jsonrpc", "2.0").set("id", id);
        answer.set("error", error.get("error"));
        messages.accept(Json.write(answer));
    }

    /**
     * Ends {@code request} with an error saying its resumed stream brought a message larger than
     * Rein reads, in the words of the SDK's own refusal, by which the call's result says so.
     */
    private void tooLarge(HttpRequest request) {
        JsonNode id = requestId(request);
        if (id != null) {
            ObjectNode error = Json.object().put("jsonrpc", "2.0").set("id", id);
            error.putObject("error").put("code", -32603).put("message", "Inbound event of the resumed response stream exceeds"
                    + " the maximum allowed size of " + MAX_MESSAGE_BYTES + " bytes");
            messages.accept(Json.write(error));
        }
    }

    /**
     * The key in the {@code data} of the error Rein gives a request whose response stream ended
     * without the answer and without an event id to resume it from.
     */
    static final String UNANSWERED = "dev.rein/unanswered";

    /**
     * The key in the {@code data} of that error holding the id (as JSON) of an answer the stream
     * brought to another request than its own, when one came.
     */
    static final String OTHER_ID = "dev.rein/other-id";

    /**
     * Rein's error ending the request with id {@code id} whose answer will not come: its response
     * ended without it, after an answer with {@code otherId} when not null.
     */
    private static ObjectNode unanswered(JsonNode id, JsonNode otherId) {
        ObjectNode error = Json.object().put("jsonrpc", "2.0").set("id", id);
        ObjectNode data = error.putObject("error").put("code", -32603).put("message", "the response ended without the answer")
                .putObject("data").put(UNANSWERED, true);
        if (otherId != null) {
            data.put(OTHER_ID, Json.write(otherId));
        }
        return error;
    }

    /** The id of the JSON-RPC request {@code request} carries; null for a notification or a response. */
    private static JsonNode requestId(HttpRequest request) {
        JsonNode message = body(request);
        return message != null && message.has("method") && message.hasNonNull("id") ? message.get("id") : null;
    }

    /** The JSON-RPC method of the message {@code request} carries; null for a response, or a body that is none. */
    private static String method(HttpRequest request) {
        JsonNode message = body(request);
        return message != null && message.path("method").isTextual() ? message.get("method").asText() : null;
    }

    /** The JSON of {@code request}'s body; null when it has none or it is not JSON. */
    private static JsonNode body(HttpRequest request) {
        if (request.bodyPublisher().isEmpty()) {
            return null;
        }
        java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
        CompletableFuture<Void> read = new CompletableFuture<>();
        // The SDK's body is a string publisher, which can be read again and delivers when asked.
        request.bodyPublisher().get().subscribe(new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(ByteBuffer item) {
                byte[] bytes = new byte[item.remaining()];
                item.get(bytes);
                content.writeBytes(bytes);
            }

            @Override
            public void onError(Throwable throwable) {
                read.completeExceptionally(throwable);
            }

            @Override
            public void onComplete() {
                read.complete(null);
            }
        });
        try {
            read.get(1, java.util.concurrent.TimeUnit.SECONDS);
            return Json.mapper().readTree(content.toByteArray());
        } catch (Exception e) {
            return null;
        }
    }

    /** {@code data} as JSON, one element; none when it is not JSON. */
    private static List<JsonNode> parsed(String data) {
        try {
            JsonNode node = Json.mapper().readTree(data);
            return node == null ? List.of() : List.of(node);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The ids of the JSON-RPC responses in {@code data} (one message or a batch); none when it brings none. */
    private static List<JsonNode> answerIds(String data) {
        List<JsonNode> batch = BatchSplitter.messages(data);
        List<JsonNode> ids = new java.util.ArrayList<>();
        for (JsonNode message : batch != null ? batch : parsed(data)) {
            if (message.has("id") && !message.has("method") && (message.has("result") || message.has("error"))) {
                ids.add(message.get("id"));
            }
        }
        return ids;
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }

    @Override
    public void shutdown() {
        stopResuming();
        delegate.shutdown();
    }

    @Override
    public void shutdownNow() {
        stopResuming();
        delegate.shutdownNow();
    }

    @Override
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        return delegate.awaitTermination(duration);
    }

    @Override
    public boolean isTerminated() {
        return delegate.isTerminated();
    }

    @Override
    public void close() {
        stopResuming();
        delegate.close();
    }

    /**
     * Builds the session's client for the SDK's transport, which configures it through a builder;
     * {@link #client()} is the one built.
     */
    static final class Builder implements HttpClient.Builder {
        private final HttpClient.Builder delegate = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1);
        private final Duration limit;
        private ResumingHttpClient built;

        /** @param limit how long a stream is resumed for after its connection closed without the answer */
        Builder(Duration limit) {
            this.limit = limit;
        }

        /** The client built, or null before the transport built it. */
        ResumingHttpClient client() {
            return built;
        }

        @Override
        public HttpClient build() {
            built = new ResumingHttpClient(delegate.build(), limit);
            return built;
        }

        @Override
        public Builder cookieHandler(CookieHandler cookieHandler) {
            delegate.cookieHandler(cookieHandler);
            return this;
        }

        @Override
        public Builder connectTimeout(Duration duration) {
            delegate.connectTimeout(duration);
            return this;
        }

        @Override
        public Builder sslContext(SSLContext sslContext) {
            delegate.sslContext(sslContext);
            return this;
        }

        @Override
        public Builder sslParameters(SSLParameters sslParameters) {
            delegate.sslParameters(sslParameters);
            return this;
        }

        @Override
        public Builder executor(Executor executor) {
            delegate.executor(executor);
            return this;
        }

        @Override
        public Builder followRedirects(Redirect policy) {
            delegate.followRedirects(policy);
            return this;
        }

        @Override
        public Builder version(Version version) {
            delegate.version(version);
            return this;
        }

        @Override
        public Builder priority(int priority) {
            delegate.priority(priority);
            return this;
        }

        @Override
        public Builder proxy(ProxySelector proxySelector) {
            delegate.proxy(proxySelector);
            return this;
        }

        @Override
        public Builder authenticator(Authenticator authenticator) {
            delegate.authenticator(authenticator);
            return this;
        }
    }
}
