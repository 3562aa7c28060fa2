package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StreamObserver;
import dev.rein.model.ToolDefinition;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
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
