package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/**
 * {@code pause_turn}: the paused turn is sent back as the last message, which the API takes as
 * the start of the assistant's continued turn ("Send the assistant content back to continue").
 */
class PauseTurnTest extends FakeApi {

    @Test
    void aPausedTurnIsSentBackAsTheLastMessageWithoutTrailingWhitespace() {
        // The API refuses a request whose final assistant content ends in whitespace (HTTP 400
        // "messages: final assistant content cannot end with trailing whitespace").
        server.enqueue(FakeReply.message().text("Let me look that up.\n\n").stopReason("pause_turn").build(),
                FakeReply.text("It is sunny."));

        RunResult result = Agent.builder().model(model).build().run("Weather?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode messages = server.requests().get(1).body().get("messages");
        JsonNode last = messages.get(messages.size() - 1);
        assertThat(last.get("role").asText()).isEqualTo("assistant");
        assertThat(last.at("/content/0/text").asText()).isEqualTo("Let me look that up.");
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void thePausedTextAndItsContinuationFormTheAnswer() {
        // The continuation continues the same assistant turn, so the answer is the two texts exactly
        // as the API gave them: no separator added, the paused text's trailing whitespace kept (it
        // is left out only of the request that sends the turn back).
        server.enqueue(FakeReply.message().text("Let me look that up.\n\n").stopReason("pause_turn").build(),
                FakeReply.message().text("Checking").stopReason("pause_turn").build(),
                FakeReply.text(" the forecast: it is sunny."));

        RunResult result = Agent.builder().model(model).build().run("Weather?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("Let me look that up.\n\nChecking the forecast: it is sunny.");
        JsonNode messages = server.requests().get(2).body().get("messages");
        assertThat(messages.get(messages.size() - 1).at("/content/0/text").asText()).isEqualTo("Checking");
        assertThat(server.pendingReplies()).isZero();
    }

    @Test
    void aPausedWebSearchPastedIntoAFakeServerScriptIsSentBackBlockForBlock() throws Exception {
        // The API's web search example: a server tool call and its result in the paused turn. The test
        // kit's script takes the response pasted in; the turn goes back with both blocks unchanged.
        String use = "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01\",\"name\":\"web_search\","
                + "\"input\":{\"query\":\"東京の天気\"}}";
        String found = "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":["
                + "{\"type\":\"web_search_result\",\"url\":\"https://example.jp/tenki\",\"title\":\"天気\","
                + "\"encrypted_content\":\"EqgfCio=\",\"page_age\":null}]}";
        server.enqueue(dev.rein.testkit.FakeScript.parse("[{\"type\":\"message\",\"content\":[" + use + "," + found
                + ",{\"type\":\"text\",\"text\":\"調べました。\"}],\"stop_reason\":\"pause_turn\","
                + "\"usage\":{\"input_tokens\":20,\"output_tokens\":9,\"server_tool_use\":{\"web_search_requests\":1}}},"
                + "{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"晴れです。\"}]}]"));

        RunResult result = Agent.builder().model(model).build().run("東京の天気は？");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("調べました。晴れです。");
        JsonNode messages = server.requests().get(1).body().get("messages");
        JsonNode paused = messages.get(messages.size() - 1).get("content");
        assertThat(paused.get(0)).isEqualTo(dev.rein.json.Json.parse(use));
        assertThat(paused.get(1)).isEqualTo(dev.rein.json.Json.parse(found));
    }

    /**
     * The paused turn went out without its trailing whitespace in the request that continued it, so that is the prefix
     * of the thinking the continuation made: later requests send it the same way, or a model with preserved thinking
     * refuses that thinking ("The block is bound to a different conversation").
     */
    @Test
    void aPausedTurnKeepsTheFormItWasContinuedInSoTheContinuationsThinkingStaysBound() {
        server.enqueue(FakeReply.message().thinking("", "sig_a").text("Let me look that up.\n\n").stopReason("pause_turn").build(),
                FakeReply.message().thinking("", "sig_b").toolUse("toolu_1", "lookup", "{\"city\":\"東京\"}").build(),
                FakeReply.text("晴れです。"));
        dev.rein.tool.Tool lookup = dev.rein.tool.Tool.builder("lookup").description("Looks the weather up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "晴れ").build();

        RunResult result = Agent.builder().model(model).modelName("claude-opus-5-5").tools(lookup).build().run("天気は?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("晴れです。");
        JsonNode continued = server.requests().get(1).body().get("messages").get(1);
        JsonNode later = server.requests().get(2).body().get("messages").get(1);
        assertThat(continued.at("/content/1/text").asText()).isEqualTo("Let me look that up.");
        assertThat(later.at("/content/1/text").asText()).as("as it was continued").isEqualTo("Let me look that up.");
        assertThat(later.at("/content/0")).isEqualTo(continued.at("/content/0"));
    }
}
