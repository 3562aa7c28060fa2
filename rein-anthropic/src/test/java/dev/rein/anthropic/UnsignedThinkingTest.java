package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Thinking an Anthropic-compatible endpoint of another model made (DeepSeek's) comes unsigned, and that endpoint takes
 * it back with {@code "signature": ""}. The real API verifies every thinking block it is sent and refuses an unsigned
 * one (400 "messages.1.content.0: Invalid `signature` in `thinking` block"), so the same history sent to a Claude model
 * (a fallback, a handed-over history) leaves that thinking out, as the extended thinking docs let a client leave out
 * thinking; the rest of each message goes as before.
 */
class UnsignedThinkingTest extends FakeApi {

    private static final ToolUseBlock CALL = new ToolUseBlock("toolu_7", "search", Json.parse("{\"q\":\"天気\"}"));

    private static List<Message> history(ThinkingBlock thinking) {
        return List.of(Message.user("天気は?"), Message.assistant(List.of(thinking, CALL)),
                Message.user(List.of(new ToolResultBlock("toolu_7", "晴れ", false))));
    }

    @Test
    void unsignedThinkingIsLeftOutOfARequestToAClaudeModelAndTheRealApiTakesIt() throws Exception {
        server.enqueue(FakeReply.text("晴れです。"));

        ModelResponse response = call(request("x").tools(List.of(tool("search")))
                .messages(history(new ThinkingBlock("天気を調べる", ""))));

        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
        JsonNode assistant = lastBody().at("/messages/1");
        assertThat(assistant.path("content")).hasSize(1);
        assertThat(assistant.at("/content/0/type").asText()).isEqualTo("tool_use");
    }

    /**
     * DeepSeek's Anthropic API serves its own models under Claude's names (claude-sonnet-* and claude-haiku-* map to
     * deepseek-v4-flash, claude-opus-* to deepseek-v4-pro, its Anthropic API guide) and wants a tool-use turn's
     * thinking back: there a Claude name keeps the unsigned thinking. Before, it was left out, and DeepSeek refused
     * every step after the first tool call.
     */
    @Test
    void aClaudeNameOnDeepSeeksEndpointKeepsItsUnsignedThinking() {
        dev.rein.model.ModelRequest request = dev.rein.model.ModelRequest.builder("claude-sonnet-4-5").maxTokens(256).tools(List.of(tool("search")))
                .messages(history(new ThinkingBlock("天気を調べる", ""))).build();
        assertThat(new RequestMapper(java.net.URI.create("https://api.deepseek.com/anthropic")).forModel(request))
                .as("DeepSeek's endpoint").isSameAs(request);
        assertThat(new RequestMapper(java.net.URI.create("https://api.anthropic.com")).forModel(request).messages().get(1)
                .content()).as("Anthropic's API").containsExactly(CALL);
    }

    @Test
    void countTokensLeavesUnsignedThinkingOutForAClaudeModelToo() throws Exception {
        long tokens = model.countTokens(request("x").tools(List.of(tool("search")))
                .messages(history(new ThinkingBlock("天気を調べる", ""))).build());

        assertThat(tokens).as("counted, not refused").isPositive();
        assertThat(lastBody().at("/messages/1/content/0/type").asText()).isEqualTo("tool_use");
    }

    @Test
    void signedThinkingStillGoesBackAndAMessageOfUnsignedThinkingAloneIsLeftOut() throws Exception {
        server.enqueue(FakeReply.text("どうぞ。"));

        call(request("x").messages(List.of(Message.user("a"),
                Message.assistant(List.of(new ThinkingBlock("考えた", "sig-1"), new TextBlock("はい"))),
                Message.user("b"), Message.assistant(List.of(new ThinkingBlock("考えた", ""))), Message.user("c"))));

        JsonNode messages = lastBody().path("messages");
        assertThat(messages.get(1).at("/content/0")).isEqualTo(
                Json.parse("{\"type\":\"thinking\",\"thinking\":\"考えた\",\"signature\":\"sig-1\"}"));
        assertThat(messages).as("the message of unsigned thinking alone is left out; the API merges the user turns")
                .hasSize(4);
        assertThat(messages.get(3).at("/content/0/text").asText()).isEqualTo("c");
    }

    @Test
    void aCompatibleEndpointsThinkingGoesBackToItUnsignedAndIsLeftOutWhenTheSameModelSwitchesToClaude() throws Exception {
        // The other model's endpoint, not the Anthropic API: it does not verify signatures.
        server.validateRequests(false);
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"thinking\",\"thinking\":\"\"}", "{\"type\":\"thinking_delta\",\"thinking\":\"天気を調べる\"}")
                .block(1, "{\"type\":\"tool_use\",\"id\":\"toolu_7\",\"name\":\"search\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\":\\\"天気\\\"}\"}")
                .end("tool_use", "{\"output_tokens\":12}").build()));
        server.enqueue(FakeReply.text("晴れ"), FakeReply.text("晴れです。"));
        ModelResponse first = call(request("天気は?").tools(List.of(tool("search"))).build().withModel("deepseek-chat"));
        List<Message> history = List.of(Message.user("天気は?"), Message.assistant(first.content()),
                Message.user(List.of(new ToolResultBlock("toolu_7", "晴れ", false))));

        call(request("x").tools(List.of(tool("search"))).messages(history).build().withModel("deepseek-chat"));
        JsonNode toDeepSeek = lastBody().at("/messages/1/content/0");
        server.validateRequests(true); // now the Anthropic API: a fallback to Claude with the same history
        ModelResponse fallback = call(request("x").tools(List.of(tool("search"))).messages(history));

        assertThat(toDeepSeek).isEqualTo(Json.parse("{\"type\":\"thinking\",\"thinking\":\"天気を調べる\",\"signature\":\"\"}"));
        assertThat(fallback.text()).isEqualTo("晴れです。");
        assertThat(lastBody().at("/messages/1/content/0/type").asText()).isEqualTo("tool_use");
    }

    @Test
    void aForeignSignatureGoesAsItIsAndTheApisRefusalOfItSaysWhyAndWhatToDo() {
        // A non-empty signature another provider's endpoint made (GLM's, a gateway's) cannot be told from Claude's before
        // sending; the API refuses it in the words of any signature it cannot verify, and the advice names that cause.
        server.enqueue(FakeReply.error(dev.rein.testkit.ApiErrorType.INVALID_REQUEST,
                "messages.1.content.0: Invalid `signature` in `thinking` block"));

        dev.rein.model.ModelException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request("x").tools(List.of(tool("search")))
                        .messages(history(new ThinkingBlock("天気を調べる", "glm-5.2:sig:8f3a")))));

        assertThat(lastBody().at("/messages/1/content/0/signature").asText()).isEqualTo("glm-5.2:sig:8f3a");
        assertThat(e.getMessage()).contains("carries a signature the API cannot verify")
                .contains("by another provider's Anthropic-compatible endpoint, which signs its thinking its own way")
                .contains("leave that thinking out of the history");
    }
}
