package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FakeScriptTest {

    @Test
    void parsesEveryReplyKind() {
        FakeScript script = FakeScript.parse("""
                [
                  {"type": "message",
                   "content": [
                     {"type": "thinking", "thinking": "Hmm.", "signature": "sig"},
                     {"type": "redacted_thinking", "data": "opaque"},
                     {"type": "text", "text": "Reading."},
                     {"type": "tool_use", "id": "toolu_01", "name": "read_file", "input": {"path": "a.txt"}}],
                   "usage": {"input_tokens": 10, "output_tokens": 5,
                             "cache_creation_input_tokens": 7, "cache_read_input_tokens": 3,
                             "cache_creation": {"ephemeral_5m_input_tokens": 4, "ephemeral_1h_input_tokens": 3}}},
                  {"type": "message", "content": [{"type": "text", "text": "1, 2"}], "stop_sequence": "3"},
                  {"type": "message", "content": [], "stop_reason": "max_tokens"},
                  {"type": "error", "status": 429, "error": {"type": "rate_limit_error", "message": "Slow down"},
                   "headers": {"retry-after": "1"}},
                  {"type": "error", "error": {"type": "overloaded_error"}},
                  {"type": "stream_error", "after_events": 2, "error": {"type": "api_error", "message": "boom"},
                   "partial": {"type": "message", "content": [{"type": "text", "text": "par"}]}},
                  {"type": "stream_error"},
                  {"type": "disconnect"},
                  {"type": "disconnect", "after_events": 3,
                   "partial": {"type": "message", "content": [{"type": "text", "text": "cut"}]}},
                  {"type": "malformed"},
                  {"type": "malformed", "body": "{oops"},
                  {"type": "delayed", "delay_ms": 250, "reply": {"type": "hang"}}
                ]""");

        List<FakeReply> replies = script.messages();
        assertThat(script.countTokens()).isEmpty();
        assertThat(replies).hasSize(12);
        assertThat(replies.get(0)).isEqualTo(FakeReply.message()
                .thinking("Hmm.", "sig")
                .redactedThinking("opaque")
                .text("Reading.")
                .toolUse("toolu_01", "read_file", "{\"path\":\"a.txt\"}")
                .usage(new FakeUsage(10, 5, 7, 3, 4, 3))
                .build());
        assertThat(((FakeReply.Message) replies.get(0)).stopReason()).isEqualTo("tool_use");
        assertThat(replies.get(1)).isEqualTo(FakeReply.message().text("1, 2").stopSequence("3").build());
        assertThat(replies.get(2)).isEqualTo(FakeReply.message().stopReason("max_tokens").build());
        assertThat(replies.get(3)).isEqualTo(new FakeReply.HttpError(429, "rate_limit_error", "Slow down",
                Map.of("retry-after", "1")));
        assertThat(replies.get(4)).isEqualTo(FakeReply.overloaded());
        assertThat(replies.get(5)).isEqualTo(new FakeReply.StreamError(FakeReply.text("par"), 2, "api_error", "boom"));
        assertThat(replies.get(6)).isEqualTo(FakeReply.overloadedMidStream());
        assertThat(replies.get(7)).isEqualTo(FakeReply.disconnect());
        assertThat(replies.get(8)).isEqualTo(FakeReply.disconnectMidStream(FakeReply.text("cut"), 3));
        assertThat(replies.get(9)).isEqualTo(FakeReply.malformed());
        assertThat(replies.get(10)).isEqualTo(FakeReply.malformed("{oops"));
        assertThat(replies.get(11)).isEqualTo(FakeReply.delayed(Duration.ofMillis(250), FakeReply.hang()));
    }

    @Test
    void objectFormHasAQueuePerEndpoint() {
        FakeScript script = FakeScript.parse("""
                {"messages": [{"type": "message", "content": [{"type": "text", "text": "hi"}]}],
                 "count_tokens": [{"type": "token_count", "input_tokens": 42}, {"type": "error",
                                   "error": {"type": "api_error"}}]}""");

        assertThat(script.messages()).containsExactly(FakeReply.text("hi"));
        assertThat(script.countTokens()).containsExactly(FakeReply.tokenCount(42), FakeReply.error(ApiErrorType.API));
    }

    @Test
    void aCapturedApiResponseCanBePastedIn() {
        FakeScript script = FakeScript.parse("""
                [{"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-x",
                  "content": [{"type": "text", "text": "Hello!"}], "stop_reason": "end_turn",
                  "stop_sequence": null, "usage": {"input_tokens": 9, "output_tokens": 3}}]""");

        assertThat(script.messages()).containsExactly(FakeReply.message().text("Hello!").usage(9, 3).build());
    }

    @Test
    void everyErrorTypeOfTheErrorsPageHasItsStatusWithoutOne() {
        // The errors page's examples, pasted as they are: 402 billing_error, 409 conflict_error and 504
        // timeout_error come with their status as the eight others do, where they needed a "status".
        FakeScript script = FakeScript.parse("""
                [{"type": "error", "error": {"type": "billing_error", "message": "Check your billing."}},
                 {"type": "error", "error": {"type": "conflict_error", "message": "Conflict."}},
                 {"type": "error", "error": {"type": "timeout_error", "message": "Request timed out."}}]""");

        assertThat(script.messages()).extracting(r -> ((FakeReply.HttpError) r).status()).containsExactly(402, 409, 504);
        assertThat(ApiErrorType.fromWireName("timeout_error")).hasValue(ApiErrorType.TIMEOUT);
    }

    @Test
    void errorsNameTheJsonPath() {
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[{\"type\":\"image\"}]}]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("messages[0].content[0]")
                .hasMessageContaining("image");
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"delayed\",\"reply\":{\"type\":\"hang\"}}]"))
                .hasMessageContaining("messages[0].delay_ms");
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"error\",\"error\":{\"type\":\"teapot\"}}]"))
                .hasMessageContaining("status is required");
        assertThatThrownBy(() -> FakeScript.parse("{\"replies\": []}")).hasMessageContaining("unknown field");
        assertThatThrownBy(() -> FakeScript.parse("[")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[{\"type\":\"tool_use\","
                        + "\"id\":\"t\",\"name\":\"n\",\"input\":[1]}]}]"))
                .hasMessageContaining("messages[0].content[0].input");
    }

    @Test
    void loadedScriptDrivesTheServer(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("script.json");
        Files.writeString(file, """
                {"messages": [{"type": "message", "content": [{"type": "text", "text": "from file"}]}],
                 "count_tokens": [{"type": "token_count", "input_tokens": 7}]}""");

        try (FakeMessagesServer server = FakeMessagesServer.start().enqueue(FakeScript.load(file))) {
            Api api = new Api(server);
            assertThat(Api.json(api.messages(Api.userRequest("x", false))).at("/content/0/text").asText())
                    .isEqualTo("from file");
            assertThat(Api.json(api.post("/v1/messages/count_tokens",
                            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"))
                    .path("input_tokens").asInt()).isEqualTo(7);
        }
    }

    @Test
    void serverSideBlocksOfAPastedResponseGoAsGivenAndATypoIsStillRefused() {
        String result = "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":[]}";
        FakeScript script = FakeScript.parse("[{\"type\":\"message\",\"content\":[" + result + "]}]");
        assertThat(((FakeReply.Message) script.messages().get(0)).content())
                .containsExactly(FakeBlock.serverSide(result));
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[{\"type\":\"txt\",\"text\":\"x\"}]}]"))
                .hasMessageStartingWith("messages[0].content[0]: unknown block type 'txt'");
    }

    @Test
    void aPastedCodeExecutionResponseKeepsItsContainer() {
        // The code execution tool docs' response: the message names the container the code ran in.
        FakeScript script = FakeScript.parse("""
                [{"type": "message", "container": {"id": "container_011CPR5CNjB747bTd36fQLFk",
                  "expires_at": "2025-05-23T21:13:31.749448Z"}, "content": [{"type": "text", "text": "5.5"}]}]""");

        assertThat(((FakeReply.Message) script.messages().get(0)).containerJson())
                .isEqualTo("{\"id\":\"container_011CPR5CNjB747bTd36fQLFk\",\"expires_at\":\"2025-05-23T21:13:31.749448Z\"}");
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[],\"container\":\"c_1\"}]"))
                .hasMessageStartingWith("messages[0].container: must be an object");
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[],\"container\":{}}]"))
                .hasMessageStartingWith("messages[0].container.id: a string is required");
    }

    @Test
    void aPastedProgrammaticToolCallKeepsItsCaller() {
        // The programmatic tool calling docs' response: a tool_use the code execution tool's code made.
        FakeScript script = FakeScript.parse("""
                [{"type": "message", "content": [{"type": "tool_use", "id": "toolu_abc123", "name": "query_database",
                  "input": {"sql": "<sql>"}, "caller": {"type": "code_execution_20260120", "tool_id": "srvtoolu_xyz789"}},
                  {"type": "tool_use", "id": "toolu_2", "name": "ask", "input": {}, "caller": {"type": "direct"}}]}]""");

        List<FakeBlock> content = ((FakeReply.Message) script.messages().get(0)).content();
        assertThat(((FakeBlock.ToolUse) content.get(0)).callerJson())
                .isEqualTo("{\"type\":\"code_execution_20260120\",\"tool_id\":\"srvtoolu_xyz789\"}");
        assertThat(((FakeBlock.ToolUse) content.get(1)).callerJson()).isNull();
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\","
                + "\"name\":\"n\",\"input\":{},\"caller\":\"direct\"}]}]"))
                .hasMessageStartingWith("messages[0].content[0].caller: must be an object with a \"type\"");
    }

    @Test
    void aPastedWebSearchResponseKeepsItsServerToolUseCounts() {
        FakeScript script = FakeScript.parse("""
                [{"type": "message", "content": [{"type": "text", "text": "晴れ"}], "usage": {"input_tokens": 20,
                  "output_tokens": 9, "server_tool_use": {"web_search_requests": 2, "web_fetch_requests": 1}}}]""");

        assertThat(((FakeReply.Message) script.messages().get(0)).usage())
                .isEqualTo(FakeUsage.of(20, 9).withServerToolUse("web_search_requests", 2).withServerToolUse("web_fetch_requests", 1));
        assertThatThrownBy(() -> FakeScript.parse("[{\"type\":\"message\",\"content\":[],\"usage\":{\"input_tokens\":1,"
                + "\"output_tokens\":1,\"server_tool_use\":{\"web_search_requests\":\"two\"}}}]"))
                .hasMessageStartingWith("messages[0].usage.server_tool_use.web_search_requests: an integer is required");
    }
}
