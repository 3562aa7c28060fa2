package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.agent.Agent;
import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.TextBlock;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.tool.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Text with half a surrogate pair (a tool that cut a string in the middle of an emoji with
 * substring, an MCP server whose JSON escaped it as {@code \ud83d}) has no UTF-8 form: the request
 * carries U+FFFD in its place, as a decoder would, and whole pairs (emoji) stay as they are. The
 * text stays in the history, so a request that could not be written would fail every later step.
 */
class LoneSurrogateTest extends FakeChat {

    @Test
    void aRunWhoseToolReturnsHalfASurrogatePairContinuesWithAReplacementCharacter() {
        server.enqueue(ChatReply.toolCall("call_1", "cut", "{\"q\":\"x\"}"), ChatReply.text("読みました"));
        Tool cut = Tool.builder("cut").description("Cuts 😀 text.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "abc\uD83D").build();
        RunResult result = Agent.builder().model(model).modelName("gpt-test").price("gpt-test", ModelPrice.of("1", "0", "1", "1"))
                .tools(cut).build().run("切って");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("読みました");
        JsonNode body = server.requests().get(1).body();
        assertThat(body.at("/messages/2/role").asText()).isEqualTo("tool");
        assertThat(body.at("/messages/2/content").asText()).contains("abc\uFFFD\n").doesNotContain("\uD83D"); // within the untrusted_data wrapper
        assertThat(body.at("/tools/0/function/description").asText()).isEqualTo("Cuts 😀 text.");
    }

    @Test
    void halfASurrogatePairAnywhereInTheRequestIsSentAsAReplacementCharacter() throws Exception {
        server.enqueue(ChatReply.text("読みました"));
        ObjectNode input = (ObjectNode) Json.parse("{\"q\":\"\\ud83d\"}"); // as an MCP server's JSON escapes it
        input.put("\uDE00key", "ok");
        ObjectNode schema = (ObjectNode) Json.parse("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\","
                + "\"description\":\"a query \\ud83d\"}}}");
        ToolDefinition search = new ToolDefinition("search", "Searches 😀 notes \uD83D", schema);
        call(request("絵文字 😀 が切れた: \uD83D").system("規則 \uDE00").tools(List.of(search, tool("other")))
                .addMessage(Message.assistant(List.of(new TextBlock("探します \uD83D"), new ToolUseBlock("call_1", "search", input))))
                .addMessage(Message.user(List.of(new ToolResultBlock("call_1", "結果 😀 …\uD83D", true)))));

        JsonNode body = server.lastRequest().body();
        assertThat(body.at("/messages/0/content").asText()).isEqualTo("規則 \uFFFD");
        assertThat(body.at("/messages/1/content").asText()).isEqualTo("絵文字 😀 が切れた: \uFFFD");
        assertThat(body.at("/messages/2/content").asText()).isEqualTo("探します \uFFFD");
        assertThat(Json.parse(body.at("/messages/2/tool_calls/0/function/arguments").asText()))
                .isEqualTo(Json.parse("{\"q\":\"\uFFFD\",\"\uFFFDkey\":\"ok\"}"));
        assertThat(body.at("/messages/3/content").asText()).isEqualTo("Error: 結果 😀 …\uFFFD");
        assertThat(body.at("/tools/0/function/description").asText()).isEqualTo("Searches 😀 notes \uFFFD");
        assertThat(body.at("/tools/0/function/parameters/properties/q/description").asText()).isEqualTo("a query \uFFFD");
    }
}
