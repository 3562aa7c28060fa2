package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RecordingAndValidationTest extends FakeServerTestBase {

    /** An assistant tool call followed by a user message answering it with {@code resultId}. */
    private static final String TOOL_ROUND = """
            {"model":"claude-test-1","max_tokens":100,"messages":[
              {"role":"user","content":"read a.txt"},
              {"role":"assistant","content":[
                {"type":"text","text":"Reading."},
                {"type":"tool_use","id":"toolu_01","name":"read_file","input":{"path":"a.txt"}}]},
              {"role":"user","content":[
                {"type":"tool_result","tool_use_id":"%s","content":"hello"}]}]}""";


    @Test
    void recordsMethodPathHeadersAndBody() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        String body = Api.userRequest("hello", false);

        api.send(api.request("/v1/messages?beta=true", body)
                .header("Anthropic-Beta", "prompt-caching-2024-07-31")
                .header("X-Custom", "one")
                .build());

        RecordedRequest request = server.takeRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.path()).isEqualTo("/v1/messages");
        assertThat(request.query()).isEqualTo("beta=true");
        assertThat(request.header("x-api-key")).isEqualTo("test-key");
        assertThat(request.header("X-API-KEY")).isEqualTo("test-key");
        assertThat(request.headers().get("Anthropic-Version")).containsExactly("2023-06-01");
        assertThat(request.header("anthropic-beta")).isEqualTo("prompt-caching-2024-07-31");
        assertThat(request.headerValues("x-custom")).containsExactly("one");
        assertThat(request.header("absent")).isNull();
        assertThat(request.rawBody()).isEqualTo(body);
        assertThat(request.body().path("messages").get(0).path("content").asText()).isEqualTo("hello");
        assertThat(request.model()).hasValue("claude-test-1");
        assertThat(request.isStream()).isFalse();
        assertThat(server.lastRequest()).isEqualTo(request);
    }

    @Test
    void takeRequestReturnsEachRequestOnceInOrder() throws Exception {
        server.enqueue(FakeReply.text("1"), FakeReply.text("2"));
        api.messages(Api.userRequest("first", false));
        api.messages(Api.userRequest("second", true));

        assertThat(server.takeRequest().body().at("/messages/0/content").asText()).isEqualTo("first");
        RecordedRequest second = server.takeRequest();
        assertThat(second.isStream()).isTrue();
        assertThat(server.requests()).hasSize(2);
        assertThatThrownBy(() -> server.takeRequest(Duration.ofMillis(50)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void lastRequestWithoutRequestsIsAnError() {
        assertThatThrownBy(server::lastRequest).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nonJsonBodyIsRecordedRawAndRejected() throws Exception {
        HttpResponse<String> response = api.messages("this is not json");

        assertThat(response.statusCode()).isEqualTo(400);
        RecordedRequest request = server.lastRequest();
        assertThat(request.rawBody()).isEqualTo("this is not json");
        assertThat(request.body().isMissingNode()).isTrue();
    }

    @Test
    void toolResultAnsweringThePreviousToolUseIsAccepted() throws Exception {
        server.enqueue(FakeReply.text("done"));

        HttpResponse<String> response = api.messages(TOOL_ROUND.formatted("toolu_01"));

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void answeringCallsFromCodeWithoutTheirContainerIsRejectedLikeTheRealApi() throws Exception {
        server.enqueue(FakeReply.text("done"));
        String round = """
                {"model":"claude-test-1","max_tokens":100,%s"messages":[
                  {"role":"user","content":"sum the regions"},
                  {"role":"assistant","content":[
                    {"type":"server_tool_use","id":"srvtoolu_01","name":"code_execution","input":{"code":"..."}},
                    {"type":"tool_use","id":"toolu_01","name":"query_database","input":{"sql":"SELECT 1"},
                     "caller":{"type":"code_execution_20260120","tool_id":"srvtoolu_01"}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"45000"}]}]}""";

        HttpResponse<String> without = api.messages(round.formatted(""));
        HttpResponse<String> with = api.messages(round.formatted("\"container\":\"container_011\","));

        assertThat(without.statusCode()).isEqualTo(400);
        assertThat(Api.json(without).at("/error/message").asText())
                .isEqualTo("container_id is required when there are pending tool uses generated by code execution with tools.");
        assertThat(with.statusCode()).isEqualTo(200);
        // An ordinary call (no caller, or "direct") needs none.
        server.enqueue(FakeReply.text("done"));
        assertThat(api.messages(TOOL_ROUND.formatted("toolu_01")).statusCode()).isEqualTo(200);
    }

    /**
     * Anthropic's tool use docs: in the user message answering tool calls, the tool_result blocks come first and any
     * text after them; text before them is a 400, with the API's message (as quoted in apify/tester-mcp-client#12).
     * The fake took such a message. Text after the results is accepted.
     */
    @Test
    void textBeforeTheToolResultsOfAnAnswerIsRejectedLikeTheRealApi() throws Exception {
        server.enqueue(FakeReply.text("done"));
        String round = """
                {"model":"claude-test-1","max_tokens":100,"messages":[
                  {"role":"user","content":"read a.txt"},
                  {"role":"assistant","content":[
                    {"type":"tool_use","id":"toolu_01","name":"read_file","input":{"path":"a.txt"}},
                    {"type":"tool_use","id":"toolu_02","name":"read_file","input":{"path":"b.txt"}}]},
                  {"role":"user","content":[%s]}]}""";
        String first = "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_01\",\"content\":\"a\"}";
        String second = "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_02\",\"content\":\"b\"}";
        String text = "{\"type\":\"text\",\"text\":\"Keep going.\"}";

        HttpResponse<String> before = api.messages(round.formatted(text + "," + first + "," + second));
        HttpResponse<String> between = api.messages(round.formatted(first + "," + text + "," + second));
        HttpResponse<String> after = api.messages(round.formatted(first + "," + second + "," + text));

        for (HttpResponse<String> refused : java.util.List.of(before, between)) {
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(Api.json(refused).at("/error/type").asText()).isEqualTo("invalid_request_error");
            // the API's words, backquotes included, as in apify/tester-mcp-client#12 and anthropics/claude-code#37
            assertThat(Api.json(refused).at("/error/message").asText()).isEqualTo("messages.2: Did not find 2 `tool_result`"
                    + " block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a"
                    + " matching number of `tool_result` blocks.");
        }
        assertThat(after.statusCode()).isEqualTo(200);
    }

    /**
     * A last assistant message (a prefill, or a turn paused with pause_turn sent back to be continued) ending in
     * whitespace is refused by the API ("messages: final assistant content cannot end with trailing whitespace");
     * whitespace at the end of an earlier assistant message, or inside the last one, is not.
     */
    @Test
    void aFinalAssistantMessageEndingInWhitespaceIsRejectedLikeTheRealApi() throws Exception {
        String request = """
                {"model":"claude-test-1","max_tokens":100,"messages":[
                  {"role":"user","content":"東京の天気は？"},
                  {"role":"assistant","content":%s}%s]}""";
        for (String last : java.util.List.of("\"調べます。\\n\"", "[{\"type\":\"text\",\"text\":\"調べます。 \"}]",
                "[{\"type\":\"text\",\"text\":\"調べ\"},{\"type\":\"text\",\"text\":\"ます。\\n\\n\"}]")) {
            HttpResponse<String> refused = api.messages(request.formatted(last, ""));
            assertThat(refused.statusCode()).as(last).isEqualTo(400);
            assertThat(Api.json(refused).at("/error/message").asText())
                    .isEqualTo("messages: final assistant content cannot end with trailing whitespace");
        }
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        assertThat(api.messages(request.formatted("[{\"type\":\"text\",\"text\":\"調べ ます。\"}]", "")).statusCode())
                .isEqualTo(200);
        assertThat(api.messages(request.formatted("\"調べます。\\n\"", ",{\"role\":\"user\",\"content\":\"はい\"}"))
                .statusCode()).as("not the final message").isEqualTo(200);
    }

    /**
     * The errors page: a request above 32 MB is refused with 413 {@code request_too_large} before it is read; the fake
     * refuses a body above 32 MiB so, at both endpoints, consuming no reply.
     */
    @Test
    void aBodyAboveThirtyTwoMegabytesIsRefusedWith413LikeTheRealApi() throws Exception {
        server.enqueue(FakeReply.text("never sent"));
        String big = "あ".repeat(32 * 1024 * 1024 / 3 + 10); // each あ is 3 bytes of UTF-8
        String body = "{\"model\":\"claude-test-1\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"" + big + "\"}]}";
        for (HttpResponse<String> refused : java.util.List.of(api.messages(body), api.post("/v1/messages/count_tokens", body))) {
            assertThat(refused.statusCode()).isEqualTo(413);
            assertThat(Api.json(refused).at("/error/type").asText()).isEqualTo("request_too_large");
            assertThat(Api.json(refused).at("/error/message").asText()).isEqualTo("Request exceeds the maximum allowed number of bytes.");
        }
        assertThat(server.pendingReplies()).isEqualTo(1);
    }

    /**
     * The API refuses a request in which two {@code tool_use} blocks share an id, in one assistant message or in two
     * ("messages.1.content.1: `tool_use` ids must be unique", naming the later one), and a {@code tool_use} id outside
     * {@code ^[a-zA-Z0-9_-]+$} ("messages.1.content.0.tool_use.id: String should match pattern ..."), as a history
     * from another provider can carry (Kimi's "functions.lookup:0"); each answer to it is refused with it.
     */
    @Test
    void toolUseIdsThatRepeatOrFallOutsideTheApisPatternAreRejectedLikeTheRealApi() throws Exception {
        String twice = """
                {"model":"claude-test-1","max_tokens":100,"messages":[
                  {"role":"user","content":"二つ調べて"},
                  {"role":"assistant","content":[
                    {"type":"tool_use","id":"toolu_01","name":"lookup","input":{"q":"a"}},
                    {"type":"tool_use","id":"toolu_01","name":"lookup","input":{"q":"b"}}]},
                  {"role":"user","content":[
                    {"type":"tool_result","tool_use_id":"toolu_01","content":"A"},
                    {"type":"tool_result","tool_use_id":"toolu_01","content":"B"}]}]}""";
        assertRejected(api.messages(twice), "messages.1.content.1: `tool_use` ids must be unique");
        String acrossTurns = """
                {"model":"claude-test-1","max_tokens":100,"messages":[
                  {"role":"user","content":"調べて"},
                  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"lookup","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"A"}]},
                  {"role":"assistant","content":[{"type":"text","text":"もう一度"},
                    {"type":"tool_use","id":"toolu_01","name":"lookup","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"B"}]}]}""";
        assertRejected(api.messages(acrossTurns), "messages.3.content.1: `tool_use` ids must be unique");
        String foreign = """
                {"model":"claude-test-1","max_tokens":100,"messages":[
                  {"role":"user","content":"調べて"},
                  {"role":"assistant","content":[{"type":"tool_use","id":"functions.lookup:0","name":"lookup","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"functions.lookup:0","content":"A"}]}]}""";
        assertRejected(api.messages(foreign),
                "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
        assertRejected(api.post("/v1/messages/count_tokens", foreign.replace("\"max_tokens\":100,", "")),
                "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'");
        server.enqueue(FakeReply.text("ok"));
        assertThat(api.messages(TOOL_ROUND.formatted("toolu_01")).statusCode()).as("one id, once").isEqualTo(200);
    }

    /**
     * The API refuses a {@code tool_use} name longer than 200 characters in a message ("messages.1.content.0.tool_use.name:
     * String should have at most 200 characters"): a model may call a tool it made up, a shell command as its name, and
     * the call stays in the history with its refusal. It counts characters, so 200 emoji are taken.
     */
    @Test
    void aToolUseNameLongerThan200CharactersIsRejectedLikeTheRealApi() throws Exception {
        String round = """
                {"model":"claude-test-1","max_tokens":100,"messages":[
                  {"role":"user","content":"調べて"},
                  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"%s","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"no such tool","is_error":true}]}]}""";
        assertRejected(api.messages(round.formatted("x".repeat(201))),
                "messages.1.content.0.tool_use.name: String should have at most 200 characters");
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
        assertThat(api.messages(round.formatted("x".repeat(200))).statusCode()).as("200 characters").isEqualTo(200);
        assertThat(api.messages(round.formatted("😀".repeat(200))).statusCode()).as("200 emoji").isEqualTo(200);
    }

    private static void assertRejected(HttpResponse<String> response, String message) throws Exception {
        assertThat(response.statusCode()).as(message).isEqualTo(400);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(response).at("/error/message").asText()).isEqualTo(message);
    }

    @Test
    void toolResultWithoutMatchingToolUseIsRejectedLikeTheRealApi() throws Exception {
        server.enqueue(FakeReply.text("never sent"));

        HttpResponse<String> response = api.messages(TOOL_ROUND.formatted("toolu_99"));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = Api.json(response);
        assertThat(body.at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(body.at("/error/message").asText()).isEqualTo("messages.1: `tool_use` ids were found without"
                + " `tool_result` blocks immediately after: toolu_01. Each `tool_use` block must have a corresponding"
                + " `tool_result` block in the next message.");
        assertThat(server.pendingReplies()).as("a rejected request consumes no reply").isEqualTo(1);
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void toolResultWithoutAnyPreviousToolUseIsRejected() throws Exception {
        String body = """
                {"model":"m","max_tokens":10,"messages":[
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_7","content":"x"}]}]}""";

        HttpResponse<String> response = api.messages(body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText()).isEqualTo("messages.0.content.0: unexpected"
                + " `tool_use_id` found in `tool_result` blocks: toolu_7. Each `tool_result` block must have a"
                + " corresponding `tool_use` block in the previous message.");
    }

    @Test
    void toolResultAnsweringAnOlderToolUseIsRejected() throws Exception {
        String body = """
                {"model":"m","max_tokens":10,"messages":[
                  {"role":"user","content":"go"},
                  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"x"}]},
                  {"role":"assistant","content":"thanks"},
                  {"role":"user","content":[
                    {"type":"text","text":"again"},
                    {"type":"tool_result","tool_use_id":"toolu_1","content":"x"}]}]}""";

        HttpResponse<String> response = api.messages(body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText()).startsWith("messages.4.content.1: unexpected");
    }

    @Test
    void moreThanFourCacheBreakpointsAreRejectedLikeTheRealApi() throws Exception {
        // The prompt caching docs: at most 4 cache_control breakpoints per request, counted over tools,
        // system blocks and message blocks (a tool_result's own content blocks too).
        String five = """
                {"model":"m","max_tokens":10,
                 "tools":[{"name":"t","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}],
                 "system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral"}}],
                 "messages":[
                  {"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}]},
                  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"t","input":{},
                    "cache_control":{"type":"ephemeral","ttl":"5m"}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1",
                    "content":[{"type":"text","text":"r","cache_control":{"type":"ephemeral"}}]}]}]}""";
        server.enqueue(FakeReply.text("never sent"), FakeReply.text("sent"));

        HttpResponse<String> rejected = api.messages(five);
        HttpResponse<String> four = api.messages(five.replaceFirst(",\"cache_control\":\\{\"type\":\"ephemeral\"}", ""));

        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(Api.json(rejected).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(rejected).at("/error/message").asText())
                .isEqualTo("A maximum of 4 blocks with cache_control may be provided. Found 5.");
        assertThat(four.statusCode()).isEqualTo(200);
        assertThat(Api.json(four).at("/content/0/text").asText()).isEqualTo("never sent");
    }

    /**
     * The API refuses a stop sequence without a non-whitespace character (an empty one, "\n"), in its own words; one
     * with whitespace around text is taken.
     */
    @Test
    void aStopSequenceOfOnlyWhitespaceIsRejectedLikeTheRealApi() throws Exception {
        String request = "{\"model\":\"m\",\"max_tokens\":10,\"stop_sequences\":%s,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
        server.enqueue(FakeReply.text("taken"));

        HttpResponse<String> newline = api.messages(request.formatted("[\"END\",\"\\n\"]"));
        HttpResponse<String> empty = api.messages(request.formatted("[\"\"]"));
        HttpResponse<String> padded = api.messages(request.formatted("[\"\\nEND \"]"));

        assertThat(newline.statusCode()).isEqualTo(400);
        assertThat(Api.json(newline).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(newline).at("/error/message").asText())
                .isEqualTo("stop_sequences: each stop sequence must contain non-whitespace");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(Api.json(empty).at("/error/message").asText())
                .isEqualTo("stop_sequences: each stop sequence must contain non-whitespace");
        assertThat(padded.statusCode()).isEqualTo(200);
    }

    /**
     * The API verifies every thinking block's signature: one sent back with an empty signature (what an
     * Anthropic-compatible endpoint of another model sends, signing nothing) is refused in its words, wherever it is.
     */
    @Test
    void aThinkingBlockWithAnEmptySignatureIsRejectedLikeTheRealApi() throws Exception {
        String request = """
                {"model":"claude-sonnet-4-5","max_tokens":10,"messages":[
                  {"role":"user","content":"x"},
                  {"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"%s"},
                    {"type":"text","text":"y"}]},
                  {"role":"user","content":"z"}]}""";
        server.enqueue(FakeReply.text("taken"));

        HttpResponse<String> unsigned = api.messages(request.formatted(""));
        HttpResponse<String> signed = api.messages(request.formatted("sig"));

        assertThat(unsigned.statusCode()).isEqualTo(400);
        assertThat(Api.json(unsigned).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(unsigned).at("/error/message").asText())
                .isEqualTo("messages.1.content.0: Invalid `signature` in `thinking` block");
        assertThat(signed.statusCode()).isEqualTo(200);
    }

    @Test
    void missingMaxTokensAndEmptyMessagesAreRejected() throws Exception {
        HttpResponse<String> noMaxTokens = api.messages("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        HttpResponse<String> noMessages = api.messages("{\"model\":\"m\",\"max_tokens\":5,\"messages\":[]}");
        HttpResponse<String> systemRole = api.messages(
                "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"system\",\"content\":\"x\"}]}");

        assertThat(noMaxTokens.statusCode()).isEqualTo(400);
        assertThat(Api.json(noMaxTokens).at("/error/message").asText()).isEqualTo("max_tokens: Field required");
        assertThat(Api.json(noMessages).at("/error/message").asText())
                .isEqualTo("messages: at least one message is required");
        assertThat(Api.json(systemRole).at("/error/message").asText())
                .isEqualTo("messages.0.role: Input should be 'user' or 'assistant'");
    }

    /**
     * The extended thinking docs: a budget of at least 1,024 tokens, and below max_tokens, as thinking counts toward
     * them; with the interleaved thinking beta the budget is the whole turn's and may exceed them.
     */
    @Test
    void aThinkingBudgetBelowTheMinimumOrNotBelowMaxTokensIsRejectedLikeTheRealApi() throws Exception {
        String request = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":%d,\"thinking\":{\"type\":\"enabled\","
                + "\"budget_tokens\":%d},\"messages\":[{\"role\":\"user\",\"content\":\"考えて\"}]}";
        HttpResponse<String> small = api.messages(request.formatted(4000, 1000));
        assertThat(small.statusCode()).isEqualTo(400);
        assertThat(Api.json(small).at("/error/message").asText())
                .isEqualTo("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
        HttpResponse<String> noRoom = api.messages(request.formatted(2000, 2000));
        assertThat(noRoom.statusCode()).isEqualTo(400);
        assertThat(Api.json(noRoom).at("/error/message").asText()).isEqualTo("`max_tokens` must be greater than"
                + " `thinking.budget_tokens`. Please consult our documentation at"
                + " https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size");
        assertThat(server.requests()).hasSize(2);

        server.enqueue(FakeReply.text("はい"), FakeReply.text("はい"));
        assertThat(api.messages(request.formatted(2000, 1024)).statusCode()).isEqualTo(200);
        HttpResponse<String> interleaved = api.send(api.request("/v1/messages", request.formatted(2000, 8000))
                .header("anthropic-beta", "interleaved-thinking-2025-05-14").build());
        assertThat(interleaved.statusCode()).as(interleaved.body()).isEqualTo(200);
    }

    /**
     * The API's 400s for text a client should not send: an empty text block anywhere ("text content blocks must be
     * non-empty"), and a message of whitespace-only text ("... must contain non-whitespace text"); whitespace beside
     * other text is taken.
     */
    @Test
    void emptyAndWhitespaceOnlyTextIsRejectedLikeTheRealApi() throws Exception {
        String request = "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":%s}]}";
        for (String content : new String[] {"\"\"", "[{\"type\":\"text\",\"text\":\"\"}]",
                "[{\"type\":\"text\",\"text\":\"質問\"},{\"type\":\"text\",\"text\":\"\"}]"}) {
            HttpResponse<String> response = api.messages(request.formatted(content));
            assertThat(response.statusCode()).as(content).isEqualTo(400);
            assertThat(Api.json(response).at("/error/message").asText()).as(content)
                    .isEqualTo("messages: text content blocks must be non-empty");
        }
        for (String content : new String[] {"\" \\n\"", "[{\"type\":\"text\",\"text\":\"\\n\\n\"}]"}) {
            HttpResponse<String> response = api.messages(request.formatted(content));
            assertThat(response.statusCode()).as(content).isEqualTo(400);
            assertThat(Api.json(response).at("/error/message").asText()).as(content)
                    .isEqualTo("messages: text content blocks must contain non-whitespace text");
        }
        server.enqueue(FakeReply.text("ok"));
        assertThat(api.messages(request.formatted("[{\"type\":\"text\",\"text\":\" \"},{\"type\":\"text\",\"text\":\"質問\"}]"))
                .statusCode()).isEqualTo(200);
        assertThat(server.pendingReplies()).as("a refused request consumes no reply").isZero();
    }

    @Test
    void missingApiKeyIsUnauthorizedAndMissingVersionIsInvalid() throws Exception {
        String body = Api.userRequest("x", false);
        HttpRequest noKey = HttpRequest.newBuilder(java.net.URI.create(server.baseUrl() + "/v1/messages"))
                .header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpRequest noVersion = HttpRequest.newBuilder(java.net.URI.create(server.baseUrl() + "/v1/messages"))
                .header("x-api-key", "k")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();

        HttpResponse<String> unauthorized = api.send(noKey);
        HttpResponse<String> invalid = api.send(noVersion);

        assertThat(unauthorized.statusCode()).isEqualTo(401);
        assertThat(Api.json(unauthorized).at("/error/type").asText()).isEqualTo("authentication_error");
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(Api.json(invalid).at("/error/message").asText()).isEqualTo("anthropic-version: header is required");
    }

    @Test
    void validationCanBeSwitchedOff() throws Exception {
        server.validateRequests(false).enqueue(FakeReply.text("answered anyway"));
        assertThat(server.validatesRequests()).isFalse();

        HttpResponse<String> response = api.messages(TOOL_ROUND.formatted("toolu_99"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Api.json(response).at("/content/0/text").asText()).isEqualTo("answered anyway");
    }

    @Test
    void countTokensEstimatesFromTheBodyWithoutTouchingTheMessagesScript() throws Exception {
        server.enqueue(FakeReply.text("kept"));
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"count these characters\"}]}";

        HttpResponse<String> response = api.post("/v1/messages/count_tokens", body);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(Api.json(response).toString()).isEqualTo("{\"input_tokens\":" + body.length() / 4 + "}");
        assertThat(server.pendingReplies()).isEqualTo(1);
        assertThat(server.lastRequest().path()).isEqualTo("/v1/messages/count_tokens");
    }

    @Test
    void countTokensAnswersScriptedValuesAndFailures() throws Exception {
        server.enqueueCountTokens(FakeReply.tokenCount(1234), FakeReply.error(ApiErrorType.RATE_LIMIT));
        String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";

        assertThat(Api.json(api.post("/v1/messages/count_tokens", body)).path("input_tokens").asInt()).isEqualTo(1234);
        assertThat(api.post("/v1/messages/count_tokens", body).statusCode()).isEqualTo(429);
        assertThat(api.post("/v1/messages/count_tokens", body).statusCode()).as("estimate again").isEqualTo(200);
    }

    /**
     * API version 2026-10-21 (the version history, and the migration guides of the SDK majors that send it) made three
     * requests a 400 that 2023-06-01 takes: {@code temperature}, {@code top_p} or {@code top_k}, even at the default
     * value ("temperature: Extra inputs are not permitted"), a {@code document} block in an assistant message, and
     * non-empty {@code citations} on a text block of a user message. The fake refuses them under that version (and any
     * later one) and takes them under 2023-06-01, as the API does, consuming no reply.
     */
    @Test
    void version20261021RefusesSamplingParametersAssistantDocumentsAndUserCitationsLikeTheRealApi() throws Exception {
        String user = "{\"role\":\"user\",\"content\":\"要約して\"}";
        String document = "{\"role\":\"user\",\"content\":\"読んで\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"document\","
                + "\"source\":{\"type\":\"text\",\"media_type\":\"text/plain\",\"data\":\"本文\"}}]},{\"role\":\"user\",\"content\":\"続けて\"}";
        String citations = "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"引用\",\"citations\":[{\"type\":\"char_location\","
                + "\"cited_text\":\"本\",\"document_index\":0,\"start_char_index\":0,\"end_char_index\":1}]}]}";
        java.util.Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("\"temperature\":1.0,\"messages\":[" + user + "]", "temperature: Extra inputs are not permitted");
        refused.put("\"top_p\":0.9,\"messages\":[" + user + "]", "top_p: Extra inputs are not permitted");
        refused.put("\"top_k\":40,\"messages\":[" + user + "]", "top_k: Extra inputs are not permitted");
        refused.put("\"messages\":[" + document + "]", "messages.1.content.0: a `document` block is not permitted in an"
                + " `assistant` message");
        refused.put("\"messages\":[" + citations + "]", "messages.0.content.0.citations: citations are not permitted on a"
                + " `text` block in a `user` message");
        for (var entry : refused.entrySet()) {
            String body = "{\"model\":\"claude-sonnet-5-5\",\"max_tokens\":100," + entry.getKey() + "}";
            HttpResponse<String> answer = api.send(api.request("/v1/messages", body).setHeader("anthropic-version", "2026-10-21").build());
            assertThat(answer.statusCode()).as(entry.getValue()).isEqualTo(400);
            assertThat(Api.json(answer).at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(Api.json(answer).at("/error/message").asText()).isEqualTo(entry.getValue());
            server.enqueue(FakeReply.text("ok"));
            assertThat(api.messages(body).statusCode()).as("2023-06-01 takes it: " + entry.getValue()).isEqualTo(200);
        }
        String emptyCitations = "{\"model\":\"claude-sonnet-5-5\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"引用なし\",\"citations\":[]}]}]}";
        server.enqueue(FakeReply.text("ok"));
        assertThat(api.send(api.request("/v1/messages", emptyCitations).setHeader("anthropic-version", "2026-10-21").build())
                .statusCode()).as("empty citations").isEqualTo(200);
        assertThat(server.pendingReplies()).isZero();
    }

    /**
     * The token counting endpoint takes the prompt (model, messages, system, tools, tool_choice, thinking, output_config
     * and a few more), not the messages call's generation fields: the API refuses each one it does not take, as it
     * refuses any unknown field ("max_tokens: Extra inputs are not permitted"), so a client that sends the messages body
     * to count_tokens as is must fail here as it would there. The same body is taken at /v1/messages.
     */
    @Test
    void countTokensRefusesTheMessagesCallsGenerationFieldsLikeTheRealApi() throws Exception {
        String prompt = "\"model\":\"claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"数えて\"}]";
        for (String field : java.util.List.of("\"max_tokens\":100", "\"stream\":false", "\"stop_sequences\":[\"END\"]",
                "\"temperature\":0.5", "\"top_p\":0.9", "\"top_k\":5", "\"metadata\":{\"user_id\":\"u1\"}",
                "\"service_tier\":\"auto\"", "\"container\":\"container_01\"")) {
            HttpResponse<String> refused = api.post("/v1/messages/count_tokens", "{" + field + "," + prompt + "}");
            String name = field.substring(1, field.indexOf('"', 1));
            assertThat(refused.statusCode()).as(name).isEqualTo(400);
            assertThat(Api.json(refused).at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(Api.json(refused).at("/error/message").asText()).isEqualTo(name + ": Extra inputs are not permitted");
        }
        String counted = "{" + prompt + ",\"system\":\"簡潔に\",\"tools\":[{\"name\":\"lookup\",\"input_schema\":{\"type\":\"object\"}}],"
                + "\"tool_choice\":{\"type\":\"auto\"},\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"low\"}}";
        assertThat(api.post("/v1/messages/count_tokens", counted).statusCode()).as("the prompt's own fields").isEqualTo(200);
    }

    @Test
    void countTokensIsValidatedToo() throws Exception {
        HttpResponse<String> response = api.post("/v1/messages/count_tokens", "{\"model\":\"m\",\"messages\":[]}");

        assertThat(response.statusCode()).isEqualTo(400);
    }
}
