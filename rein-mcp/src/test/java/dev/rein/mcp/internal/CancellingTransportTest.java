package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** What the session's transport notes of each call's tools/call requests, and what it cancels on the server. */
class CancellingTransportTest {
    private final BlockingQueue<McpSchema.JSONRPCMessage> sent = new LinkedBlockingQueue<>();
    private final CancellingTransport transport = new CancellingTransport(new Recording(), () -> {}, new NegotiatedVersion());

    @Test
    void aMalformedAnswersStandInReachesTheSdkWithoutTheServersWordsWhichItLogs() throws Exception {
        // The SDK logs each answer it reads (DEBUG 'Received response: {}') and each error answering a request (INFO
        // 'Server returned a JSON-RPC error ...: {}') with the records' toString: the stand-in for a malformed answer carried
        // the line as the server sent it, unmasked, uncut and unescaped, into those logs. Its data now shows no word of it,
        // and Rein still quotes it (masked, cut, escaped) in the call's error.
        String line = "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":\"tok-secret-1 leaked\"}";
        McpSchema.JSONRPCMessage standIn = MalformedAnswer.response(dev.rein.json.Json.parse(line), line);
        BlockingQueue<McpSchema.JSONRPCMessage> handed = new LinkedBlockingQueue<>();
        transport.connect(message -> message.doOnNext(handed::add).then(Mono.empty())).block(Duration.ofSeconds(5));
        transport.received(standIn);
        McpSchema.JSONRPCMessage toSdk = handed.poll(5, TimeUnit.SECONDS);
        assertThat(toSdk).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class, response -> {
            assertThat(response.id()).isEqualTo(5);
            assertThat(response.toString()).doesNotContain("tok-secret-1")
                    .contains("\"error\" must be an object");
            assertThat(MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(response.error()),
                    text -> text.replace("tok-secret-1", "[REDACTED:TOKEN]")))
                    .isEqualTo("'{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":\"[REDACTED:TOKEN] leaked\"}' (\"error\" must be an object"
                            + " with an integer \"code\" and a string \"message\")");
        });
    }

    @Test
    void aSaidCountsItsLengthInCodePoints() {
        assertThat(new MalformedAnswer.Said("\uD83C\uDDEF\uD83C\uDDF5", "why").toString()).contains("(2 characters)");
    }

    @Test
    void aForgedStandInKeyFromAnotherServerGetsNoOtherServersText() throws Exception {
        // Rein held the words of HTTP stand-ins in one table for the whole JVM, by sequential key ("m-N"), and took any
        // error whose data named a key: server B sending that key in its own error had server A's held words, unmasked,
        // quoted to the model as its own. A server's data is now only its data.
        String line = "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":\"tok-secret-of-a\"}";
        // Server A's stand-in, as its transport hands it on; then server B names in its own error's data the key A's words
        // were held under (the first key, "m-1", and the data Rein's stand-in carried).
        McpSchema.JSONRPCMessage heldForA = MalformedAnswer.response(dev.rein.json.Json.parse(line), line);
        assertThat(heldForA).isNotNull();
        String forged = "{\"jsonrpc\":\"2.0\",\"id\":8,\"error\":{\"code\":-32603,\"message\":\"x\",\"data\":{"
                + "\"dev.rein/malformed-answer-key\":\"m-1\",\"dev.rein/malformed-why\":\"b's\"}}}";
        CancellingTransport serverB = new CancellingTransport(new Recording(), () -> {}, new NegotiatedVersion());
        BlockingQueue<McpSchema.JSONRPCMessage> handed = new LinkedBlockingQueue<>();
        serverB.connect(message -> message.doOnNext(handed::add).then(Mono.empty())).block(Duration.ofSeconds(5));
        serverB.received(McpSchema.deserializeJsonRpcMessage(McpJsonDefaults.getMapper(), forged));
        McpSchema.JSONRPCResponse toSdk = (McpSchema.JSONRPCResponse) handed.poll(5, TimeUnit.SECONDS);
        String described = MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(toSdk.error()), t -> t);
        assertThat(described).isNull();
        assertThat(toSdk.toString()).doesNotContain("tok-secret-of-a");
    }

    @Test
    void aRequestTheSdkSendsAfterItsCallEndedIsCancelledOnTheServer() throws Exception {
        // The SDK sends a call's request when the session is initialized; a call whose caller gave up before that (its
        // timeout) has ended, and its cancel found nothing to cancel then: the server is told now that it has the request.
        CancellingTransport.Call call = transport.began();
        transport.ended(call);
        transport.sendMessage(request(7, call, "key-1")).block(Duration.ofSeconds(5));

        assertThat(call.id()).isNull();
        assertThat(call.sessionLost(Duration.ofMillis(1))).isFalse();
        assertSentCall(7, "key-1");
        assertCancelled(7, "the call was given up before its request was sent");
    }

    @Test
    void aCallGivenUpBeforeItsRequestWasSentIsCancelledOnTheServerOnceSentThoughStillUnderWay() throws Exception {
        // A call times out while the SDK is still initializing: its cancel finds no request id yet. The SDK then sends the
        // request before the call's finally has ended it: it must be cancelled then.
        CancellingTransport.Call call = transport.began();
        transport.cancel(call, "the call timed out");
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).as("nothing to cancel yet").isNull();
        transport.sendMessage(request(9, call, "key-3")).block(Duration.ofSeconds(5));

        assertSentCall(9, "key-3");
        assertCancelled(9, "the call timed out");
        assertThat(call.id()).isNull();
        transport.ended(call);
        // A later call with the same key (a retry) is its own: noted and not cancelled.
        CancellingTransport.Call retry = transport.began();
        transport.sendMessage(request(10, retry, "key-3")).block(Duration.ofSeconds(5));
        assertThat(retry.id()).isEqualTo(10);
        transport.ended(retry);
        assertSentCall(10, "key-3");
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void aCallGivenUpAfterItsRequestWasSentIsCancelledAtOnce() throws Exception {
        CancellingTransport.Call call = transport.began();
        transport.sendMessage(request(4, call, "key-4")).block(Duration.ofSeconds(5));
        assertSentCall(4, "key-4");
        transport.cancel(call, "the call was stopped by its caller");
        assertCancelled(4, "the call was stopped by its caller");
        assertThat(call.id()).isNull();
        transport.ended(call);
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void aCallUnderWayNotesItsNewestRequestUntilItEnds() throws Exception {
        CancellingTransport.Call call = transport.began();
        transport.sendMessage(request(1, call, "key-2")).block(Duration.ofSeconds(5));
        assertThat(call.id()).isEqualTo(1);
        // Sent again (after a 404, on the new session): the newest request is the one to cancel.
        transport.sendMessage(request(2, call, "key-2")).block(Duration.ofSeconds(5));
        assertThat(call.id()).isEqualTo(2);
        transport.ended(call);
        assertThat(call.id()).isNull();
        assertThat(sent).extracting(m -> m.getClass().getSimpleName()).containsOnly("JSONRPCRequest");
    }

    @Test
    void aMarkSetByOneCallDoesNotCancelAnOverlappingCallWithTheSameKey() throws Exception {
        // Two calls with the same idempotency key under way at once: the first gives up before its request was sent.
        // Its mark was kept by key, so the second call's request was cancelled on the server as soon as it was sent.
        CancellingTransport.Call first = transport.began();
        CancellingTransport.Call second = transport.began();
        transport.cancel(first, "the call timed out");
        transport.sendMessage(request(11, second, "key-5")).block(Duration.ofSeconds(5));
        assertSentCall(11, "key-5");
        assertThat(sent.poll(500, TimeUnit.MILLISECONDS)).as("the second call is not cancelled").isNull();
        assertThat(second.id()).isEqualTo(11);

        // The first call's request, sent late, is cancelled; the second's id stays its own.
        transport.sendMessage(request(12, first, "key-5")).block(Duration.ofSeconds(5));
        assertSentCall(12, "key-5");
        assertCancelled(12, "the call timed out");
        assertThat(second.id()).isEqualTo(11);
        // The second gives up in turn: its own request is cancelled, not the first's.
        transport.cancel(second, "the call was stopped by its caller");
        assertCancelled(11, "the call was stopped by its caller");
        transport.ended(first);
        transport.ended(second);
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
    }

    private static McpSchema.JSONRPCRequest request(int id, CancellingTransport.Call call, String key) {
        return new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_TOOLS_CALL, id,
                call.request("echo", Map.of(), Map.of(ToolAdapter.IDEMPOTENCY_META, key)));
    }

    /** The next message sent is the call's request with {@code id}, its note taken out of its {@code _meta}. */
    private void assertSentCall(int id, String key) throws InterruptedException {
        assertThat(sent.poll(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCRequest.class, r -> {
            assertThat(r.id()).isEqualTo(id);
            assertThat(r.params()).isInstanceOfSatisfying(McpSchema.CallToolRequest.class,
                    p -> assertThat(p.meta()).isEqualTo(Map.of(ToolAdapter.IDEMPOTENCY_META, key)));
        });
    }

    private void assertCancelled(int id, String reason) throws InterruptedException {
        assertThat(sent.poll(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCNotification.class, n -> {
            assertThat(n.method()).isEqualTo(CancellingTransport.METHOD_CANCELLED);
            assertThat(n.params()).isEqualTo(Map.of("requestId", id, "reason", reason));
        });
    }

    /** A transport that only records what is sent through it. */
    private final class Recording implements McpClientTransport {
        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> sent.add(message));
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<String> protocolVersions() {
            return List.of();
        }
    }
}
