package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.OpaqueBlock;
import dev.rein.testkit.openai.ChatReply;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A server without a reasoning parser (vLLM without {@code --reasoning-parser}, llama.cpp with {@code --reasoning-format
 * none}) leaves a Qwen3 or DeepSeek-R1 model's {@code <think>…</think>} at the start of {@code content}. Only a MiniMax
 * model's is split by itself; {@link OpenAiModelBuilder#leadingThinkAsReasoning} asks for it for every model, as other
 * frameworks make it opt-in: the block is heard as thinking and kept out of the answer, as a MiniMax model's is.
 */
class LeadingThinkTest extends FakeChat {

    private static String chunk(String delta, String finish) {
        return "{\"id\":\"q-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"Qwen/Qwen3-8B\","
                + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finish + "}]}";
    }

    private static String content(String text) {
        return "{\"content\":" + Json.mapper().getNodeFactory().textNode(text) + "}";
    }

    private void enqueueQwen() {
        server.enqueue(new ChatReply.Malformed(events(chunk(content("<thi"), "null"), chunk(content("nk>\n東京の天気を"), "null"),
                chunk(content("考える。\n</think>"), "null"), chunk(content("\n\n東京は"), "null"), chunk(content("晴れです。"), "null"),
                chunk("{}", "\"stop\""), "[DONE]")));
    }

    @Test
    void byDefaultAnotherModelsThinkBlockIsTheAnswerAsItCame() throws Exception {
        enqueueQwen();
        ModelResponse response = call(ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256).addMessage(Message.user("天気は?")));
        assertThat(response.text()).isEqualTo("<think>\n東京の天気を考える。\n</think>\n\n東京は晴れです。");
        assertThat(stream.events).noneMatch(e -> e.startsWith("thinking:"));
    }

    @Test
    void optedInALeadingThinkBlockIsThinkingAndGoesBackAsItCame() throws Exception {
        try (OpenAiModel split = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null)
                .leadingThinkAsReasoning(true).build()) {
            enqueueQwen();
            ModelResponse response = split.call(ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256)
                    .addMessage(Message.user("天気は?")).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));

            assertThat(response.text()).isEqualTo("東京は晴れです。");
            assertThat(stream.text()).isEqualTo("東京は晴れです。");
            StringBuilder thinking = new StringBuilder();
            stream.events.stream().filter(e -> e.startsWith("thinking:")).forEach(e -> thinking.append(e.substring(9)));
            assertThat(thinking.toString()).isEqualTo("\n東京の天気を考える。\n");
            OpaqueBlock kept = (OpaqueBlock) response.content().stream().filter(OpaqueBlock.class::isInstance)
                    .findFirst().orElseThrow();
            assertThat(kept.reasoning()).contains("東京の天気を考える。");

            // the next turn has the answer alone, as Qwen3's model card and DeepSeek's reasoning guide ask (reasoning goes
            // back only within a turn that calls tools, as it came, as a MiniMax model's does)
            List<Message> history = List.of(Message.user("天気は?"), response.toHistoryMessage().orElseThrow(), Message.user("明日は?"));
            server.enqueue(ChatReply.text("晴れ"));
            split.call(ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256).messages(history).build(),
                    new ModelCallContext(Instant.now().plusSeconds(30), stream));
            JsonNode assistant = lastBody().path("messages").get(1);
            assertThat(assistant.path("content").asText()).isEqualTo("東京は晴れです。");

            // within a turn that calls tools it goes back to that server before the text, as it came; to another
            // server (a fallback, DeepSeek's own API for an R1 served here) not at all
            server.enqueue(new ChatReply.Malformed(events(chunk(content("<think>\n検索する。\n</think>\n\n"), "null"),
                    chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_t\",\"type\":\"function\",\"function\":{\"name\":"
                            + "\"search\",\"arguments\":\"{}\"}}]}", "null"), chunk("{}", "\"tool_calls\""), "[DONE]")));
            ModelResponse calling = split.call(ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256)
                    .addMessage(Message.user("天気は?")).tools(List.of(tool("search"))).build(),
                    new ModelCallContext(Instant.now().plusSeconds(30), stream));
            assertThat(calling.text()).isEmpty();
            List<Message> tools = List.of(Message.user("天気は?"), calling.toHistoryMessage().orElseThrow(),
                    Message.user(List.of(new dev.rein.model.ToolResultBlock("call_t", "晴れ", false))));
            server.enqueue(ChatReply.text("晴れ"));
            split.call(ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256).messages(tools).tools(List.of(tool("search")))
                    .build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            assertThat(lastBody().path("messages").get(1).path("content").asText())
                    .isEqualTo("<think>\n検索する。\n</think>\n\n");
            for (String[] elsewhere : new String[][] {{"http://gpu-box:8000/v1", "Qwen/Qwen3-8B"},
                    {"https://api.deepseek.com/v1", "deepseek-reasoner"}}) {
                JsonNode other = WireEdgeCasesTest.body(elsewhere[0], elsewhere[1], tools).path("messages").get(1);
                assertThat(other.path("content").isNull()).as(other.toString()).isTrue();
                assertThat(other.has("reasoning_content")).as(other.toString()).isFalse();
            }

            // text that does not begin with the tag is the answer, whole
            stream.events.clear();
            server.enqueue(ChatReply.text("答え <think> ではない"));
            ModelResponse plain = split.call(ModelRequest.builder("Qwen/Qwen3-8B").maxTokens(256)
                    .addMessage(Message.user("x")).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            assertThat(plain.text()).isEqualTo("答え <think> ではない");
            assertThat(stream.events).noneMatch(e -> e.startsWith("thinking:"));
        }
    }
}
