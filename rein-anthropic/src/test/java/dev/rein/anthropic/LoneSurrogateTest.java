package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Text with half a surrogate pair (a tool that cut a string in the middle of an emoji with
 * substring, an MCP server whose JavaScript slice did and whose JSON escaped it as {@code \ud83d})
 * has no UTF-8 form: the request carries U+FFFD in its place, as a decoder would, and whole pairs
 * (emoji) stay as they are. The text stays in the history, so a request that could not be written
 * would fail every later step of the run.
 */
class LoneSurrogateTest extends FakeApi {

    @Test
    void halfASurrogatePairIsSentAsAReplacementCharacterAndTheCallGoesThrough() throws Exception {
        server.enqueue(FakeReply.text("読みました"));
        ObjectNode input = (ObjectNode) Json.parse("{\"q\":\"\\ud83d\"}"); // as an MCP server's JSON escapes it
        input.put("\uDE00key", "ok");
        ObjectNode schema = (ObjectNode) Json.parse("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\","
                + "\"description\":\"a query \\ud83d\"}}}");
        ToolDefinition search = new ToolDefinition("search", "Searches 😀 notes \uD83D", schema);
        ModelResponse response = call(cached(request("絵文字 😀 が切れた: \uD83D").system("規則 \uDE00")
                .tools(List.of(search, tool("other")))
                .addMessage(Message.assistant(List.of(new TextBlock("探します \uD83D"), new ToolUseBlock("toolu_1", "search", input))))
                .addMessage(Message.user(List.of(new ToolResultBlock("toolu_1", "結果 😀 …\uD83D", false))))));

        assertThat(response.text()).isEqualTo("読みました");
        JsonNode body = lastBody(); // the JSON as the server read it: U+FFFD where half a pair was, whole pairs kept
        assertThat(body.at("/system/0/text").asText()).isEqualTo("規則 \uFFFD");
        assertThat(body.at("/tools/0/description").asText()).isEqualTo("Searches 😀 notes \uFFFD");
        assertThat(body.at("/tools/0/input_schema/properties/q/description").asText()).isEqualTo("a query \uFFFD");
        assertThat(body.at("/messages/0/content/0/text").asText()).isEqualTo("絵文字 😀 が切れた: \uFFFD");
        assertThat(body.at("/messages/1/content/0/text").asText()).isEqualTo("探します \uFFFD");
        assertThat(body.at("/messages/1/content/1/input")).isEqualTo(Json.parse("{\"q\":\"\uFFFD\",\"\uFFFDkey\":\"ok\"}"));
        assertThat(body.at("/messages/2/content/0/content").asText()).isEqualTo("結果 😀 …\uFFFD");
    }

    @Test
    void countTokensWritesTheSameWellFormedPrompt() throws Exception {
        server.enqueueCountTokens(FakeReply.tokenCount(12));
        long tokens = model.countTokens(request("半分 \uD83D").build());
        assertThat(tokens).isEqualTo(12);
        assertThat(lastBody().at("/messages/0/content/0/text").asText()).isEqualTo("半分 \uFFFD");
    }
}
