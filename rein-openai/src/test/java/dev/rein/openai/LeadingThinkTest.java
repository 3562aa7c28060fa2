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
 * model's is split by itself; {@link OpenAiModelBuilder#thinkTags} asks for it for every model, as other frameworks make
 * it opt-in: the block is heard as thinking and kept out of the answer, as a MiniMax model's is. A model whose chat
 * template opens the block in the prompt (DeepSeek-R1-0528, QwQ) writes only {@code </think>}: {@code OPENED_IN_PROMPT}.
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
                .thinkTags(OpenAiModelBuilder.ThinkTags.LEADING).build()) {
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

    /** What an {@code OPENED_IN_PROMPT} model makes of these content fragments, and what the observer heard. */
    private ModelResponse opened(String finish, String... fragments) throws Exception {
        stream.events.clear();
        List<String> chunks = new java.util.ArrayList<>();
        for (String fragment : fragments) {
            chunks.add(chunk(content(fragment), "null"));
        }
        chunks.add(chunk("{}", "\"" + finish + "\""));
        chunks.add("[DONE]");
        server.enqueue(new ChatReply.Malformed(events(chunks.toArray(String[]::new))));
        try (OpenAiModel split = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null)
                .thinkTags(OpenAiModelBuilder.ThinkTags.OPENED_IN_PROMPT).build()) {
            return split.call(ModelRequest.builder("deepseek-ai/DeepSeek-R1-0528").maxTokens(256)
                    .addMessage(Message.user("天気は?")).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
        }
    }

    private String heard(String kind) {
        StringBuilder heard = new StringBuilder();
        stream.events.stream().filter(e -> e.startsWith(kind + ":")).forEach(e -> heard.append(e.substring(kind.length() + 1)));
        return heard.toString();
    }

    @Test
    void openedInThePromptTheContentUpToTheCloseIsThinking() throws Exception {
        // the template put <think> in the prompt: the model writes the thinking, then </think>, split between chunks
        ModelResponse response = opened("stop", "東京の天気を", "考える。\n</th", "ink>\n\n東京は", "晴れです。");
        assertThat(response.text()).isEqualTo("東京は晴れです。");
        assertThat(heard("thinking")).isEqualTo("東京の天気を考える。\n");
        assertThat(heard("text")).isEqualTo("東京は晴れです。");
        OpaqueBlock kept = (OpaqueBlock) response.content().stream().filter(OpaqueBlock.class::isInstance).findFirst().orElseThrow();
        assertThat(kept.reasoning()).contains("東京の天気を考える。");
        // kept to go back as the model's whole output was, the <think> of the prompt before it
        assertThat(kept.json().path(ReasoningContent.THINK).asText()).isEqualTo("<think>\n東京の天気を考える。\n</think>\n\n");

        // a <think> at the start is its tag, as a template that leaves it to the model writes it
        assertThat(opened("stop", "<think>\n考える。</think>", "答え").text()).isEqualTo("答え");

        // cut by the output limit before </think>: all thinking, no answer
        ModelResponse cut = opened("length", "長い思考が", "続く");
        assertThat(cut.text()).isEmpty();
        assertThat(cut.stopReason()).isEqualTo(dev.rein.model.StopReason.MAX_TOKENS);
        assertThat(heard("text")).isEmpty();

        // ended without </think> and not cut: it was the answer, whole and verbatim (heard as thinking while it streamed)
        ModelResponse plain = opened("stop", "\n東京は", "晴れです。");
        assertThat(plain.text()).isEqualTo("\n東京は晴れです。");
        assertThat(heard("text")).isEqualTo("\n東京は晴れです。");
        assertThat(plain.content()).noneMatch(OpaqueBlock.class::isInstance);

        // a server that sends the reasoning in a field of its own split it off: the content is the answer, heard as text
        stream.events.clear();
        server.enqueue(new ChatReply.Malformed(events(chunk("{\"reasoning_content\":\"考える。\"}", "null"),
                chunk(content("東京は晴れです。"), "null"), chunk("{}", "\"stop\""), "[DONE]")));
        try (OpenAiModel split = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null)
                .thinkTags(OpenAiModelBuilder.ThinkTags.OPENED_IN_PROMPT).build()) {
            ModelResponse separated = split.call(ModelRequest.builder("deepseek-ai/DeepSeek-R1-0528").maxTokens(256)
                    .addMessage(Message.user("天気は?")).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
            assertThat(separated.text()).isEqualTo("東京は晴れです。");
            assertThat(stream.events).containsExactly("thinking:考える。", "text:東京は晴れです。");
        }
    }

    /**
     * Mistral's reasoning models send their thinking as {@code thinking} blocks of a content list, split off the answer
     * as a reasoning field is: the text after them is the answer, heard as text, also when the output limit cut it
     * (taken as the inside of a block the prompt opened, it was heard as thinking and, cut, dropped as thinking).
     */
    @Test
    void openedInThePromptMistralsThinkingBlocksSplitTheReasoningOffAsAFieldDoes() throws Exception {
        String thinking = "{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"考える。\"}]}]}";
        String both = "{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"考える。\"}]},"
                + "{\"type\":\"text\",\"text\":\"東京は\"}]}";
        for (List<String> sent : List.of(
                List.of(chunk(thinking, "null"), chunk(content("東京は"), "null"), chunk(content("晴れ"), "\"length\""), "[DONE]"),
                List.of(chunk(both, "null"), chunk(content("晴れ"), "\"length\""), "[DONE]"))) {
            stream.events.clear();
            server.enqueue(new ChatReply.Malformed(events(sent.toArray(String[]::new))));
            try (OpenAiModel split = OpenAiModel.builder().baseUrl(server.baseUrl()).environment(name -> null)
                    .thinkTags(OpenAiModelBuilder.ThinkTags.OPENED_IN_PROMPT).build()) {
                ModelResponse cut = split.call(ModelRequest.builder("magistral-medium-latest").maxTokens(256)
                        .addMessage(Message.user("天気は?")).build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
                assertThat(cut.text()).isEqualTo("東京は晴れ");
                assertThat(cut.stopReason()).isEqualTo(dev.rein.model.StopReason.MAX_TOKENS);
                assertThat(heard("thinking")).isEqualTo("考える。");
                assertThat(heard("text")).isEqualTo("東京は晴れ");
            }
        }
    }

    @Test
    void aNullThinkTagsSaysWhatToPass() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OpenAiModel.builder().thinkTags(null))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("thinkTags(...) was given null")
                .hasMessageContaining("ThinkTags.MINIMAX");
    }
}
