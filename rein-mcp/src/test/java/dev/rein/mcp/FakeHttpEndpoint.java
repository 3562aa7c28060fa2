package dev.rein.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A streamable HTTP endpoint whose every exchange a test answers by hand, for the cases a server
 * written from the protocol text ({@link ScriptedHttpServer}) does not take: bodies that are not
 * JSON-RPC, error statuses, answers without an id. It listens on 127.0.0.1 at a free port; the
 * request body is read before the handler runs, and the exchange is closed after it.
 */
final class FakeHttpEndpoint implements AutoCloseable {
    /** Answers one exchange. */
    @FunctionalInterface
    interface Handler {
        /**
         * @param message the JSON of the request's body; null when it had none or it was not JSON
         */
        void handle(HttpExchange exchange, JsonNode message) throws IOException;
    }

    private final HttpServer server;

    private FakeHttpEndpoint(HttpServer server) {
        this.server = server;
    }

    /** Starts answering every path with {@code handler}, one exchange at a time. */
    static FakeHttpEndpoint start(Handler handler) {
        return start(handler, false);
    }

    /**
     * Starts answering every path with {@code handler}; {@code concurrent}: each exchange on a thread of its
     * own, so one the handler holds (never answered) does not hold up the others.
     */
    static FakeHttpEndpoint start(Handler handler, boolean concurrent) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            if (concurrent) {
                server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
                    Thread thread = new Thread(r, "fake-http-endpoint");
                    thread.setDaemon(true);
                    return thread;
                }));
            }
            server.createContext("/", exchange -> {
                try (exchange) {
                    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                    handler.handle(exchange, parse(body));
                }
            });
            server.start();
            return new FakeHttpEndpoint(server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The URL of {@code path} (e.g. "/mcp") on this endpoint. */
    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** A servers file with one server named {@code name} at {@code path}, and {@code extraKeys} (", ..." or ""). */
    McpConfig config(String name, String path, String extraKeys) {
        return McpConfig.parse("{\"mcpServers\": {\"" + name + "\": {\"url\": \"" + url(path) + "\"" + extraKeys + "}}}", "test",
                java.util.Map.of());
    }

    /** The JSON-RPC method of {@code message}, or "" for none. */
    static String method(JsonNode message) {
        return message == null ? "" : message.path("method").asText();
    }

    /** The id of {@code message} as JSON text ("1", "\"a\""), to write into an answer; "null" for none. */
    static String id(JsonNode message) {
        return message == null || !message.has("id") ? "null" : Json.write(message.get("id"));
    }

    /** The answer to {@code initialize} with protocol version 2025-06-18 and the tools capability. */
    static String initialized(JsonNode request) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id(request) + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}";
    }

    /** The answer to {@code tools/list} with the one tool {@code tool} (its JSON). */
    static String listed(JsonNode request, String tool) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id(request) + ",\"result\":{\"tools\":[" + tool + "]}}";
    }

    /** A tool named echo that only reads (its {@code readOnlyHint}), as {@code tools/list} lists it. */
    static final String READ_ONLY_ECHO = "{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}";

    /**
     * What a server with the one tool {@link #READ_ONLY_ECHO} answers to {@code message}: initialized, the tool
     * listed, a call's text "done"; null for anything else (a notification).
     */
    static String echoAnswer(JsonNode message) {
        return switch (method(message)) {
            case "initialize" -> initialized(message);
            case "tools/list" -> listed(message, READ_ONLY_ECHO);
            case "tools/call" -> "{\"jsonrpc\":\"2.0\",\"id\":" + id(message) + ",\"result\":{\"content\":[{\"type\":\"text\","
                    + "\"text\":\"done\"}]}}";
            default -> null;
        };
    }

    /**
     * Answers a POST as the server of {@link #echoAnswer} does, in session {@code session}: its JSON answer, or
     * 202 with no body for a notification.
     */
    static void echo(HttpExchange exchange, JsonNode message, String session) throws IOException {
        exchange.getResponseHeaders().set("Mcp-Session-Id", session);
        String answer = echoAnswer(message);
        if (answer == null) {
            empty(exchange, 202);
            return;
        }
        json(exchange, 200, answer);
    }

    /**
     * {@link #echo} for a POST, counting its {@code tools/list} requests in {@code listings}; any other method
     * (the DELETE that ends the session) gets 200 with no body.
     */
    static void echoCountingListings(HttpExchange exchange, JsonNode message, String session,
                                     java.util.concurrent.atomic.AtomicInteger listings) throws IOException {
        if (!exchange.getRequestMethod().equals("POST")) {
            empty(exchange, 200);
            return;
        }
        if (method(message).equals("tools/list")) {
            listings.incrementAndGet();
        }
        echo(exchange, message, session);
    }

    /** Answers with {@code status} and {@code body} as application/json. */
    static void json(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, "application/json", body);
    }

    /** Answers 200 with {@code events} as an event stream (text/event-stream), then ends it. */
    static void events(HttpExchange exchange, String events) throws IOException {
        send(exchange, 200, "text/event-stream", events);
    }

    /** Answers with {@code status} and no body. */
    static void empty(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
    }

    /** Answers with {@code status} and {@code body} of {@code type}. */
    static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static JsonNode parse(String body) {
        if (body.isBlank()) {
            return null;
        }
        try {
            return Json.mapper().readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
