package dev.rein.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A lean fake of {@code POST /v1/messages}, the same for every client under test: it answers the
 * {@code k}-th model call of a run (k = number of assistant turns in the request) with a short text
 * and {@code toolsPerStep} {@code lookup} calls until the last step, then with a final text. JSON or
 * SSE, as the request asks. It keeps no per-request state, so it costs the same at step 1 and 30.
 *
 * <p>Run alone ({@code main}) for the concurrency runner, so that the server is in its own JVM.
 */
public final class BenchServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer http;
    private final ExecutorService executor;
    private final int steps;
    private final int toolsPerStep;
    private final long latencyMillis;
    private final AtomicLong lastResponseDone = new AtomicLong();
    private final ConcurrentLinkedQueue<long[]> gaps = new ConcurrentLinkedQueue<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** The turn whose requests wait for {@code POST /release} ({@link #main}'s fourth argument); -1: none. */
    private volatile int holdTurn = -1;
    private final AtomicInteger held = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);

    /**
     * @param virtualThreads handle each exchange on its own virtual thread (thousands of concurrent
     *                       runs) instead of two platform threads named {@code bench-server-*}
     */
    public BenchServer(int port, int steps, int toolsPerStep, long latencyMillis, boolean virtualThreads) throws IOException {
        this.steps = steps;
        this.toolsPerStep = toolsPerStep;
        this.latencyMillis = latencyMillis;
        this.http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16_384);
        AtomicInteger n = new AtomicInteger();
        this.executor = virtualThreads ? Executors.newVirtualThreadPerTaskExecutor()
                : Executors.newFixedThreadPool(2, r -> {
                    Thread t = new Thread(r, "bench-server-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        http.setExecutor(executor);
        http.createContext("/v1/messages", this::handle);
        http.createContext("/held", this::held);
        http.createContext("/release", exchange -> {
            release.countDown();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        http.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    /**
     * Each gap between the end of a response and the arrival of the next request (single-run use):
     * its start and end, {@code System.nanoTime}.
     */
    public List<long[]> gaps() {
        return List.copyOf(gaps);
    }

    /** Whether a thread belongs to this server (its CPU and allocation are not the client's). */
    static boolean serverThread(String name) {
        return name.startsWith("bench-server") || name.startsWith("HTTP-Dispatcher");
    }

    private void handle(HttpExchange exchange) throws IOException {
        long arrived = System.nanoTime();
        long previous = lastResponseDone.get();
        if (previous != 0) {
            gaps.add(new long[] {previous, arrived});
        }
        JsonNode request;
        try (InputStream in = exchange.getRequestBody()) {
            request = JSON.readTree(in);
        }
        int turn = 0;
        for (JsonNode m : request.path("messages")) {
            if ("assistant".equals(m.path("role").asText())) {
                turn++;
            }
        }
        boolean last = turn >= steps - 1;
        if (turn == holdTurn) { // the footprint runner's runs wait here, all at the same point, until it has measured
            held.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        boolean stream = request.path("stream").asBoolean(false);
        if (latencyMillis > 0) {
            try {
                Thread.sleep(latencyMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        byte[] body = stream ? sse(turn, last) : json(turn, last);
        exchange.getResponseHeaders().set("content-type", stream ? "text/event-stream" : "application/json");
        exchange.getResponseHeaders().set("request-id", "req_bench");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
        lastResponseDone.set(last ? 0 : System.nanoTime());
    }

    /** {@code GET /held}: how many requests wait at the hold turn. */
    private void held(HttpExchange exchange) throws IOException {
        byte[] body = String.valueOf(held.get()).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private String text(int turn, boolean last) {
        return last ? "All " + turn + " items were looked up; the answer is 42." : "Looking up item " + turn + ".";
    }

    private String toolUse(int turn, int i) {
        return "{\"type\":\"tool_use\",\"id\":\"toolu_" + ids.incrementAndGet() + "\",\"name\":\"lookup\",\"input\":"
                + input(turn, i) + "}";
    }

    private static String input(int turn, int i) {
        return "{\"q\":\"item " + turn + "-" + i + "\"}";
    }

    private byte[] json(int turn, boolean last) {
        StringBuilder content = new StringBuilder("[{\"type\":\"text\",\"text\":\"" + text(turn, last) + "\"}");
        if (!last) {
            for (int i = 0; i < toolsPerStep; i++) {
                content.append(',').append(toolUse(turn, i));
            }
        }
        content.append(']');
        return ("{\"id\":\"msg_bench\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-bench\",\"content\":"
                + content + ",\"stop_reason\":\"" + (last ? "end_turn" : "tool_use") + "\",\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":" + (100 + 120 * turn) + ",\"output_tokens\":20}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private byte[] sse(int turn, boolean last) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        event(out, "message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_bench\",\"type\":\"message\","
                + "\"role\":\"assistant\",\"model\":\"claude-bench\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
                + "\"usage\":{\"input_tokens\":" + (100 + 120 * turn) + ",\"output_tokens\":1}}}");
        event(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
        event(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\""
                + text(turn, last) + "\"}}");
        event(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}");
        if (!last) {
            for (int i = 0; i < toolsPerStep; i++) {
                int index = i + 1;
                event(out, "content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index + ",\"content_block\":"
                        + "{\"type\":\"tool_use\",\"id\":\"toolu_" + ids.incrementAndGet() + "\",\"name\":\"lookup\",\"input\":{}}}");
                String partial = JSON.valueToTree(input(turn, i)).toString();
                event(out, "content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index
                        + ",\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":" + partial + "}}");
                event(out, "content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
            }
        }
        event(out, "message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + (last ? "end_turn" : "tool_use")
                + "\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":20}}");
        event(out, "message_stop", "{\"type\":\"message_stop\"}");
        return out.toByteArray();
    }

    private static void event(ByteArrayOutputStream out, String name, String data) {
        out.writeBytes(("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    /**
     * {@code BenchServer PORT_FILE STEPS LATENCY_MS [HOLD_TURN]}: serves until killed, its port written to PORT_FILE;
     * with HOLD_TURN, the requests of that turn (0: the first) wait until {@code POST /release}, and {@code GET /held}
     * says how many wait ({@link FootprintBench}).
     */
    public static void main(String[] args) throws Exception {
        BenchServer server = new BenchServer(0, Integer.parseInt(args[1]), 1, Long.parseLong(args[2]), true);
        if (args.length > 3) {
            server.holdTurn = Integer.parseInt(args[3]);
        }
        Path portFile = Path.of(args[0]);
        Files.writeString(portFile.resolveSibling(portFile.getFileName() + ".tmp"), server.baseUrl());
        Files.move(portFile.resolveSibling(portFile.getFileName() + ".tmp"), portFile);
        Thread.currentThread().join();
    }
}
