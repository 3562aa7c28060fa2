package dev.rein.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A streamable HTTP MCP server written by hand from the protocol text, recording every request,
 * so a test sees exactly which methods and headers the client sends. It negotiates
 * {@link #VERSION}, hands out session ids {@code s1}, {@code s2}, … and offers tools {@code echo},
 * {@code slow} (answers after two seconds) and {@code polled} (answers by SSE polling).
 */
final class ScriptedHttpServer implements AutoCloseable {
    static final String VERSION = "2025-06-18";

    /**
     * One request as received: HTTP method, JSON-RPC method (or null), the MCP headers, a
     * tools/call's idempotency key from {@code _meta} (else null), and its Authorization header.
     */
    record Received(String httpMethod, String rpcMethod, String sessionId, String protocolVersion, String accept,
                    String idempotencyKey, String lastEventId, java.time.Instant at, String authorization) {}

    final List<Received> received = new CopyOnWriteArrayList<>();
    /** Every JSON-RPC message posted, as sent. */
    final List<JsonNode> messages = new CopyOnWriteArrayList<>();
    private final AtomicInteger sessions = new AtomicInteger();
    /** Calls of tools/call still to be refused with 404, as if the server had forgotten the session. */
    final AtomicInteger forgetSessionOnCalls = new AtomicInteger();
    /** Requests of tools/list still to be refused with 404, as if the server had forgotten the session. */
    final AtomicInteger forgetSessionOnLists = new AtomicInteger();
    /** How many tools/list requests are answered before {@link #forgetSessionOnLists} applies. */
    final AtomicInteger listsBeforeForgetting = new AtomicInteger();
    /** False: a server that hands out no session ids (and so needs none). */
    private final boolean sessionful;
    private volatile String liveSession;
    /**
     * Tool {@code polled} is answered by SSE polling: the POST's stream gets a priming event and is
     * closed; a GET resuming from it gets another priming event and is closed; a GET resuming from
     * that one gets the answer. {@link #RETRY_MILLIS} is the retry time each priming event sets.
     */
    static final long RETRY_MILLIS = 300;
    /** Answers waiting for a GET resuming from the event id they are keyed by. */
    private final Map<String, String> parked = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * True: the first GET stream (for the server's own messages) is primed with event id {@code g1}
     * and closed; a GET resuming from {@code g1} gets {@code notifications/tools/list_changed}.
     */
    final java.util.concurrent.atomic.AtomicBoolean primeStandaloneStream = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * True: a GET resuming a stream from an event id finds the server restarted: it forgets the
     * session and answers 404, as a server answers a session it no longer knows.
     */
    final java.util.concurrent.atomic.AtomicBoolean forgetSessionOnResume = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * True: a POST-only route (Express answers 'Cannot GET /mcp'): every GET, the first of a session
     * and one resuming a stream alike, is answered 404, and the session is kept.
     */
    final java.util.concurrent.atomic.AtomicBoolean postOnlyRoute = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * When not 0, the HTTP status every GET resuming a stream from an event id is answered with (405: a
     * server that offers no SSE stream at the endpoint), the session kept.
     */
    final AtomicInteger refuseResumeWith = new AtomicInteger();
    /** When above 0, how many GETs resuming a stream {@link #refuseResumeWith} refuses; those after them are served. */
    final AtomicInteger refuseResumeTimes = new AtomicInteger();
    /** When set, the Retry-After header of those refusals. */
    final java.util.concurrent.atomic.AtomicReference<String> refuseResumeRetryAfter = new java.util.concurrent.atomic.AtomicReference<>();
    /**
     * True: tools/list is answered by SSE polling as {@code polled} is: its stream is primed with
     * event id {@code l<id>} and closed, and a GET resuming from it gets the answer.
     */
    final java.util.concurrent.atomic.AtomicBoolean pollLists = new java.util.concurrent.atomic.AtomicBoolean();
    /** True: initialize is answered as {@link #pollLists} answers a page: primed with event id {@code i<id>} and closed. */
    final java.util.concurrent.atomic.AtomicBoolean pollInit = new java.util.concurrent.atomic.AtomicBoolean();
    /** When above 0, how long a call of {@code polled} works before its POST's stream is primed and closed (a call using its time). */
    final AtomicInteger polledWorksMillis = new AtomicInteger();
    /** True: every GET resuming a stream from an event id has its connection closed before any answer (a server going down). */
    final java.util.concurrent.atomic.AtomicBoolean dropResumes = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * When above 0, a GET resuming the stream of a call of {@code polled} is never answered: it is
     * primed with a new event id, held open this long, and closed (a server still working, polling).
     */
    final AtomicInteger holdResumesMillis = new AtomicInteger();
    /** Event ids a GET resuming from is only primed again. */
    private final java.util.Set<String> pollAgain = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** When set, the answer to every tools/call of tool {@code echo} instead of the usual "done". */
    final java.util.concurrent.atomic.AtomicReference<Object> echoAnswer = new java.util.concurrent.atomic.AtomicReference<>();
    /** When not 0, the HTTP status every tools/call is refused with (as a server whose token expired). */
    final AtomicInteger refuseCallsWith = new AtomicInteger();
    /** When set, the Retry-After header of that refusal (a 429 or 503 asking to be tried again later). */
    final java.util.concurrent.atomic.AtomicReference<String> refusalRetryAfter = new java.util.concurrent.atomic.AtomicReference<>();
    /** When set, the JSON body of that refusal (a JSON-RPC error, as the transports spec lets it carry); else none. */
    final java.util.concurrent.atomic.AtomicReference<String> refusalBody = new java.util.concurrent.atomic.AtomicReference<>();
    /**
     * When set, the raw JSON the resumed stream of a call of {@code polled} ends with, instead of
     * its answer (a JSON-RPC error without an id, say); {@code "{ID}"} in it stands for the call's id.
     */
    final java.util.concurrent.atomic.AtomicReference<String> polledAnswer = new java.util.concurrent.atomic.AtomicReference<>();
    /** When set, the result the resumed stream of a call of {@code polled} answers with, instead of the text "polled". */
    final java.util.concurrent.atomic.AtomicReference<Object> polledResult = new java.util.concurrent.atomic.AtomicReference<>();
    /** When set, the raw JSON the resumed stream for the server's own messages carries instead of list_changed. */
    final java.util.concurrent.atomic.AtomicReference<String> standaloneMessage = new java.util.concurrent.atomic.AtomicReference<>();
    /** The protocol version it answers initialize with. */
    volatile String version = VERSION;
    /** True: initialize is answered with instructions naming the new session ("Session s2: …"). */
    final java.util.concurrent.atomic.AtomicBoolean instructionsPerSession = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * True: initialize and tools/list are answered with an event stream (a priming event, then the
     * answer), which the transports spec lets a server answer any request with.
     */
    final java.util.concurrent.atomic.AtomicBoolean startByEvents = new java.util.concurrent.atomic.AtomicBoolean();
    private final HttpServer server;

    ScriptedHttpServer() throws IOException {
        this(true);
    }

    ScriptedHttpServer(boolean sessionful) throws IOException {
        this.sessionful = sessionful;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", this::handle);
        // Moved: every request is redirected to /mcp with the status the path names (/moved/307, /moved/308).
        server.createContext("/moved/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Location", "/mcp");
            exchange.sendResponseHeaders(Integer.parseInt(exchange.getRequestURI().getPath().substring("/moved/".length())), -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
    }

    List<Received> rpc(String method) {
        return received.stream().filter(r -> method.equals(r.rpcMethod())).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode message = body.isBlank() ? null : Json.parse(body);
        String method = message == null || !message.has("method") ? null : message.get("method").asText();
        if (message != null) {
            messages.add(message);
        }
        var headers = exchange.getRequestHeaders();
        String session = headers.getFirst("Mcp-Session-Id");
        JsonNode key = message == null ? null : message.at("/params/_meta/dev.rein~1idempotency-key");
        received.add(new Received(exchange.getRequestMethod(), method, session, headers.getFirst("MCP-Protocol-Version"),
                headers.getFirst("Accept"), key == null || key.isMissingNode() ? null : key.asText(), headers.getFirst("Last-Event-ID"),
                java.time.Instant.now(), headers.getFirst("Authorization")));
        switch (exchange.getRequestMethod()) {
            case "GET" -> {
                String last = headers.getFirst("Last-Event-ID");
                if (postOnlyRoute.get()) {
                    send(exchange, 404, null, null);
                    return;
                }
                if (last != null && dropResumes.get()) {
                    exchange.close(); // no status line: the client's GET fails as on a dropped connection
                    return;
                }
                int times = refuseResumeTimes.get(); // 0: every one; -1: as many as asked were refused
                if (last != null && refuseResumeWith.get() != 0
                        && (times == 0 || times > 0 && refuseResumeTimes.compareAndSet(times, times == 1 ? -1 : times - 1))) {
                    if (refuseResumeRetryAfter.get() != null) {
                        exchange.getResponseHeaders().set("Retry-After", refuseResumeRetryAfter.get());
                    }
                    send(exchange, refuseResumeWith.get(), null, null);
                    return;
                }
                if (last != null && forgetSessionOnResume.get()) {
                    liveSession = null;
                    send(exchange, 404, null, null);
                    return;
                }
                if (last != null && last.startsWith("e") && holdResumesMillis.get() > 0) {
                    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
                    exchange.sendResponseHeaders(200, 0);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(("id: " + last + "+\nretry: " + RETRY_MILLIS + "\ndata: \n\n").getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        sleep(holdResumesMillis.get());
                    } catch (IOException e) {
                        // the client closed it
                    }
                    return;
                }
                String answer = last == null ? null : parked.remove(last);
                if (last == null && primeStandaloneStream.getAndSet(false)) {
                    // The stream for the server's own messages, closed at once after priming (SSE polling).
                    events(exchange, "id: g1\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
                } else if ("g1".equals(last)) {
                    String own = standaloneMessage.get();
                    events(exchange, (own == null ? "" : "id: g2\ndata: " + own + "\n\n")
                            + "id: g3\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
                } else if (last != null && pollAgain.remove(last)) {
                    events(exchange, "id: " + last + "-2\nretry: " + RETRY_MILLIS + "\ndata: \n\n"); // nothing new yet: poll again
                } else if (answer == null) {
                    send(exchange, 405, null, null);
                } else {
                    events(exchange, "id: " + last + "-done\ndata: " + answer + "\n\n");
                }
            }
            case "DELETE" -> send(exchange, 200, null, null);
            default -> {
                if (message == null || !message.has("id") || method == null) {
                    send(exchange, 202, null, null); // a notification or a response
                    return;
                }
                JsonNode id = message.get("id");
                if ("initialize".equals(method)) {
                    liveSession = "s" + sessions.incrementAndGet();
                    if (sessionful) {
                        exchange.getResponseHeaders().set("Mcp-Session-Id", liveSession);
                    }
                    Map<String, Object> result = new java.util.LinkedHashMap<>(Map.of("protocolVersion", version,
                            "capabilities", Map.of("tools", Map.of()), "serverInfo", Map.of("name", "scripted", "version", "1")));
                    if (instructionsPerSession.get()) {
                        result.put("instructions", "Session " + liveSession + ": 道具の使い方");
                    }
                    if (pollInit.get()) {
                        String event = "i" + id.asText();
                        parked.put(event, Json.write(Json.mapper().valueToTree(Map.of("jsonrpc", "2.0", "id", id, "result", result))));
                        events(exchange, "id: " + event + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
                    } else if (startByEvents.get()) {
                        answerByEvents(exchange, method, id, result);
                    } else {
                        send(exchange, 200, id, result);
                    }
                    return;
                }
                if (sessionful && (session == null || !session.equals(liveSession))) {
                    send(exchange, 404, null, null);
                    return;
                }
                switch (method) {
                    case "tools/list" -> {
                        if (listsBeforeForgetting.getAndUpdate(n -> Math.max(0, n - 1)) == 0
                                && forgetSessionOnLists.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            liveSession = null;
                            send(exchange, 404, null, null);
                            return;
                        }
                        Map<String, Object> result = Map.of("tools", List.of(tool("echo"), tool("slow"), tool("polled")));
                        if (pollLists.get()) {
                            String event = "l" + id.asText();
                            parked.put(event, Json.write(Json.mapper().valueToTree(Map.of("jsonrpc", "2.0", "id", id, "result", result))));
                            events(exchange, "id: " + event + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
                        } else if (startByEvents.get()) {
                            answerByEvents(exchange, method, id, result);
                        } else {
                            send(exchange, 200, id, result);
                        }
                    }
                    case "tools/call" -> {
                        if (refuseCallsWith.get() != 0) {
                            if (refusalRetryAfter.get() != null) {
                                exchange.getResponseHeaders().set("Retry-After", refusalRetryAfter.get());
                            }
                            String refusal = refusalBody.get();
                            if (refusal != null) {
                                byte[] bytes = refusal.getBytes(StandardCharsets.UTF_8);
                                exchange.getResponseHeaders().set("Content-Type", "application/json");
                                exchange.sendResponseHeaders(refuseCallsWith.get(), bytes.length);
                                try (OutputStream out = exchange.getResponseBody()) {
                                    out.write(bytes);
                                }
                                return;
                            }
                            send(exchange, refuseCallsWith.get(), null, null);
                            return;
                        }
                        if (forgetSessionOnCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            liveSession = null;
                            send(exchange, 404, null, null);
                            return;
                        }
                        if ("slow".equals(message.at("/params/name").asText())) {
                            sleep(2000);
                        }
                        if ("polled".equals(message.at("/params/name").asText())) {
                            // SSE polling (2025-11-25): prime the stream with an event id and a retry
                            // time, close the connection, and give the answer to a GET resuming from it.
                            String event = "e" + id.asText();
                            sleep(polledWorksMillis.get());
                            pollAgain.add(event);
                            String instead = polledAnswer.get();
                            parked.put(event + "-2", instead != null ? instead.replace("\"{ID}\"", Json.write(id)) : Json.write(Json.mapper().valueToTree(Map.of("jsonrpc",
                                    "2.0", "id", id, "result", polledResult.get() != null ? polledResult.get()
                                    : Map.of("content", List.of(Map.of("type", "text", "text", "polled")))))));
                            events(exchange, "id: " + event + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n");
                            return;
                        }
                        Object answer = "echo".equals(message.at("/params/name").asText()) ? echoAnswer.get() : null;
                        send(exchange, 200, id, answer != null ? answer : Map.of("content", List.of(Map.of("type", "text", "text", "done"))));
                    }
                    default -> send(exchange, 200, id, Map.of());
                }
            }
        }
    }

    private static Map<String, Object> tool(String name) {
        return Map.of("name", name, "description", "Tool " + name + ".", "inputSchema", Map.of("type", "object"),
                "annotations", Map.of("readOnlyHint", true));
    }

    private static void send(HttpExchange exchange, int status, JsonNode id, Object result) throws IOException {
        if (result == null) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        byte[] bytes = Json.write(Json.mapper().valueToTree(Map.of("jsonrpc", "2.0", "id", id, "result", result)))
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * Answers request {@code id} of {@code method} with an SSE stream: a priming event, then the
     * answer; the event ids begin with {@code METHOD-p}, so a test can break one method's stream.
     */
    private static void answerByEvents(HttpExchange exchange, String method, JsonNode id, Object result) throws IOException {
        String event = method + "-p" + id.asText();
        events(exchange, "id: " + event + "\nretry: " + RETRY_MILLIS + "\ndata: \n\n" + "id: " + event + "-done\ndata: "
                + Json.write(Json.mapper().valueToTree(Map.of("jsonrpc", "2.0", "id", id, "result", result))) + "\n\n");
    }

    /** Answers with an SSE stream holding {@code events}, then closes the connection. */
    private static void events(HttpExchange exchange, String events) throws IOException {
        byte[] bytes = events.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
