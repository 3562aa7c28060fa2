package dev.rein.mcp;

import com.sun.net.httpserver.HttpServer;
import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScratchProbeTest {
    @ParameterizedTest
    @ValueSource(ints = {200, 400, 500})
    void nullIdError(int status) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/mcp", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            var message = body.isBlank() ? null : Json.parse(body);
            String method = message == null ? "" : message.path("method").asText();
            String id = message == null ? "" : String.valueOf(message.get("id"));
            if (!"POST".equals(exchange.getRequestMethod()) || message == null || !message.has("id")) {
                exchange.sendResponseHeaders("POST".equals(exchange.getRequestMethod()) ? 202 : 405, -1);
                exchange.close();
                return;
            }
            String answer = switch (method) {
                case "initialize" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}";
                case "tools/list" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"tools\":[{\"name\":\"look\","
                        + "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}}";
                default -> null;
            };
            int code = 200;
            if (answer == null) {
                answer = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: 日本語\"}}";
                code = status;
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(code, bytes.length);
            try (var out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
        try (McpToolset mcp = McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"x\": {\"url\": \"" + url + "\", \"timeout_seconds\": 6}}}", "test", Map.of()))) {
            Tool look = mcp.tools().getFirst();
            long t0 = System.nanoTime();
            ToolOutput out = (ToolOutput) look.handler().handle(Json.parse("{}"), ToolContext.standalone("k1").withDeadline(Instant.now().plusSeconds(8)));
            System.out.println("PROBE " + status + " (" + (System.nanoTime() - t0) / 1_000_000 + " ms): " + out);
        } finally {
            server.stop(0);
        }
    }
}
