package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * With thinking {@code enabled}, the assistant turn a request continues with tool results must start with the
 * thinking the model made (the extended thinking docs, "Preserving thinking blocks": during tool use the thinking of
 * the last assistant turn must be passed back), refused otherwise in the API's words; and a thinking block takes no
 * {@code cache_control} (the API's schema has no such field on it).
 */
class ThinkingInTheToolLoopTest extends FakeServerTestBase {

    private static final String TOOLS = "\"tools\":[{\"name\":\"lookup\",\"input_schema\":{\"type\":\"object\"}}]";

    private static String request(String thinking, String messages) {
        return "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":4000,\"thinking\":" + thinking + "," + TOOLS
                + ",\"messages\":[" + messages + "]}";
    }

    private static final String ENABLED = "{\"type\":\"enabled\",\"budget_tokens\":2000}";
    private static final String USER = "{\"role\":\"user\",\"content\":\"A-1 は?\"}";
    private static final String CALL = "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"lookup\",\"input\":{}}";
    private static final String RESULT =
            "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_1\",\"content\":\"発送済み\"}]}";
    private static final String THINKING = "{\"type\":\"thinking\",\"thinking\":\"まず調べる\",\"signature\":\"sig_hand\"}";

    private static void assertMustStartWithThinking(HttpResponse<String> response, int message, String found)
            throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(response).at("/error/message").asText()).isEqualTo("messages." + message
                + ".content.0.type: Expected `thinking` or `redacted_thinking`, but found `" + found + "`. When"
                + " `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the"
                + " lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from"
                + " previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at"
                + " https://docs.claude.com/en/docs/build-with-claude/extended-thinking");
    }

    @Test
    void toolResultsAfterAnAssistantTurnWithoutItsThinkingAreRefusedWithThinkingEnabled() throws Exception {
        HttpResponse<String> response = api.messages(request(ENABLED,
                USER + ",{\"role\":\"assistant\",\"content\":[" + CALL + "]}," + RESULT));
        assertMustStartWithThinking(response, 1, "tool_use");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void theTurnsFirstAssistantMessageIsTheOneThatMustStartWithThinking() throws Exception {
        // Text before the call, thinking left out: the first block found is the text.
        HttpResponse<String> response = api.messages(request(ENABLED, USER
                + ",{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"調べます\"}," + CALL + "]}," + RESULT));
        assertMustStartWithThinking(response, 1, "text");
    }

    @Test
    void aLaterStepOfTheLoopNeedNotThinkAgain() throws Exception {
        // Without interleaved thinking the model thinks once, at the start of its turn: the second call has none.
        String second = "{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"lookup\",\"input\":{}}";
        String secondResult =
                "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_2\",\"content\":\"届いた\"}]}";
        server.enqueue(FakeReply.text("届きました"));
        HttpResponse<String> response = api.messages(request(ENABLED, USER
                + ",{\"role\":\"assistant\",\"content\":[" + THINKING + "," + CALL + "]}," + RESULT
                + ",{\"role\":\"assistant\",\"content\":[" + second + "]}," + secondResult));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void anEarlierTurnWithoutThinkingIsTaken() throws Exception {
        // The thinking of earlier turns may be left out: the API strips it anyway.
        server.enqueue(FakeReply.text("了解"));
        HttpResponse<String> response = api.messages(request(ENABLED, USER
                + ",{\"role\":\"assistant\",\"content\":[" + CALL + "]}," + RESULT
                + ",{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"発送済みです\"}]},"
                + "{\"role\":\"user\",\"content\":\"ありがとう\"}"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void aRedactedThinkingBlockStartsTheTurnToo() throws Exception {
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(request(ENABLED, USER
                + ",{\"role\":\"assistant\",\"content\":[{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\"}," + CALL
                + "]}," + RESULT));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void adaptiveThinkingMaySkipThinking() throws Exception {
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(request("{\"type\":\"adaptive\"}",
                USER + ",{\"role\":\"assistant\",\"content\":[" + CALL + "]}," + RESULT));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void withoutThinkingTheTurnNeedsNone() throws Exception {
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(request("{\"type\":\"disabled\"}",
                USER + ",{\"role\":\"assistant\",\"content\":[" + CALL + "]}," + RESULT));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void aThinkingBlockWithCacheControlIsRefused() throws Exception {
        String marked = THINKING.replace("}", ",\"cache_control\":{\"type\":\"ephemeral\"}}");
        HttpResponse<String> response = api.messages(request(ENABLED,
                USER + ",{\"role\":\"assistant\",\"content\":[" + marked + "," + CALL + "]}," + RESULT));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText())
                .isEqualTo("messages.1.content.0.thinking.cache_control: Extra inputs are not permitted");
    }

    @Test
    void aRedactedThinkingBlockWithCacheControlIsRefused() throws Exception {
        HttpResponse<String> response = api.messages(request(ENABLED, USER + ",{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\",\"cache_control\":{\"type\":\"ephemeral\"}},"
                + CALL + "]}," + RESULT));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText())
                .isEqualTo("messages.1.content.0.redacted_thinking.cache_control: Extra inputs are not permitted");
    }
}
