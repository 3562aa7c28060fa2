package dev.rein.mcp.internal;

import dev.rein.mcp.McpServerConfig;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One live connection to a server: the SDK client over a transport (and, for stdio, the process).
 * {@link #broken} completes with the reason when the connection can no longer answer.
 */
final class Session {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger("dev.rein.mcp");
    final McpAsyncClient client;
    final CompletableFuture<String> broken = new CompletableFuture<>();
    /** The transport the client sends through, which can cancel a call on the server. */
    final CancellingTransport transport;
    private final ServerProcess process;
    private final StdioTransport stdio;
    /** For streamable HTTP: the client resuming response streams the server closed early; else null. */
    private ResumingHttpClient resuming;

    private Session(CancellingTransport transport, Duration requestTimeout, ServerProcess process, StdioTransport stdio) {
        this.transport = transport;
        this.client = client(transport, requestTimeout);
        this.process = process;
        this.stdio = stdio;
    }

    /**
     * Warns, once per server, of an icon (or a website) the server sent that Rein left out: only for
     * display, not worth refusing a tool or answer.
     */
    private static java.util.function.Consumer<String> iconLeftOut(McpServerConfig config, ServerWarnings warnings) {
        return note -> warnings.once("icon: " + note, () -> "MCP server '" + dev.rein.internal.text.Controls.visible(config.name(), false)
                + "' " + dev.rein.tool.Secrets.mask(note, config.secrets()) + "; Rein left it out and went on (icons and a website are"
                + " only for a client to display, which Rein does not do; the server should be fixed)");
    }

    /**
     * Opens a session (does not initialize it).
     *
     * @throws IOException when a stdio server's command cannot be started
     */
    static Session open(McpServerConfig config, ServerProcess.Launcher launcher, McpJsonMapper mapper, StderrTail stderr,
                        ServerWarnings warnings, Runnable onToolsChanged) throws IOException {
        // The SDK's own limit of a request, initialize included, must not come before Rein's (at least 30 s to
        // start and list, the call's timeout for a call; Rein waits for each itself): a server slower to start
        // than one call's timeout would fail after that timeout + 5 s.
        Duration sdkTimeout = (config.timeout().compareTo(ServerConnection.START_TIMEOUT) >= 0 ? config.timeout()
                : ServerConnection.START_TIMEOUT).plusSeconds(5);
        return switch (config.transport()) {
            case McpServerConfig.Stdio stdioConfig -> {
                ServerProcess process = launcher.start(stdioConfig);
                CompletableFuture<String> broken = new CompletableFuture<>();
                StdioTransport transport = new StdioTransport(process, mapper, stderr, reason -> broken.complete(
                        reason + exitCode(process)), line -> LOG.warn("MCP server '{}' wrote a line to its stdout that is not an MCP"
                        + " message, which Rein skips (a stdio server may write only MCP messages there, its logs to stderr; further"
                        + " such lines are skipped without a warning): '{}'", dev.rein.internal.text.Controls.visible(config.name(), false),
                        line), (kind, dropped) -> warnings.once("not UTF-8 " + kind, () -> "MCP server '"
                        + dev.rein.internal.text.Controls.visible(config.name(), false) + "' " + dev.rein.internal.text.Controls.visible(
                        dropped, false) + " (the connection stays; further such " + (kind.equals("request") || kind.equals("message")
                        ? kind + "s" : kind + " notifications") + " of this server are dropped without a warning)"));
                Session session = new Session(new CancellingTransport(transport, onToolsChanged, new NegotiatedVersion(),
                        iconLeftOut(config, warnings)),
                        sdkTimeout, process, transport);
                broken.thenAccept(session.broken::complete);
                yield session;
            }
            case McpServerConfig.Http http -> {
                NegotiatedVersion version = new NegotiatedVersion();
                // A stream is resumed for as long as its request is waited for: a start request (initialize, a page of the
                // tool list) as long as the SDK waits; a call no longer than its own deadline, which the client looks up.
                ResumingHttpClient.Builder clients = new ResumingHttpClient.Builder(sdkTimeout);
                HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base(http.url()))
                        .endpoint(endpoint(http.url()))
                        .jsonMapper(mapper)
                        .clientBuilder(clients)
                        .connectTimeout(Duration.ofSeconds(10))
                        .maxResponseSize(ResumingHttpClient.MAX_MESSAGE_BYTES)
                        .supportedProtocolVersions(VERSIONS)
                        .addHttpRequestCustomizer((request, method, uri, body, context) -> http.headers().forEach(request::setHeader))
                        .addAsyncHttpRequestCustomizer(version::customize)
                        .build();
                CancellingTransport cancelling = new CancellingTransport(transport, onToolsChanged, version, iconLeftOut(config, warnings));
                // Rein waits for initialize and each page of the tool list this long from when it is sent (ServerConnection).
                cancelling.startRequestsWaited(config.timeout().compareTo(ServerConnection.START_TIMEOUT) >= 0 ? config.timeout()
                        : ServerConnection.START_TIMEOUT);
                Session session = new Session(cancelling, sdkTimeout, null, null);
                session.resuming = clients.client();
                session.resuming.deadlinesFrom(cancelling::deadlineOf);
                cancelling.onRequestEnded(session.resuming::requestEnded);
                // Once per server, not per session: a server that opens a new session sends the same again.
                session.resuming.onOversized(() -> warnings.once("oversized", () -> "MCP server '"
                        + dev.rein.internal.text.Controls.visible(config.name(), false) + "' sent a message larger than "
                        + ResumingHttpClient.MAX_MESSAGE_BYTES + " bytes, the most Rein reads of one message, on its stream for its own"
                        + " messages (notifications and requests, resumed with GET), which Rein dropped unread; the messages after it are"
                        + " read (further such messages of this server are dropped without a warning)"));
                session.resuming.onSkipped(event -> warnings.once("skipped event", () -> "MCP server '"
                        + dev.rein.internal.text.Controls.visible(config.name(), false) + "' sent an event that is no JSON-RPC message"
                        + " for Rein (JSON that is no request, notification or answer, or an error without an id on its stream for its own"
                        + " messages, which answers no request), which Rein passes over and reads on (further such events of this"
                        + " server are passed over without a warning): '" + stderr.visibleStdout(event) + "'"));
                // The session is in doubt no more: the server said it is gone. The next call starts a new one (as after a
                // crash), rather than sending on the old id only to be refused; a call awaiting its answer ends now.
                session.resuming.onSessionGone(session::breakWith);
                // Built, not read from text: McpSchema.deserializeJsonRpcMessage logs the text it reads whole (DEBUG).
                session.resuming.deliverStandInsTo(cancelling::received);
                session.resuming.deliverTo(message -> {
                    try {
                        cancelling.received(McpSchema.deserializeJsonRpcMessage(mapper, message));
                    } catch (IOException | RuntimeException e) {
                        session.breakWith("it sent an event that is not a JSON-RPC message: '"
                                + StdioTransport.abbreviate(dev.rein.tool.Secrets.mask(message, config.secrets())) + "'");
                    }
                });
                yield session;
            }
        };
    }

    /**
     * The protocol versions Rein speaks over streamable HTTP, the newest last (the one asked for). The
     * SDK's transport leaves out 2024-11-05, which the stdio transport speaks, so a server answering
     * with it (as many hand-written ones do whatever was asked) failed to start; its messages are the
     * same, and the version header it gets is one such a server ignores.
     */
    private static final java.util.List<String> VERSIONS = java.util.List.of(ProtocolVersions.MCP_2024_11_05,
            ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);

    private static McpAsyncClient client(McpClientTransport transport, Duration requestTimeout) {
        return McpClient.async(transport)
                .requestTimeout(requestTimeout)
                .initializationTimeout(requestTimeout)
                .clientInfo(McpSchema.Implementation.builder("rein", Versions.rein()).title("Rein").build())
                // Rein offers the server nothing back: no sampling, roots or elicitation.
                .capabilities(McpSchema.ClientCapabilities.builder().build())
                .jsonSchemaValidator(ACCEPT_ALL)
                .build();
    }

    /**
     * Structured output is checked by nobody: it reaches the model as untrusted data either way,
     * and the SDK's own validator needs a JSON Schema library Rein does not ship.
     */
    private static final JsonSchemaValidator ACCEPT_ALL = (schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null);

    private static String exitCode(ServerProcess process) {
        try {
            return " (exit code " + process.onExit().get(500, TimeUnit.MILLISECONDS) + ")";
        } catch (Exception e) {
            return "";
        }
    }

    private static String base(URI url) {
        return url.getScheme() + "://" + url.getRawAuthority();
    }

    private static String endpoint(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    /** For streamable HTTP: what the server said when it last refused a request with an HTTP error status; else null. */
    String refusal() {
        return resuming == null ? null : resuming.refusal();
    }

    /**
     * For streamable HTTP: the HTTP error status the server refused a notification of {@code method}
     * with, forgotten once read; null when it refused none (or for stdio).
     */
    Integer refusedNotification(String method) {
        return resuming == null ? null : resuming.refusedNotification(method);
    }

    /**
     * For streamable HTTP: what the server said when it refused the request with JSON-RPC id
     * {@code id} with an HTTP error status; null when it said nothing (or for stdio).
     */
    String refusalOf(Object id) {
        return resuming == null ? null : resuming.refusalOf(id);
    }

    /**
     * For streamable HTTP: how long the server asked with {@code Retry-After} to wait before trying
     * the request with JSON-RPC id {@code id} again, in milliseconds, forgotten once read; 0 when it
     * asked nothing (or for stdio).
     */
    long retryAfterOf(Object id) {
        return resuming == null ? 0 : resuming.retryAfterOf(id);
    }

    /** For streamable HTTP: the {@code Retry-After} that asked for no wait when the request was refused, as sent; else null. */
    String noWaitRetryAfterOf(Object id) {
        return resuming == null ? null : resuming.noWaitRetryAfterOf(id);
    }

    /**
     * For streamable HTTP: the HTTP error status the server refused the request with JSON-RPC id
     * {@code id} with, forgotten once read; null when it refused none (or for stdio).
     */
    Integer refusedStatusOf(Object id) {
        return resuming == null ? null : resuming.refusedStatusOf(id);
    }

    /**
     * For streamable HTTP: why the response stream of the request with JSON-RPC id {@code id} was
     * cut off before its answer; null when it was not (or for stdio).
     */
    Throwable cutOffBy(Object id) {
        return resuming == null ? null : resuming.cutOffBy(id);
    }

    /**
     * For streamable HTTP: the JSON-RPC error without an id that answered the POST of the request
     * with JSON-RPC id {@code id}; null when none did (or for stdio).
     */
    String idlessErrorOf(Object id) {
        return resuming == null ? null : resuming.idlessErrorOf(id);
    }

    /** Why the session broke, if it does within {@code wait}; else null. */
    String endedWithin(Duration wait) {
        try {
            return broken.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            return null;
        }
    }

    /** The calls in flight on this session, with the instants their callers give up on them. */
    final InFlightCalls calls = new InFlightCalls();

    /**
     * How long a server has to answer {@code ping} after a call on it was given up on (timed out, or
     * stopped by its caller) before it is taken for hung and its session ended, unless its connection
     * was given another ({@link ServerConnection#pingTimeout}, for tests).
     */
    static final Duration PING_TIMEOUT = Duration.ofSeconds(5);

    /** The ping under way after a call was given up on; null before the first. Guarded by this. */
    private CompletableFuture<Void> pinging;

    /**
     * How long a ping the server answered vouches for it: calls timing out together (one slow backend) each asked for a
     * check, and each got a ping of its own once the one before had been answered.
     */
    static final Duration RECENT_PING = Duration.ofSeconds(1);

    /** When the server last answered a ping of {@link #checkAlive} ({@link System#nanoTime}); null before. Guarded by this. */
    private Long answeredAt;

    /**
     * Checks, on a thread of its own, that the server still answers after a call on it was given up
     * on ({@code why}): MCP's Lifecycle (Timeouts) has the client stop waiting for that request
     * alone, and its Ping utility is how a peer is checked. A server that answers ping within
     * {@code bound} (even with a JSON-RPC error: it answered) keeps its session and the other
     * calls on it; one that does not is broken, as a crash is. One check at a time: one under way is
     * returned; none is made within {@link #RECENT_PING} of a ping the server answered. The future
     * completes when the check ends.
     */
    synchronized CompletableFuture<Void> checkAlive(String why, Duration bound) {
        if (pinging != null && !pinging.isDone()) {
            return pinging;
        }
        if (answeredAt != null && System.nanoTime() - answeredAt < RECENT_PING.toNanos()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> check = new CompletableFuture<>();
        pinging = check;
        Thread.ofVirtual().name("rein-mcp-ping").start(() -> {
            try {
                String failure = pingFailure(bound);
                if (failure != null) {
                    breakWith(why + ", and then " + failure);
                } else if (!broken.isDone() && !Thread.currentThread().isInterrupted()) { // answered, not given up
                    synchronized (this) {
                        answeredAt = System.nanoTime();
                    }
                }
            } finally {
                check.complete(null);
            }
        });
        return check;
    }

    /** The check of {@link #checkAlive} under way; null when none is. */
    synchronized CompletableFuture<Void> checkUnderWay() {
        return pinging == null || pinging.isDone() ? null : pinging;
    }

    /** Why the server failed a ping; null when it answered it (or the session broke meanwhile, which says why itself). */
    private String pingFailure(Duration bound) {
        CompletableFuture<Object> ping;
        try {
            ping = client.ping().toFuture();
        } catch (RuntimeException e) {
            return "sending it a ping failed (" + StdioTransport.abbreviate(String.valueOf(e.getMessage())) + ")";
        }
        try {
            CompletableFuture.anyOf(ping, broken).get(bound.toMillis(), TimeUnit.MILLISECONDS);
            if (ping.isDone()) {
                ping.join();
            }
            return null;
        } catch (java.util.concurrent.TimeoutException e) {
            ping.cancel(true);
            if (resuming != null && resuming.pingAnswered(transport.lastPingId())) {
                return null; // its POST was answered 2xx with nothing the SDK reads as a result: an answer all the same
            }
            return "it did not answer ping within " + shown(bound);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CompletionException e) {
            if (io.modelcontextprotocol.spec.McpError.findRootCause(e) instanceof io.modelcontextprotocol.spec.McpError error
                    && error.getJsonRpcError() != null) {
                return null; // an error answer is an answer: the server reads and writes
            }
            if (pingRefusedWithStatus(e)) {
                return null; // so is an HTTP error status (a 503 or 429 when busy, a 500): the server took the request and answered
            }
            if (resuming != null && resuming.pingAnswered(transport.lastPingId())) {
                return null; // and any 2xx, also without a body the SDK reads as a result (a 204, an empty 200)
            }
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return broken.isDone() ? null : "its ping failed (" + StdioTransport.abbreviate(String.valueOf(cause.getMessage())) + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Over streamable HTTP: whether the ping failed because the server answered its POST with an
     * HTTP error status, other than one the SDK takes to say the session is gone (a 404, or a 400, to
     * a request with a session id: that session is over whatever else the server does).
     */
    private boolean pingRefusedWithStatus(Throwable failure) {
        if (refusedStatusOf(transport.lastPingId()) == null) {
            return false;
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof io.modelcontextprotocol.spec.McpTransportSessionNotFoundException) {
                return false;
            }
        }
        return true;
    }

    /** {@code bound} as said to a person: whole seconds, or milliseconds below one second (a test's bound). */
    static String shown(Duration bound) {
        return bound.toMillis() < 1000 ? bound.toMillis() + " ms" : bound.toSeconds() + " s";
    }

    /** Marks the session unusable (an HTTP failure, a server that failed ping after a call was given up on). */
    void breakWith(String reason) {
        broken.complete(reason);
    }

    /**
     * How long ending a session first waits for the {@code notifications/cancelled} being sent (a
     * request given up on just before, such as a listing that timed out at start), so the server
     * hears of it before its input closes or its session is deleted.
     */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(2);

    /** How long closing waits for the SDK's graceful close: over streamable HTTP, the server's answer to the DELETE. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(3);

    /**
     * Ends the session and, for stdio, the process and its children; over streamable HTTP waits up
     * to 3 s for the server to answer the DELETE that ends its session. The cancellations being
     * sent go first (waited for up to 2 s). Idempotent.
     */
    void close() {
        broken.complete("it was closed");
        transport.awaitCancellations(CANCEL_WAIT);
        try {
            client.closeGracefully().block(CLOSE_WAIT);
        } catch (RuntimeException e) {
            // closing anyway below
        }
        endLocally();
    }

    /**
     * Ends a session the server failed (a start it answered wrongly, a connection in doubt) without
     * waiting on it: over streamable HTTP the DELETE still goes out, as the protocol asks of a
     * client done with a session, but a server that answered wrongly may never answer it, and the
     * start's error (or the next call) must not wait 3 s for it. A stdio server is ended as by
     * {@link #close()}: its process, not its answer, ends the session. The cancellations being sent
     * go first, as for {@link #close()}. Idempotent.
     */
    void discard() {
        if (stdio != null || process != null) {
            close();
            return;
        }
        broken.complete("it was closed");
        transport.awaitCancellations(CANCEL_WAIT);
        client.closeGracefully().timeout(CLOSE_WAIT).subscribe(ended -> { }, failed -> { });
        endLocally();
    }

    /**
     * {@link #discard()} on a thread of its own ({@code ended} runs after), for a session left in doubt while calls wait for a new one (a call
     * timed out): the cancellation of the call given up may take up to 2 s to go out to a hung server, which the next
     * call, and every other call waiting on the connection, must not wait for. The session is unusable at once.
     */
    void discardInBackground(Runnable ended) {
        broken.complete("it was closed");
        Thread.ofVirtual().name("rein-mcp-discard").start(() -> {
            try {
                discard();
            } catch (RuntimeException e) {
                // ending a session the caller already left: nothing to tell anyone
            } finally {
                ended.run();
            }
        });
    }

    /**
     * Ends the session's process (stdio) and its resumed stream at once, without waiting for anything: for a session
     * being discarded in the background when the connection closes, so its server does not outlive the agent.
     */
    void endNow() {
        broken.complete("it was closed");
        endLocally();
    }

    private void endLocally() {
        if (resuming != null) {
            resuming.stopResuming();
        }
        if (stdio != null) {
            stdio.closeNow();
        } else if (process != null) {
            process.destroy();
        }
    }
}
