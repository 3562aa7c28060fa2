package dev.rein.mcp.internal;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * The protocol version a session negotiated, learnt from the server's answer to {@code initialize},
 * and the streamable HTTP header carrying it. The protocol asks the client to send the negotiated
 * version in {@code MCP-Protocol-Version} on every HTTP request after initialization; the SDK's
 * transport sends its own newest version on requests made outside the client's request flow (the
 * {@code DELETE} ending the session, the {@code GET} stream opened as soon as the session id
 * arrives, a {@code notifications/cancelled}, answers to the server's requests), so the header is
 * set here, on every request, once the version is known.
 */
final class NegotiatedVersion {
    static final String HEADER = "MCP-Protocol-Version";
    /** How long a {@code GET} stream waits for the initialize answer whose version it must carry. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private volatile CompletableFuture<String> version = new CompletableFuture<>();
    private volatile Object initializeId;

    /** Notes an outgoing message: the initialize request's id identifies its answer. */
    void sent(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            if (version.isDone()) {
                // A new session after the server forgot the old one: it may choose another version.
                version = new CompletableFuture<>();
            }
            initializeId = request.id();
        }
    }

    /** The JSON-RPC id of the last initialize request sent; null before one was. */
    Object initializeId() {
        return initializeId;
    }

    /** Notes an incoming message: the answer to initialize names the version. */
    void received(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCResponse response && response.id() != null
                && Objects.equals(response.id(), initializeId)) {
            if (response.result() instanceof Map<?, ?> result && result.get("protocolVersion") instanceof String negotiated) {
                version.complete(negotiated);
            } else {
                version.complete(null); // initialize failed: nothing to send, the session is closed anyway
            }
        }
    }

    /**
     * Sets the header on {@code request} once the version is known. A {@code GET} stream is opened
     * before the initialize answer has been read, so it waits for it; a {@code POST} before then is
     * the initialize request itself, which needs no header.
     */
    Publisher<HttpRequest.Builder> customize(HttpRequest.Builder request, String method, URI uri, String body,
                                             McpTransportContext context) {
        CompletableFuture<String> current = version;
        if (current.isDone() || !"GET".equals(method)) {
            return Mono.just(withHeader(request, current.getNow(null)));
        }
        return Mono.fromFuture(current.copy()).timeout(WAIT).map(v -> withHeader(request, v)).onErrorReturn(request);
    }

    private static HttpRequest.Builder withHeader(HttpRequest.Builder request, String negotiated) {
        return negotiated == null ? request : request.setHeader(HEADER, negotiated);
    }
}
