package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StreamObserver;
import dev.rein.model.ToolDefinition;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.RecordedRequest;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Shared setup: a fake Messages API server and an {@link AnthropicModel} pointed at it. */
abstract class FakeApi {
    protected FakeMessagesServer server;
    protected AnthropicModel model;
    protected final Recorded stream = new Recorded();

    @BeforeEach
    void startServer() {
        server = FakeMessagesServer.start();
        model = AnthropicModel.builder().apiKey("test-key").baseUrl(server.baseUrl()).build();
    }

    @AfterEach
    void stopServer() {
        model.close();
        server.close();
    }

    protected static ModelRequest.Builder request(String userText) {
        // Caching off unless a test asks for it, as for a request built without options.
        return ModelRequest.builder("claude-test").maxTokens(256).addMessage(Message.user(userText))
                .option(AnthropicOptions.caching(PromptCaching.DISABLED));
    }

    protected static ToolDefinition tool(String name) {
        return new ToolDefinition(name, "The " + name + " tool.",
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(
                        "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}"));
    }

    protected ModelResponse call(ModelRequest request) throws ModelException, InterruptedException {
        return model.call(request, new ModelCallContext(Instant.now().plusSeconds(30), stream));
    }

    protected ModelResponse call(ModelRequest.Builder request) throws ModelException, InterruptedException {
        return call(request.build());
    }

    /** The JSON body of the last request the server received. */
    protected JsonNode lastBody() {
        return server.lastRequest().body();
    }

    protected RecordedRequest last() {
        return server.lastRequest();
    }

    protected static ModelRequest.Builder cached(ModelRequest.Builder request) {
        return request.option(AnthropicOptions.caching(PromptCaching.DEFAULT));
    }

    /** A stream observer that records what it was told, in order. */
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
            events.add("tool:" + id + ":" + name);
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

        String input(String id) {
            StringBuilder sb = new StringBuilder();
            String prefix = "input:" + id + ":";
            events.stream().filter(e -> e.startsWith(prefix)).forEach(e -> sb.append(e.substring(prefix.length())));
            return sb.toString();
        }
    }

    /** Builds a raw server-sent event stream for blocks the fake server's builders do not cover. */
    static final class Sse {
        private final StringBuilder body = new StringBuilder();

        Sse event(String type, String json) {
            body.append("event: ").append(type).append('\n').append("data: ").append(json).append("\n\n");
            return this;
        }

        Sse messageStart(String usageJson) {
            return event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_raw\",\"type\":\"message\","
                    + "\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null,"
                    + "\"stop_sequence\":null,\"usage\":" + usageJson + "}}");
        }

        Sse block(int index, String startJson, String... deltaJsons) {
            event("content_block_start", "{\"type\":\"content_block_start\",\"index\":" + index + ",\"content_block\":" + startJson + "}");
            for (String delta : deltaJsons) {
                event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":" + index + ",\"delta\":" + delta + "}");
            }
            return event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":" + index + "}");
        }

        Sse end(String stopReason, String usageJson) {
            event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"" + stopReason
                    + "\",\"stop_sequence\":null},\"usage\":" + usageJson + "}");
            return event("message_stop", "{\"type\":\"message_stop\"}");
        }

        String build() {
            return body.toString();
        }
    }
}
