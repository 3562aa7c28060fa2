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
 * {@link #VERSION}, hands out session ids {@code s1}, {@code s2}, … and offers tools {@code echo}
 * and {@code slow} (answers after two seconds).
 */
final class ScriptedHttpServer implements AutoCloseable {
    static final String VERSION = "2025-06-18";

    /**
     * One request as received: HTTP method, JSON-RPC method (or null), the MCP headers, and a
     * tools/call's idempotency key from {@code _meta} (else null).
     */
    record Received(String httpMethod, String rpcMethod, String sessionId, String protocolVersion, String accept,
                    String idempotencyKey) {}

    final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger sessions = new AtomicInteger();
    /** Calls of tools/call still to be refused with 404, as if the server had forgotten the session. */
    final AtomicInteger forgetSessionOnCalls = new AtomicInteger();
    /** False: a server that hands out no session ids (and so needs none). */
    private final boolean sessionful;
    private volatile String liveSession;
    private final HttpServer server;

    ScriptedHttpServer() throws IOException {
        this(true);
    }

    ScriptedHttpServer(boolean sessionful) throws IOException {
        this.sessionful = sessionful;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", this::handle);
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
        var headers = exchange.getRequestHeaders();
        String session = headers.getFirst("Mcp-Session-Id");
        JsonNode key = message == null ? null : message.at("/params/_meta/dev.rein~1idempotency-key");
        received.add(new Received(exchange.getRequestMethod(), method, session, headers.getFirst("MCP-Protocol-Version"),
                headers.getFirst("Accept"), key == null || key.isMissingNode() ? null : key.asText()));
        switch (exchange.getRequestMethod()) {
            case "GET" -> send(exchange, 405, null, null);
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
                    send(exchange, 200, id, Map.of("protocolVersion", VERSION, "capabilities", Map.of("tools", Map.of()),
                            "serverInfo", Map.of("name", "scripted", "version", "1")));
                    return;
                }
                if (sessionful && (session == null || !session.equals(liveSession))) {
                    send(exchange, 404, null, null);
                    return;
                }
                switch (method) {
                    case "tools/list" -> send(exchange, 200, id, Map.of("tools", List.of(
                            tool("echo"), tool("slow"))));
                    case "tools/call" -> {
                        if (forgetSessionOnCalls.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                            liveSession = null;
                            send(exchange, 404, null, null);
                            return;
                        }
                        if ("slow".equals(message.at("/params/name").asText())) {
                            sleep(2000);
                        }
                        send(exchange, 200, id, Map.of("content", List.of(Map.of("type", "text", "text", "done"))));
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
