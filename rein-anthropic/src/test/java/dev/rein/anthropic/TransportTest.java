package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.ModelException.Kind;
import dev.rein.model.ModelRequest;
import dev.rein.model.StreamObserver;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.net.http.HttpClient;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HTTP transport: sockets without Nagle's algorithm, reused request JSON, read timeouts mid-stream. */
class TransportTest extends FakeApi {

    @Test
    void everyPooledConnectionHasTcpNoDelay() throws Exception {
        server.enqueue(FakeReply.text("one"));
        server.enqueue(FakeReply.text("two"));
        call(request("hi"));
        call(request("again"));

        List<SocketChannel> sockets = pooledSockets(model.transport().client());
        assertThat(sockets).as("the connection went back to the pool").isNotEmpty();
        for (SocketChannel socket : sockets) {
            assertThat(socket.getOption(StandardSocketOptions.TCP_NODELAY)).isTrue();
        }
    }

    @Test
    void theClientsOwnTasksRunOnABoundedPoolOfDaemonThreads() throws Exception {
        // Its default executor grows a platform thread per task that finds every thread busy:
        // thousands under thousands of concurrent calls on a busy CPU.
        server.enqueue(FakeReply.text("one"));
        call(request("hi"));
        java.util.concurrent.Executor executor = model.transport().client().executor().orElseThrow();
        assertThat(executor).isInstanceOf(java.util.concurrent.ThreadPoolExecutor.class);
        java.util.concurrent.ThreadPoolExecutor pool = (java.util.concurrent.ThreadPoolExecutor) executor;
        assertThat(pool.getMaximumPoolSize()).isEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));
        assertThat(pool.allowsCoreThreadTimeOut()).isTrue();
        assertThat(pool.getThreadFactory().newThread(() -> { }).isDaemon()).isTrue();
    }

    @Test
    void historyMessagesAreWrittenOnceAndTheBodyIsTheSameAsWrittenAfresh() throws Exception {
        List<Message> history = new ArrayList<>(List.of(Message.user("start")));
        for (int turn = 0; turn < 6; turn++) {
            ModelRequest request = ModelRequest.builder("claude-test").maxTokens(64).messages(List.copyOf(history))
                    .tools(List.of(tool("lookup"))).build();
            WireBuffer reused = model.requests().create(request);
            WireBuffer fresh = new RequestMapper().create(request);
            assertThat(reused.text()).isEqualTo(fresh.text());
            assertThat(dev.rein.json.Json.parse(reused.text()).path("messages").size()).isEqualTo(history.size());
            reused.release();
            fresh.release();
            String id = "toolu_" + turn;
            history.add(Message.assistant(List.of(new TextBlock("looking"),
                    new ToolUseBlock(id, "lookup", dev.rein.json.Json.parse("{\"q\":\"" + turn + "\"}")))));
            history.add(Message.user(List.of(new ToolResultBlock(id, "result " + turn, false))));
        }
        // Every message but the ones carrying this request's breakpoint was cached once, by identity.
        assertThat(model.requests().cachedMessages()).isBetween(history.size() - 3, history.size());
    }

    /**
     * Every request copies the endpoint's fixed headers from one shared builder, which the JDK documents as not
     * thread-safe: many calls at once must each get the fixed headers once plus only their own betas and trace
     * context, and the shared builder must stay as it was, whatever the JDK's copy does.
     */
    @Test
    void concurrentRequestsEachCarryTheFixedHeadersAndOnlyTheirOwn() throws Exception {
        Duration d = Duration.ofSeconds(5);
        try (Transport t = new Transport("https://gw.example.com/proxy/", "sk-key", "tok", d, d, d)) {
            java.util.Queue<String> wrong = new java.util.concurrent.ConcurrentLinkedQueue<>();
            try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 20_000; i++) {
                    int n = i;
                    threads.submit(() -> {
                        WireBuffer body = WireBuffer.take(16);
                        try {
                            List<String> betas = n % 2 == 0 ? List.of("b" + n) : List.of();
                            Map<String, String> trace = n % 3 == 0 ? Map.of("traceparent", "tp" + n) : Map.of();
                            var sent = t.streamRequest(body, betas, trace);
                            Map<String, List<String>> want = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                            want.putAll(Map.of("accept", List.of("text/event-stream"), "anthropic-version",
                                    List.of(Transport.API_VERSION), "authorization", List.of("Bearer tok"),
                                    "content-type", List.of("application/json"), "x-api-key", List.of("sk-key")));
                            betas.forEach(b -> want.put("anthropic-beta", List.of(b)));
                            trace.forEach((k, v) -> want.put(k, List.of(v)));
                            if (!sent.headers().map().equals(want) || !sent.method().equals("POST")
                                    || !sent.uri().toString().equals("https://gw.example.com/proxy/v1/messages")) {
                                wrong.add(n + " " + sent.method() + " " + sent.uri() + " " + sent.headers().map());
                            }
                        } catch (RuntimeException e) {
                            wrong.add(n + " " + e);
                        } finally {
                            body.release();
                        }
                    });
                }
            }
            assertThat(wrong).as("requests with other headers than their own").isEmpty();
            WireBuffer body = WireBuffer.take(16);
            try {
                assertThat(t.streamRequest(body, List.of(), Map.of()).headers().map())
                        .as("the shared part afterwards").containsOnlyKeys("accept", "anthropic-version", "authorization",
                                "content-type", "x-api-key");
            } finally {
                body.release();
            }
        }
    }

    /**
     * The JDK's {@code BodyPublishers.ofByteArray} copies the body into buffers of its own on every subscription, and
     * the exchange keeps that copy while it waits for the response: at thousands of runs in flight, a second copy of
     * every request body alive across the model's whole wait. The body must go out from the request's own bytes,
     * exactly them, as often as the JDK subscribes (a redirect or retry sends it again).
     */
    @Test
    void theRequestBodyIsSentFromItsOwnBytesWithoutACopy() throws Exception {
        Duration d = Duration.ofSeconds(5);
        try (Transport t = new Transport("https://api.example.com", "sk-key", null, d, d, d)) {
            WireBuffer body = WireBuffer.take(64);
            try {
                body.write("{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8));
                var publisher = t.streamRequest(body, List.of(), Map.of()).bodyPublisher().orElseThrow();
                assertThat(publisher.contentLength()).isEqualTo(body.length());
                for (int subscription = 0; subscription < 2; subscription++) {
                    List<java.nio.ByteBuffer> sent = new ArrayList<>();
                    boolean[] completed = new boolean[1];
                    publisher.subscribe(new java.util.concurrent.Flow.Subscriber<java.nio.ByteBuffer>() {
                        private java.util.concurrent.Flow.Subscription s;

                        @Override
                        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                            this.s = s;
                            s.request(1);
                        }

                        @Override
                        public void onNext(java.nio.ByteBuffer item) {
                            sent.add(item);
                            s.request(1);
                        }

                        @Override
                        public void onError(Throwable e) {
                            throw new AssertionError(e);
                        }

                        @Override
                        public void onComplete() {
                            completed[0] = true;
                        }
                    });
                    assertThat(completed[0]).isTrue();
                    assertThat(sent).hasSize(1);
                    java.nio.ByteBuffer item = sent.get(0);
                    assertThat(item.hasArray() && item.array() == body.bytes()).as("sent from the body's own array").isTrue();
                    byte[] bytes = new byte[item.remaining()];
                    item.get(bytes);
                    assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"m\"}");
                }
            } finally {
                body.release();
            }
        }
    }

    @Test
    void aStreamThatFallsSilentEndsWithATimeoutAfterTheReadTimeout() throws Exception {
        // The read timeout also bounds the wait for the response headers, so a server that was slow to send
        // them (a loaded machine that did not schedule its thread in time) timed the call out before the
        // stream began, and the test, which then saw the JDK's bare 'request timed out', failed at times. The
        // server now runs on a platform thread, the timeout leaves it a second, and the test checks that the
        // stream did begin, so what ends the call is the silence after the first event.
        Duration readTimeout = Duration.ofSeconds(1);
        java.util.concurrent.CountDownLatch firstEventSent = new java.util.concurrent.CountDownLatch(1);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             AnthropicModel quick = AnthropicModel.builder().apiKey("k")
                     .baseUrl("http://127.0.0.1:" + listener.getLocalPort()).readTimeout(readTimeout).build()) {
            Thread serverThread = Thread.ofPlatform().daemon().start(() -> stallAfterFirstEvent(listener, firstEventSent));
            long started = System.nanoTime();
            ModelException e = catchThrowableOfType(ModelException.class, () -> quick.call(request("hi").build(),
                    new ModelCallContext(Instant.now().plusSeconds(30), StreamObserver.NONE)));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(firstEventSent.getCount()).as("the server sent the headers and the first event").isZero();
            assertThat(e).as("the call failed").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("the stream was silent longer than the read timeout");
            assertThat(millis).as("ms until the call failed").isGreaterThanOrEqualTo(readTimeout.toMillis());
            serverThread.interrupt();
        }
    }

    @Test
    void aServerThatSendsNoResponseHeadersNamesTheReadTimeoutItWaited() throws Exception {
        // Until the headers come, the read timeout bounds the wait too; the JDK's own words ('request
        // timed out') named no setting, so a user could not tell which limit to raise.
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             AnthropicModel mute = AnthropicModel.builder().apiKey("k")
                     .baseUrl("http://127.0.0.1:" + listener.getLocalPort()).readTimeout(Duration.ofMillis(700)).build()) {
            Thread serverThread = neverAnswers(listener);
            ModelException e = catchThrowableOfType(ModelException.class, () -> mute.call(request("hi").build(),
                    new ModelCallContext(Instant.now().plusSeconds(30), StreamObserver.NONE)));
            assertThat(e).as("the call failed").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("did not answer in time")
                    .contains("no response headers within the read timeout (700 ms; readTimeout)");
            serverThread.interrupt();
        }
    }

    @Test
    void aRequestTimeoutShorterThanTheReadTimeoutBoundsTheWaitForHeadersAndIsNamed() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             AnthropicModel mute = AnthropicModel.builder().apiKey("k").baseUrl("http://127.0.0.1:" + listener.getLocalPort())
                     .readTimeout(Duration.ofSeconds(30)).requestTimeout(Duration.ofMillis(600)).build()) {
            Thread serverThread = neverAnswers(listener);
            long started = System.nanoTime();
            ModelException e = catchThrowableOfType(ModelException.class, () -> mute.call(request("hi").build(),
                    new ModelCallContext(Instant.now().plusSeconds(60), StreamObserver.NONE)));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(e).as("the call failed").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
            assertThat(e.getMessage()).contains("no response headers within the request timeout (600 ms; requestTimeout)");
            assertThat(millis).as("ms until the call failed").isBetween(600L, 10_000L);
            assertThat(Thread.currentThread().isInterrupted()).as("the watchdog's interrupt is not left on the caller").isFalse();
            serverThread.interrupt();
        }
    }

    /**
     * Before: the request timeout, documented as the limit of one whole call, was counted from the response headers, so a
     * call whose headers came late could last the wait for them plus the whole request timeout.
     */
    @Test
    void theRequestTimeoutCountsFromTheStartOfTheCallNotFromTheHeaders() throws Exception {
        Duration requestTimeout = Duration.ofMillis(2000);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             AnthropicModel slow = AnthropicModel.builder().apiKey("k").baseUrl("http://127.0.0.1:" + listener.getLocalPort())
                     .readTimeout(Duration.ofSeconds(30)).requestTimeout(requestTimeout).build()) {
            Thread serverThread = Thread.ofPlatform().daemon().start(() -> {
                try (Socket socket = listener.accept()) {
                    socket.getInputStream().read(new byte[65536]);
                    Thread.sleep(1200); // the headers come late, within the limit
                    OutputStream out = socket.getOutputStream();
                    out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    byte[] ping = "event: ping\ndata: {\"type\":\"ping\"}\n\n".getBytes(StandardCharsets.UTF_8);
                    for (int i = 0; i < 100; i++) { // never silent, never done
                        out.write((Integer.toHexString(ping.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        out.write(ping);
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (Exception ignored) {
                    // The test is over.
                }
            });
            long started = System.nanoTime();
            ModelException e = catchThrowableOfType(ModelException.class, () -> slow.call(request("hi").build(),
                    new ModelCallContext(Instant.now().plusSeconds(60), StreamObserver.NONE)));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(e).as("the call failed").isNotNull();
            assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
            assertThat(e.getMessage()).contains("requestTimeout");
            assertThat(millis).as("ms until the call failed, counted from its start").isBetween(2000L, 3100L);
            serverThread.interrupt();
        }
    }

    @Test
    void theWatchdogInterruptsOnlyAWaitForHeadersThatRanOutAndLeavesNoInterruptBehind() throws Exception {
        try (Watchdog watchdog = new Watchdog(Duration.ofSeconds(1), Duration.ofMillis(40))) {
            Watchdog.HeaderWait answered = watchdog.awaitHeaders(Duration.ofMillis(100));
            assertThat(answered.end()).as("ended before its limit").isFalse();
            Thread.sleep(300); // past the limit: an ended wait is never interrupted
            assertThat(Thread.currentThread().isInterrupted()).isFalse();

            Watchdog.HeaderWait silent = watchdog.awaitHeaders(Duration.ofMillis(50));
            boolean interrupted = false;
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                interrupted = true;
            }
            assertThat(interrupted).as("the wait was interrupted at its limit").isTrue();
            assertThat(silent.end()).as("the limit ran out").isTrue();
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void aStreamLeftOpenAfterMessageStopEndsAtOnceWithTheWholeMessage() throws Exception {
        // A proxy that keeps the response open after the last event (seen for Anthropic-compatible gateways):
        // the message is whole at message_stop, so the call must not wait for the end of the body, and
        // certainly not for the read timeout (10 minutes by default), which the run's deadline would hit first.
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             AnthropicModel held = AnthropicModel.builder().apiKey("k")
                     .baseUrl("http://127.0.0.1:" + listener.getLocalPort()).build()) {
            Thread serverThread = Thread.ofVirtual().start(() -> holdOpenAfterMessageStop(listener));
            long started = System.nanoTime();
            ModelResponse response = held.call(request("hi").build(), new ModelCallContext(Instant.now().plusSeconds(60),
                    StreamObserver.NONE));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(response.text()).isEqualTo("終わり");
            assertThat(response.stopReason()).isEqualTo(dev.rein.model.StopReason.END_TURN);
            assertThat(millis).as("ms until the call returned").isLessThan(5_000);
            serverThread.interrupt();
        }
    }

    @Test
    void aConnectionDroppedAfterMessageStopKeepsTheWholeAnswer() throws Exception {
        // Every event came, message_stop included, and then the connection broke before the body's end (a
        // proxy that closes without the last chunk): the message is whole and billed, so it is the answer,
        // not a failure whose retry pays for it again.
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             AnthropicModel dropped = AnthropicModel.builder().apiKey("k")
                     .baseUrl("http://127.0.0.1:" + listener.getLocalPort()).build()) {
            Thread.ofVirtual().start(() -> dropAfterMessageStop(listener));
            ModelResponse response = dropped.call(request("hi").build(), new ModelCallContext(Instant.now().plusSeconds(30),
                    StreamObserver.NONE));
            assertThat(response.text()).isEqualTo("終わり");
            assertThat(response.stopReason()).isEqualTo(dev.rein.model.StopReason.END_TURN);
        }
    }

    /** A server that reads the request and never answers it (until the test interrupts it). */
    private static Thread neverAnswers(ServerSocket listener) {
        return Thread.ofPlatform().daemon().start(() -> {
            try (Socket socket = listener.accept()) {
                socket.getInputStream().read(new byte[65536]);
                Thread.sleep(60_000);
            } catch (Exception ignored) {
                // The test is over.
            }
        });
    }

    private static void dropAfterMessageStop(ServerSocket listener) {
        try (Socket socket = listener.accept()) {
            writeWholeMessageWithoutTheLastChunk(socket);
            Thread.sleep(200); // read by the client, then the connection breaks: no last chunk
        } catch (Exception ignored) {
            // The test is over.
        }
    }

    private static void holdOpenAfterMessageStop(ServerSocket listener) {
        try (Socket socket = listener.accept()) {
            writeWholeMessageWithoutTheLastChunk(socket);
            Thread.sleep(60_000); // no last chunk: the body stays open
        } catch (Exception ignored) {
            // The test is over.
        }
    }

    private static void writeWholeMessageWithoutTheLastChunk(Socket socket) throws java.io.IOException {
        socket.getInputStream().read(new byte[65536]);
        OutputStream out = socket.getOutputStream();
        out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        String events = new FakeApi.Sse().messageStart("{\"input_tokens\":5,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"終わり\"}")
                .end("end_turn", "{\"output_tokens\":2}").build();
        byte[] bytes = events.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static void stallAfterFirstEvent(ServerSocket listener, java.util.concurrent.CountDownLatch firstEventSent) {
        try (Socket socket = listener.accept()) {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[65536];
            in.read(buffer);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String event = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\","
                    + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"x\",\"content\":[],\"usage\":{}}}\n\n";
            byte[] bytes = event.getBytes(StandardCharsets.UTF_8);
            out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            firstEventSent.countDown();
            Thread.sleep(10_000);
        } catch (Exception ignored) {
            // The test is over.
        }
    }

    /** The sockets in the JDK client's connection pool (internal API, opened for this test by the pom). */
    @SuppressWarnings("unchecked")
    static List<SocketChannel> pooledSockets(HttpClient client) throws Exception {
        Object impl = field(client, "impl");
        Object pool = field(impl, "connections");
        List<SocketChannel> sockets = new ArrayList<>();
        for (String name : List.of("plainPool", "sslPool")) {
            Map<Object, ? extends Collection<Object>> connections = (Map<Object, ? extends Collection<Object>>) field(pool, name);
            for (Collection<Object> list : connections.values()) {
                for (Object connection : list) {
                    Method channel = Class.forName("jdk.internal.net.http.HttpConnection").getDeclaredMethod("channel");
                    channel.setAccessible(true);
                    sockets.add((SocketChannel) channel.invoke(connection));
                }
            }
        }
        return sockets;
    }

    private static Object field(Object target, String name) throws Exception {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field f = type.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // Look in the superclass.
            }
        }
        throw new NoSuchFieldException(name);
    }
}
