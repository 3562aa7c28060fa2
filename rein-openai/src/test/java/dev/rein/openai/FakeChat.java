package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StreamObserver;
import dev.rein.model.ToolDefinition;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Shared setup: a fake Chat Completions server and an {@link OpenAiModel} pointed at it, without a key. */
abstract class FakeChat {
    protected FakeChatCompletionsServer server;
    protected OpenAiModel model;
    protected final Recorded stream = new Recorded();

    @BeforeEach
    void startServer() {
        server = FakeChatCompletionsServer.start();
        model = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null).build();
    }

    @AfterEach
    void stopServer() {
        model.close();
        server.close();
    }

    protected static ModelRequest.Builder request(String userText) {
        return ModelRequest.builder("gpt-test").maxTokens(256).addMessage(Message.user(userText));
    }

    protected static ToolDefinition tool(String name) {
        return new ToolDefinition(name, "The " + name + " tool.", (ObjectNode) Json.parse(
                "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}"));
    }

    protected ModelResponse call(ModelRequest.Builder request) throws ModelException, InterruptedException {
        return model.call(request.build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
    }

    /** A verbatim event-stream body (for {@code ChatReply.Malformed}, which sends any body) with these {@code data:} payloads. */
    protected static String events(String... data) {
        StringBuilder body = new StringBuilder();
        for (String d : data) {
            body.append("data: ").append(d).append("\n\n");
        }
        return body.toString();
    }

    /**
     * Calls a one-shot server that answers HTTP 200 with this content type and body and {@code
     * x-request-id: req_plain}: for answers the fake does not script, e.g. a JSON body to a
     * streaming request.
     */
    protected ModelResponse callPlainServer(String contentType, String body) throws ModelException, InterruptedException {
        HttpServer http;
        try {
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        http.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("content-type", contentType);
            exchange.getResponseHeaders().set("x-request-id", "req_plain");
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        http.start();
        try (OpenAiModel plain = OpenAiModel.builder().baseUrl("http://127.0.0.1:" + http.getAddress().getPort() + "/v1")
                .environment(name -> null).build()) {
            return plain.call(request("x").build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
        } finally {
            http.stop(0);
        }
    }

    protected JsonNode lastBody() {
        return server.lastRequest().body();
    }

    /** Records what reached the stream observer. */
    static final class Recorded implements StreamObserver {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onTextDelta(String text) {
            events.add("text:" + text);
        }

        @Override
        public void onThinkingDelta(String thinking) {
            events.add("thinking:" + thinking);
        }

        @Override
        public void onToolUseStart(String id, String name) {
            events.add("start:" + id + ":" + name);
        }

        @Override
        public void onToolInputDelta(String id, String partialJson) {
            events.add("input:" + id + ":" + partialJson);
        }

        String text() {
            StringBuilder sb = new StringBuilder();
            events.stream().filter(e -> e.startsWith("text:")).forEach(e -> sb.append(e.substring(5)));
            return sb.toString();
        }
    }
}
