package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

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

/** What the session's transport notes of the tools/call requests it sends, and for how long. */
class CancellingTransportTest {
    private final BlockingQueue<McpSchema.JSONRPCMessage> sent = new LinkedBlockingQueue<>();
    private final CancellingTransport transport = new CancellingTransport(new Recording(), () -> {}, new NegotiatedVersion());

    @Test
    void aRequestTheSdkSendsAfterItsCallEndedIsNotNotedAndIsCancelledOnTheServer() throws Exception {
        // The SDK sends a call's request when the session is initialized; a call whose caller gave up before that (its
        // timeout) had ended, so the note taken then was never dropped: one entry per such call for the client's life.
        transport.ended("key-1");
        transport.sendMessage(call(7, "key-1")).block(Duration.ofSeconds(5));

        assertThat(transport.callId("key-1")).isNull();
        assertThat(transport.sessionLost("key-1", Duration.ofMillis(1))).isFalse();
        // Its caller's cancel found nothing to cancel then, so the server is told now that it has the request.
        assertThat(sent.poll(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCRequest.class,
                r -> assertThat(r.id()).isEqualTo(7));
        assertThat(sent.poll(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCNotification.class, n -> {
            assertThat(n.method()).isEqualTo(CancellingTransport.METHOD_CANCELLED);
            assertThat(n.params()).isInstanceOfSatisfying(Map.class, p -> assertThat(p.get("requestId")).isEqualTo(7));
        });
        assertThat(transport.notesHeld()).isZero();
    }

    @Test
    void aCallGivenUpBeforeItsRequestWasSentIsCancelledOnTheServerOnceSentThoughStillUnderWay() throws Exception {
        // A call times out while the SDK is still initializing: its cancel finds no request id yet. The SDK then sends the
        // request before the call's finally has ended the key: it was noted, then dropped by ended, and never cancelled.
        transport.began("key-3");
        transport.cancel("key-3", "the call timed out");
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).as("nothing to cancel yet").isNull();
        transport.sendMessage(call(9, "key-3")).block(Duration.ofSeconds(5));

        assertThat(sent.poll(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCRequest.class,
                r -> assertThat(r.id()).isEqualTo(9));
        assertThat(sent.poll(5, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCNotification.class, n -> {
            assertThat(n.method()).isEqualTo(CancellingTransport.METHOD_CANCELLED);
            assertThat(n.params()).isInstanceOfSatisfying(Map.class, p -> {
                assertThat(p.get("requestId")).isEqualTo(9);
                assertThat(p.get("reason")).isEqualTo("the call timed out");
            });
        });
        assertThat(transport.callId("key-3")).isNull();
        transport.ended("key-3");
        assertThat(transport.notesHeld()).isZero();
        // Handled: a later call with the same key (a retry) is noted and not cancelled.
        transport.began("key-3");
        transport.sendMessage(call(10, "key-3")).block(Duration.ofSeconds(5));
        assertThat(transport.callId("key-3")).isEqualTo(10);
        transport.ended("key-3");
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).isInstanceOfSatisfying(McpSchema.JSONRPCRequest.class,
                r -> assertThat(r.id()).isEqualTo(10));
        assertThat(sent.poll(200, TimeUnit.MILLISECONDS)).isNull();
        assertThat(transport.notesHeld()).isZero();
    }

    @Test
    void aCallGivenUpWhoseRequestWasNeverSentLeavesNoNoteOnceEnded() {
        // The SDK dropped the request (its subscription was cancelled): the mark is forgotten when the call ends.
        transport.began("key-4");
        transport.cancel("key-4", "the call timed out");
        transport.ended("key-4");
        assertThat(transport.notesHeld()).isZero();
        assertThat(sent).isEmpty();
    }

    @Test
    void aCallUnderWayIsNotedUnderItsKeyAndSentAgainWithItUntilItEnds() throws Exception {
        transport.began("key-2");
        transport.sendMessage(call(1, "key-2")).block(Duration.ofSeconds(5));
        assertThat(transport.callId("key-2")).isEqualTo(1);
        // Sent again with the same key (after a 404, on the new session): the newest request is the one to cancel.
        transport.sendMessage(call(2, "key-2")).block(Duration.ofSeconds(5));
        assertThat(transport.callId("key-2")).isEqualTo(2);
        transport.ended("key-2");
        assertThat(transport.callId("key-2")).isNull();
        assertThat(transport.notesHeld()).isZero();
        // A later call with the same key (a retry of the tool call) is noted again.
        transport.began("key-2");
        transport.sendMessage(call(3, "key-2")).block(Duration.ofSeconds(5));
        assertThat(transport.callId("key-2")).isEqualTo(3);
        transport.ended("key-2");
        assertThat(transport.notesHeld()).isZero();
        assertThat(sent).extracting(m -> m.getClass().getSimpleName()).containsOnly("JSONRPCRequest");
    }

    private static McpSchema.JSONRPCRequest call(int id, String key) {
        return new McpSchema.JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_TOOLS_CALL, id,
                new McpSchema.CallToolRequest("echo", Map.of(), Map.of(ToolAdapter.IDEMPOTENCY_META, key)));
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
