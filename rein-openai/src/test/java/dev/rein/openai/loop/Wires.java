package dev.rein.openai.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.anthropic.AnthropicModel;
import dev.rein.model.Model;
import dev.rein.openai.OpenAiModel;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.RecordedRequest;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** The two wires: Anthropic Messages and OpenAI Chat Completions, each a fake server and the real provider module. */
final class Wires {
    private Wires() {}

    /** Arguments for a parameterised test; each supplier starts a fresh server. */
    static Stream<Supplier<Wire>> all() {
        return Stream.of(Named.of("anthropic", Anthropic::new), Named.of("openai", OpenAi::new));
    }

    /** A supplier that prints its name in test reports. */
    record Named(String label, Supplier<Wire> factory) implements Supplier<Wire> {
        static Supplier<Wire> of(String label, Supplier<Wire> factory) {
            return new Named(label, factory);
        }

        @Override
        public Wire get() {
            return factory.get();
        }

        @Override
        public String toString() {
            return label;
        }
    }

    static final class Anthropic implements Wire {
        private final FakeMessagesServer server = FakeMessagesServer.start();
        private final AnthropicModel model = AnthropicModel.builder().apiKey("test-key").baseUrl(server.baseUrl()).build();

        @Override public String name() { return "anthropic"; }
        @Override public Model model() { return model; }
        @Override public String modelName() { return "claude-sonnet-5"; }
        @Override public void text(String text) { server.enqueue(FakeReply.text(text)); }

        @Override
        public void toolCalls(String text, Call... calls) {
            FakeReply.MessageBuilder reply = FakeReply.message();
            if (text != null) {
                reply.text(text);
            }
            for (Call call : calls) {
                reply.toolUse(call.id(), call.name(), call.argumentsJson());
            }
            server.enqueue(reply.build());
        }

        @Override public void cutOff(String partial) { server.enqueue(FakeReply.message().text(partial).stopReason("max_tokens").build()); }
        @Override public void refusal(String text) { server.enqueue(FakeReply.message().text(text).stopReason("refusal").build()); }

        @Override
        public void rateLimited(long millis) {
            server.enqueue(FakeReply.rateLimited(Duration.ofSeconds(1)).withHeader("retry-after-ms", String.valueOf(millis)));
        }

        @Override public void invalidRequest(String message) { server.enqueue(FakeReply.error(400, "invalid_request_error", message)); }
        @Override public List<JsonNode> bodies() { return server.requests().stream().map(RecordedRequest::body).toList(); }

        @Override
        public String toolChoice(JsonNode body) {
            JsonNode choice = body.get("tool_choice");
            if (choice == null) {
                return body.has("tools") ? "auto" : "absent";
            }
            String type = choice.path("type").asText();
            return type.equals("tool") ? "tool:" + choice.path("name").asText() : type;
        }

        @Override
        public List<String> toolNames(JsonNode body) {
            List<String> names = new ArrayList<>();
            body.path("tools").forEach(t -> names.add(t.path("name").asText()));
            return names;
        }

        @Override
        public List<String> answeredIds(JsonNode body) {
            JsonNode messages = body.path("messages");
            List<String> ids = new ArrayList<>();
            messages.get(messages.size() - 1).path("content").forEach(b -> {
                if (b.path("type").asText().equals("tool_result")) {
                    ids.add(b.path("tool_use_id").asText());
                }
            });
            return ids;
        }

        @Override public int pendingReplies() { return server.pendingReplies(); }

        @Override
        public void close() {
            model.close();
            server.close();
        }
    }

    static final class OpenAi implements Wire {
        private final FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
        private final OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).build();

        @Override public String name() { return "openai"; }
        @Override public Model model() { return model; }
        @Override public String modelName() { return "gpt-4.1-mini"; }
        @Override public void text(String text) { server.enqueue(ChatReply.text(text)); }

        @Override
        public void toolCalls(String text, Call... calls) {
            ChatReply.CompletionBuilder reply = ChatReply.completion().text(text);
            for (Call call : calls) {
                reply.toolCall(call.id(), call.name(), call.argumentsJson());
            }
            server.enqueue(reply.build());
        }

        @Override public void cutOff(String partial) { server.enqueue(ChatReply.completion().text(partial).finishReason("length").build()); }
        @Override public void refusal(String text) { server.enqueue(ChatReply.completion().refusal(text).build()); }

        @Override
        public void rateLimited(long millis) {
            server.enqueue(ChatReply.rateLimited(1).withHeader("retry-after-ms", String.valueOf(millis)));
        }

        @Override public void invalidRequest(String message) { server.enqueue(ChatReply.error(400, "invalid_request_error", message)); }
        @Override public List<JsonNode> bodies() { return server.requests().stream().map(RecordedRequest::body).toList(); }

        @Override
        public String toolChoice(JsonNode body) {
            JsonNode choice = body.get("tool_choice");
            if (choice == null) {
                return "absent";
            }
            if (choice.isTextual()) {
                return choice.asText().equals("required") ? "any" : choice.asText();
            }
            return "tool:" + choice.path("function").path("name").asText();
        }

        @Override
        public List<String> toolNames(JsonNode body) {
            List<String> names = new ArrayList<>();
            body.path("tools").forEach(t -> names.add(t.path("function").path("name").asText()));
            return names;
        }

        @Override
        public List<String> answeredIds(JsonNode body) {
            JsonNode messages = body.path("messages");
            List<String> ids = new ArrayList<>();
            for (int i = messages.size() - 1; i >= 0 && !messages.get(i).path("role").asText().equals("assistant"); i--) {
                if (messages.get(i).path("role").asText().equals("tool")) {
                    ids.add(0, messages.get(i).path("tool_call_id").asText());
                }
            }
            return ids;
        }

        @Override public int pendingReplies() { return server.pendingReplies(); }

        @Override
        public void close() {
            model.close();
            server.close();
        }
    }
}
