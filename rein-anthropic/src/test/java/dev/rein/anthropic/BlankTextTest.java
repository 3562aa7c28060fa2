package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API answers 400 for a text block without any non-whitespace character ("text content blocks
 * must contain non-whitespace text"), and the model itself sometimes answers "\n\n" before a tool
 * call: such blocks are left out of the request, and no breakpoint is put on them. An error
 * result without text is refused too, so it says that it has none.
 */
class BlankTextTest extends FakeApi {

    @Test
    void whitespaceOnlyTextBlocksAreNotSent() throws Exception {
        server.enqueue(FakeReply.text("done"));
        ToolUseBlock use = new ToolUseBlock("toolu_1", "search", Json.parse("{\"q\":\"x\"}"));
        call(cached(request("find x").system(List.of(new TextBlock("rules"), new TextBlock(" \n")))
                .tools(List.of(tool("search")))
                .addMessage(Message.assistant(List.of(new TextBlock("\n\n"), use)))
                .addMessage(Message.user(List.of(new ToolResultBlock("toolu_1", "found", false))))
                .addMessage(Message.assistant(List.of(new TextBlock("  "))))
                .addMessage(Message.user(List.of(new TextBlock("go on"), new TextBlock("\t"))))));
        JsonNode body = lastBody();
        assertThat(blankTexts(body)).as(body.toString()).isZero();
        assertThat(body.get("system")).hasSize(1);
        assertThat(body.get("system").get(0).has("cache_control")).isTrue();
        JsonNode messages = body.get("messages");
        assertThat(messages).as("the message left without content is left out").hasSize(4);
        assertThat(messages.get(1).get("content")).hasSize(1);
        assertThat(messages.get(1).get("content").get(0).get("type").asText()).isEqualTo("tool_use");
        JsonNode last = messages.get(3).get("content");
        assertThat(last).hasSize(1);
        assertThat(last.get(0).get("text").asText()).isEqualTo("go on");
        assertThat(last.get(0).has("cache_control")).as("the moving breakpoint skips the blank block").isTrue();
    }

    @Test
    void anErrorResultWithoutTextSaysSoInsteadOfSendingEmptyContent() throws Exception {
        // The API answers 400 "content cannot be empty if `is_error` is true", and the block would
        // stay in the history: every later request of the run would fail the same way.
        server.enqueue(FakeReply.text("done"));
        ToolUseBlock first = new ToolUseBlock("toolu_1", "search", Json.parse("{\"q\":\"x\"}"));
        ToolUseBlock second = new ToolUseBlock("toolu_2", "search", Json.parse("{\"q\":\"y\"}"));
        ToolUseBlock third = new ToolUseBlock("toolu_3", "search", Json.parse("{\"q\":\"z\"}"));
        call(request("find").tools(List.of(tool("search")))
                .addMessage(Message.assistant(List.of(first, second, third)))
                .addMessage(Message.user(List.of(new ToolResultBlock("toolu_1", "", true),
                        new ToolResultBlock("toolu_2", " \n", true),
                        new ToolResultBlock("toolu_3", "", false)))));
        JsonNode results = lastBody().at("/messages/2/content");
        assertThat(results.get(0).get("content").asText()).isEqualTo(RequestMapper.EMPTY_ERROR);
        assertThat(results.get(0).get("is_error").asBoolean()).isTrue();
        assertThat(results.get(1).get("content").asText()).isEqualTo(RequestMapper.EMPTY_ERROR);
        assertThat(results.get(2).get("content").asText()).as("an empty success is allowed and sent as it is").isEmpty();
    }

    private static int blankTexts(JsonNode body) {
        int blank = 0;
        for (JsonNode block : body.findParents("type")) {
            if (block.path("type").asText().equals("text") && block.path("text").asText().isBlank()) {
                blank++;
            }
        }
        return blank;
    }
}
