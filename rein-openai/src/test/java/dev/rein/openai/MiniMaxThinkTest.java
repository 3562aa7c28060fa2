package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.testkit.openai.ChatReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MiniMax's own API, asked without its non-standard {@code reasoning_split}, returns a MiniMax model's reasoning at the
 * start of {@code content} in think tags (its OpenAI API guide: "the content field will contain {@code <think>} tag
 * content, which must be preserved completely"). It is the model's thinking, not its answer: heard as thinking, kept
 * out of the answer text, and sent back as it came.
 */
class MiniMaxThinkTest extends FakeChat {

    private static String chunk(String model, String delta, String finish) {
        return "{\"id\":\"mm-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"" + model + "\","
                + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finish + "}]}";
    }

    private static String content(String text) {
        return "{\"content\":" + Json.mapper().getNodeFactory().textNode(text) + "}";
    }

    /** Feeds MiniMax's API's chunks of these content fragments to an assembler, as the model would read them. */
    private ModelResponse minimaxApi(String model, String... fragments) throws Exception {
        ChunkAssembler assembler = new ChunkAssembler(stream, null, Origin.of("https://api.minimax.io/v1"), model);
        for (String fragment : fragments) {
            assembler.accept(Json.parse(chunk(model, content(fragment), "null")));
        }
        assembler.accept(Json.parse(chunk(model, "{}", "\"stop\"")));
        return assembler.response(model);
    }

    @Test
    void aLeadingThinkBlockIsThinkingNotAnswerAlsoWhenItsTagsAreSplitBetweenChunks() throws Exception {
        ModelResponse response = minimaxApi("MiniMax-M2", "<thi", "nk>\n東京の", "天気を考える。</th", "ink>", "\n", "\n東京は", "晴れです。");

        assertThat(response.text()).isEqualTo("東京は晴れです。");
        assertThat(stream.text()).isEqualTo("東京は晴れです。");
        StringBuilder thinking = new StringBuilder();
        stream.events.stream().filter(e -> e.startsWith("thinking:")).forEach(e -> thinking.append(e.substring(9)));
        assertThat(thinking.toString()).isEqualTo("\n東京の天気を考える。");
        assertThat(stream.events.stream().filter(e -> e.startsWith("thinking:")).count())
                .as("heard while it streams, not at the end").isGreaterThan(1);
        OpaqueBlock kept = (OpaqueBlock) response.content().stream().filter(OpaqueBlock.class::isInstance).findFirst().orElseThrow();
        assertThat(kept.reasoning()).contains("東京の天気を考える。");
    }

    @Test
    void aLessThanSignInTheThinkingIsThinkingAndAnUnclosedBlockIsAllThinking() throws Exception {
        ModelResponse response = minimaxApi("MiniMax-M2", "<think>a <", " b </", "x> c</think>", "答え");
        assertThat(response.text()).isEqualTo("答え");
        assertThat(((OpaqueBlock) response.content().get(1)).reasoning()).contains("a < b </x> c");

        // cut by the output limit while thinking: no answer text at all, and the turn is cut
        stream.events.clear();
        ChunkAssembler assembler = new ChunkAssembler(stream, null, Origin.of("https://api.minimaxi.com/v1"), "MiniMax-M2.5");
        assembler.accept(Json.parse(chunk("MiniMax-M2.5", content("<think>\n長い思考</th"), "null")));
        assembler.accept(Json.parse(chunk("MiniMax-M2.5", "{}", "\"length\"")));
        ModelResponse cut = assembler.response("MiniMax-M2.5");
        assertThat(cut.text()).isEmpty();
        assertThat(cut.stopReason()).isEqualTo(dev.rein.model.StopReason.MAX_TOKENS);
        assertThat(stream.text()).isEmpty();
    }

    @Test
    void aTypedResultAfterTheThinkingIsJustTheJson() throws Exception {
        // A whole chat.completion (a server that ignores stream) from a MiniMax model served elsewhere, known by its name.
        server.enqueue(new ChatReply.Malformed("{\"id\":\"mm-2\",\"object\":\"chat.completion\",\"created\":1,"
                + "\"model\":\"MiniMaxAI/MiniMax-M2\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"<think>\\nJSONで答える。\\n</think>\\n\\n{\\\"refund\\\":true}\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":5,\"total_tokens\":14}}"));

        ModelResponse response = call(ModelRequest.builder("MiniMaxAI/MiniMax-M2").maxTokens(256).addMessage(Message.user("返金?")));

        assertThat(response.text()).isEqualTo("{\"refund\":true}");
        assertThat(stream.events).contains("thinking:\nJSONで答える。\n");
    }

    /** The typed answer of a run. */
    public record Verdict(String decision, int confidence) {}

    @Test
    void aRunOnAMiniMaxModelAnswersWithoutItsThinkingAndItsTypedResultIsTheJson() {
        server.enqueue(ChatReply.text("<think>\n東京の天気を答える。\n</think>\n\n東京は晴れです。"),
                ChatReply.text("<think>\n返金すべきか考える。\n</think>\n\n{\"decision\":\"refund\",\"confidence\":80}"));
        dev.rein.agent.Agent agent = dev.rein.agent.Agent.builder().model(model).modelName("MiniMax-M2")
                .price("MiniMax-M2", dev.rein.budget.ModelPrice.of("0", "0", "0")).build();

        dev.rein.agent.RunResult answer = agent.run("東京の天気は?");
        assertThat(answer.status()).isEqualTo(dev.rein.run.RunStatus.SUCCEEDED);
        assertThat(answer.answer()).isEqualTo("東京は晴れです。");

        dev.rein.agent.RunResult typed = agent.run("Should order A-104 be refunded?", Verdict.class);
        assertThat(typed.status()).isEqualTo(dev.rein.run.RunStatus.SUCCEEDED);
        assertThat(typed.answer()).isEqualTo("{\"decision\":\"refund\",\"confidence\":80}");
        assertThat(typed.output(Verdict.class)).isEqualTo(new Verdict("refund", 80));
    }

    @Test
    void anotherModelsContentIsLeftAsItIs() throws Exception {
        ChunkAssembler assembler = new ChunkAssembler(stream, null, Origin.of("https://api.openai.com/v1"), "gpt-4.1-mini");
        assembler.accept(Json.parse(chunk("gpt-4.1-mini", content("<think>a</think>b"), "\"stop\"")));
        assertThat(assembler.response("gpt-4.1-mini").text()).isEqualTo("<think>a</think>b");

        // text that only begins like a tag, or has one later, is answer text
        assertThat(minimaxApi("MiniMax-M2", "<th", "is is text").text()).isEqualTo("<this is text");
        assertThat(minimaxApi("MiniMax-M2", "答え <think>x</think>").text()).isEqualTo("答え <think>x</think>");
        assertThat(minimaxApi("MiniMax-M2", "<thi").text()).isEqualTo("<thi");
    }

    @Test
    void theThinkBlockGoesBackInContentAsItCameToMiniMaxsApi() throws Exception {
        ChunkAssembler assembler = new ChunkAssembler(stream, null, Origin.of("https://api.minimax.io/v1"), "MiniMax-M2");
        assembler.accept(Json.parse(chunk("MiniMax-M2", content("<think>\n天気を調べる。\n</think>\n\n"), "null")));
        assembler.accept(Json.parse(chunk("MiniMax-M2", "{\"tool_calls\":[{\"index\":0,\"id\":\"call_m\",\"type\":\"function\","
                + "\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\\\":\\\"東京\\\"}\"}}]}", "\"tool_calls\"")));
        ModelResponse first = assembler.response("MiniMax-M2");
        assertThat(first.text()).isEmpty();
        List<Message> history = List.of(Message.user("東京の天気は?"), first.toHistoryMessage().orElseThrow(),
                Message.user(List.of(new ToolResultBlock("call_m", "晴れ", false))));

        for (String base : new String[] {"https://api.minimax.io/v1", "https://api.minimaxi.com/v1"}) {
            JsonNode assistant = WireEdgeCasesTest.body(base, "MiniMax-M2", history).path("messages").get(1);
            assertThat(assistant.path("content").asText(null)).as(base + ": " + assistant)
                    .isEqualTo("<think>\n天気を調べる。\n</think>\n\n");
            assertThat(assistant.has("reasoning_content")).isFalse();
            assertThat(assistant.has("reasoning_details")).isFalse();
        }
        // another host of the family (a gateway, vLLM) too: the model's own format, which any server passes to it
        JsonNode gateway = WireEdgeCasesTest.body("https://api.novita.ai/v3/openai", "minimax/minimax-m2", history)
                .path("messages").get(1);
        assertThat(gateway.path("content").asText(null)).as(gateway.toString()).isEqualTo("<think>\n天気を調べる。\n</think>\n\n");
        assertThat(gateway.has("reasoning_content")).isFalse();
        // another model gets none of it
        JsonNode other = WireEdgeCasesTest.body("https://api.openai.com/v1", "gpt-4.1-mini", history).path("messages").get(1);
        assertThat(other.path("content").isNull()).as(other.toString()).isTrue();
        assertThat(other.has("reasoning_content")).isFalse();
    }
}
