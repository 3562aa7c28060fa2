package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rein.json.Json;
import dev.rein.mcp.McpConfig;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServerWarningsTest {
    @Test
    void anEventPassedOverIsWarnedOfOncePerServerNotAgainInTheSessionThatReplacesABrokenOne() throws Exception {
        // Before: once per session, so each new session after a broken one (a response stream cut off, a timeout, a restart)
        // logged the same warning again, where stdio says the first skipped line once per server.
        AtomicInteger sessions = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        java.util.concurrent.CountDownLatch hung = new java.util.concurrent.CountDownLatch(1);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            try (exchange) {
                JsonNode message = exchange.getRequestMethod().equals("POST") ? Json.mapper().readTree(exchange.getRequestBody()) : null;
                String method = message == null ? "" : message.path("method").asText();
                String id = message == null || !message.has("id") ? "null" : Json.write(message.get("id"));
                String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
                if (!exchange.getRequestMethod().equals("POST")) {
                    exchange.sendResponseHeaders(exchange.getRequestMethod().equals("GET") ? 405 : 200, -1);
                } else if (method.equals("initialize")) {
                    exchange.getResponseHeaders().set("Mcp-Session-Id", "s" + sessions.incrementAndGet());
                    send(exchange, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}");
                } else if (!message.has("id")) {
                    exchange.sendResponseHeaders(202, -1);
                } else if (method.equals("tools/list")) {
                    send(exchange, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"tools\":[{\"name\":\"echo\","
                            + "\"inputSchema\":{\"type\":\"object\"}}]}}");
                } else {
                    if (method.equals("ping") || calls.incrementAndGet() == 2) {
                        // The second call is not answered, nor the ping after it: its timeout leaves the session in doubt,
                        // replaced at the next call.
                        await(hung);
                        return;
                    }
                    send(exchange, "text/event-stream", "data: {\"level\":\"info\",\"msg\":\"東京\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":"
                            + id + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n");
                }
            }
        });
        server.start();
        List<String> warned = new CopyOnWriteArrayList<>();
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"remote\": {\"url\": \"http://127.0.0.1:" + server.getAddress().getPort()
                + "/mcp\"}}}", "test", Map.of());
        try (ServerConnection connection = new ServerConnection(config.servers().getFirst(), null, McpJsonDefaults.getMapper(),
                tools -> { }, new ServerWarnings(warned::add)).pingTimeout(java.time.Duration.ofMillis(300))) {
            connection.start();
            for (int i = 1; i <= 3; i++) {
                dev.rein.tool.ToolOutput output = connection.call("echo", Map.of(), Map.of(), Instant.now().plusSeconds(i == 2 ? 1 : 20), false,
                        true, null);
                assertThat(output.isError()).as(output.content()).isEqualTo(i == 2);
            }
            assertThat(sessions.get()).as("a new session for the third call").isEqualTo(2);
            assertThat(warned).singleElement().asString().startsWith("MCP server 'remote' sent an event that is no JSON-RPC message")
                    .endsWith("(further such events of this server are passed over without a warning): '{\"level\":\"info\",\"msg\":\"東京\"}'");
        } finally {
            hung.countDown();
            server.stop(0);
        }
    }

    @Test
    void eachKindIsSaidOnce() {
        List<String> warned = new CopyOnWriteArrayList<>();
        ServerWarnings warnings = new ServerWarnings(warned::add);
        warnings.once("a", () -> "first a");
        warnings.once("a", () -> "second a");
        warnings.once("b", () -> "first b");
        assertThat(warned).containsExactly("first a", "first b");
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
