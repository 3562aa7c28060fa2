package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.AnthropicIoException;
import com.anthropic.errors.AnthropicServiceException;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.InternalServerException;
import com.anthropic.errors.RateLimitException;
import com.anthropic.errors.SseException;
import com.anthropic.errors.UnauthorizedException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The official Java SDK, pointed at the fake server, must read everything the server writes, with
 * the SDK's strict response validation on: the fake is only useful if it is faithful to the wire.
 */
class SdkCompatibilityTest {

    private FakeMessagesServer server;
    private AnthropicClient client;

    @BeforeEach
    void start() {
        server = FakeMessagesServer.start();
        client = client(0);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private AnthropicClient client(int maxRetries) {
        return AnthropicOkHttpClient.builder()
                .baseUrl(server.baseUrl())
                .apiKey("sk-test")
                .maxRetries(maxRetries)
                .responseValidation(true)
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    /** {@code reply} as the SDK reads it whole and streamed (accumulated), in that order. */
    private List<Message> wholeAndStreamed(FakeReply.Message reply) {
        server.enqueue(reply, reply);
        Message whole = client.messages().create(params("x"));
        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params("x"))) {
            stream.stream().forEach(event -> accumulator.accumulate(event.validate()));
        }
        return List.of(whole, accumulator.message().validate());
    }

    private static MessageCreateParams params(String text) {
        return MessageCreateParams.builder().model("claude-test-1").maxTokens(256).addUserMessage(text).build();
    }

    @Test
    void readsAMessageWithEveryBlockKind() {
        server.enqueue(FakeReply.message()
                .thinking("Let me think.", "sig_1")
                .redactedThinking("opaque==")
                .text("Reading the file.")
                .toolUse("toolu_01", "read_file", "{\"path\":\"a.txt\"}")
                .usage(new FakeUsage(11, 22, 33, 44, 30, 3))
                .build());

        Message message = client.messages().create(params("read a.txt"));

        assertThat(message.id()).isEqualTo("msg_fake_001");
        assertThat(message.model().asString()).isEqualTo("claude-test-1");
        assertThat(message.stopReason()).contains(StopReason.TOOL_USE);
        List<ContentBlock> content = message.content();
        assertThat(content.get(0).asThinking().signature()).isEqualTo("sig_1");
        assertThat(content.get(1).asRedactedThinking().data()).isEqualTo("opaque==");
        assertThat(content.get(2).asText().text()).isEqualTo("Reading the file.");
        assertThat(content.get(3).asToolUse().id()).isEqualTo("toolu_01");
        assertThat(content.get(3).asToolUse()._input().convert(JsonNode.class))
                .isEqualTo(Json.MAPPER.valueToTree(Map.of("path", "a.txt")));
        assertThat(message.usage().inputTokens()).isEqualTo(11);
        assertThat(message.usage().outputTokens()).isEqualTo(22);
        assertThat(message.usage().cacheCreationInputTokens()).contains(33L);
        assertThat(message.usage().cacheReadInputTokens()).contains(44L);
        assertThat(message.usage().cacheCreation().orElseThrow().ephemeral5mInputTokens()).isEqualTo(30);
        assertThat(message.usage().cacheCreation().orElseThrow().ephemeral1hInputTokens()).isEqualTo(3);

        // SDK 3.14 sends the key as "Authorization: Bearer"; older versions and curl use x-api-key.
        RecordedRequest request = server.takeRequest();
        assertThat(request.header("authorization")).isEqualTo("Bearer sk-test");
        assertThat(request.header("anthropic-version")).isNotBlank();
    }

    @Test
    void everyStopReasonIsKnownToTheSdk() {
        for (String reason : List.of("end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal",
                "model_context_window_exceeded")) {
            server.enqueue(FakeReply.message().text("x").stopReason(reason).build());
            StopReason stopReason = client.messages().create(params("x")).stopReason().orElseThrow();
            assertThat(stopReason.known()).as(reason).isNotNull();
            assertThat(stopReason.asString()).isEqualTo(reason);
        }
    }

    @Test
    void aRefusalsStopDetailsAreReadByTheSdkWholeAndStreamed() {
        FakeReply.Message reply = FakeReply.message().text("お手伝い")
                .refusal("cyber", "This request was declined because it could enable cyber harm.").build();
        for (Message message : wholeAndStreamed(reply)) {
            assertThat(message.stopReason()).contains(StopReason.REFUSAL);
            assertThat(message.stopDetails().orElseThrow().category().orElseThrow().asString()).isEqualTo("cyber");
            assertThat(message.stopDetails().orElseThrow().explanation())
                    .contains("This request was declined because it could enable cyber harm.");
        }
    }

    @Test
    void theCodeExecutionContainerIsReadByTheSdkWholeAndStreamed() {
        FakeReply.Message reply = FakeReply.message().text("5.5")
                .container("container_011CPR5CNjB747bTd36fQLFk", "2026-12-05T01:13:31.749448Z").build();
        for (Message message : wholeAndStreamed(reply)) {
            assertThat(message.container().orElseThrow().id()).isEqualTo("container_011CPR5CNjB747bTd36fQLFk");
            assertThat(message.container().orElseThrow().expiresAt().getYear()).isEqualTo(2026);
        }
    }

    @Test
    void aCallFromCodeCarriesItsCallerWholeAndStreamedAsTheSdkReadsIt() {
        // Programmatic tool calling: the code execution tool's code called a client tool.
        FakeReply.Message reply = FakeReply.message()
                .toolUseFromCode("toolu_01", "query_database", "{\"sql\":\"SELECT 1\"}", "code_execution_20260120", "srvtoolu_01")
                .toolUse("toolu_02", "ask_user", "{}")
                .container("container_011CPR5CNjB747bTd36fQLFk", "2026-12-05T01:13:31.749448Z").build();
        for (Message message : wholeAndStreamed(reply)) {
            var fromCode = message.content().get(0).asToolUse().caller();
            assertThat(fromCode.isCodeExecution20260120()).isTrue();
            assertThat(fromCode.asCodeExecution20260120().toolId()).isEqualTo("srvtoolu_01");
            assertThat(message.content().get(1).asToolUse().caller().isDirect()).isTrue();
        }
    }

    /**
     * A web search answer's text carries its citations (with the encrypted_index the docs say to pass back): a pasted
     * response keeps them, whole as the block's citations, streamed as one citations_delta each, as the SDK reads both.
     */
    @Test
    void aTextBlocksCitationsAreKeptFromAScriptAndReadByTheSdkWholeAndStreamed() {
        String citation = "{\"type\":\"web_search_result_location\",\"url\":\"https://tenki.example.jp/\","
                + "\"title\":\"東京の天気\",\"encrypted_index\":\"Eo8BCioIAhgBIiQ\",\"cited_text\":\"東京は晴れ。\"}";
        FakeReply reply = FakeScript.parse("[{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"今日は\"},"
                + "{\"type\":\"text\",\"text\":\"晴れです\",\"citations\":[" + citation + "]}]}]").messages().get(0);
        for (Message message : wholeAndStreamed((FakeReply.Message) reply)) {
            assertThat(message.content().get(0).asText().citations()).as("no citations").isEmpty();
            assertThat(message.content().get(1).asText().text()).isEqualTo("晴れです");
            var cited = message.content().get(1).asText().citations().orElseThrow();
            assertThat(cited).hasSize(1);
            assertThat(cited.get(0).asWebSearchResultLocation().encryptedIndex()).isEqualTo("Eo8BCioIAhgBIiQ");
            assertThat(cited.get(0).asWebSearchResultLocation().citedText()).isEqualTo("東京は晴れ。");
        }
    }

    /**
     * The output spent thinking ({@code usage.output_tokens_details.thinking_tokens}, a part of {@code output_tokens}):
     * kept from a pasted response, sent on the message and, streamed, on {@code message_delta}, as the SDK reads both.
     */
    @Test
    void thinkingTokensAreKeptFromAScriptAndReadByTheSdkWholeAndStreamed() {
        FakeReply reply = FakeScript.parse("[{\"type\":\"message\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"考える\","
                + "\"signature\":\"sig\"},{\"type\":\"text\",\"text\":\"答え\"}],\"usage\":{\"input_tokens\":12,"
                + "\"output_tokens\":50,\"output_tokens_details\":{\"thinking_tokens\":30}}}]").messages().get(0);
        for (Message message : wholeAndStreamed((FakeReply.Message) reply)) {
            assertThat(message.usage().outputTokens()).isEqualTo(50);
            assertThat(message.usage().outputTokensDetails().orElseThrow().thinkingTokens()).isEqualTo(30);
        }
        FakeReply.Message scripted = FakeReply.message().text("答え").usage(FakeUsage.of(12, 50).withThinkingTokens(30)).build();
        for (Message message : wholeAndStreamed(scripted)) {
            assertThat(message.usage().outputTokensDetails().orElseThrow().thinkingTokens()).isEqualTo(30);
        }
    }

    @Test
    void serverToolUseCountsAreReadByTheSdkWholeAndStreamed() {
        FakeReply.Message reply = FakeReply.message().text("晴れです。")
                .usage(FakeUsage.of(20, 9).withServerToolUse("web_search_requests", 3)).build();
        for (Message message : wholeAndStreamed(reply)) {
            assertThat(message.usage().serverToolUse().orElseThrow().webSearchRequests()).isEqualTo(3);
        }
    }

    @Test
    void aServerToolCallIsReadByTheSdkWholeAndStreamed() {
        // The web search docs stream a server_tool_use as a tool_use is streamed: the start with an empty input, then
        // input_json_delta; the SDK's accumulator requires those deltas for a server tool call's input. (SDK 3.14's own
        // validation refuses every server_tool_use name, so this client reads without it.)
        FakeReply.Message reply = FakeReply.message()
                .block(FakeBlock.serverSide("{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01\",\"name\":\"web_search\","
                        + "\"input\":{\"query\":\"東京の天気\"},\"caller\":{\"type\":\"direct\"}}"))
                .block(FakeBlock.serverSide("{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":[]}"))
                .text("晴れです。").build();
        server.enqueue(reply, reply);
        AnthropicClient lenient = AnthropicOkHttpClient.builder().baseUrl(server.baseUrl()).apiKey("sk-test").maxRetries(0)
                .timeout(Duration.ofSeconds(10)).build();
        try {
            Message whole = lenient.messages().create(params("x"));
            MessageAccumulator accumulator = MessageAccumulator.create();
            try (StreamResponse<RawMessageStreamEvent> stream = lenient.messages().createStreaming(params("x"))) {
                stream.stream().forEach(accumulator::accumulate);
            }
            for (Message message : List.of(whole, accumulator.message())) {
                assertThat(message.content()).hasSize(3);
                assertThat(message.content().get(0).asServerToolUse()._input().convert(JsonNode.class))
                        .isEqualTo(Json.MAPPER.valueToTree(Map.of("query", "東京の天気")));
                assertThat(message.content().get(1).isWebSearchToolResult()).isTrue();
                assertThat(message.content().get(2).asText().text()).isEqualTo("晴れです。");
            }
        } finally {
            lenient.close();
        }
    }

    @Test
    void accumulatesAStreamIntoTheSameMessage() {
        FakeReply.Message reply = FakeReply.message()
                .thinking("The user wants a file read, so I call the tool.", "sig_stream")
                .redactedThinking("opaque==")
                .text("Let me read that file for you.")
                .toolUse("toolu_02", "read_file", "{\"path\":\"docs/README.md\",\"limit\":200}")
                .usage(FakeUsage.cached(15, 40, 100, 7))
                .build();
        server.enqueue(reply, reply);
        Message expected = client.messages().create(params("read it"));

        MessageAccumulator accumulator = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params("read it"))) {
            stream.stream().forEach(event -> accumulator.accumulate(event.validate()));
        }
        Message streamed = accumulator.message().validate();

        assertThat(streamed.content()).hasSize(4);
        assertThat(streamed.content().get(0).asThinking().thinking())
                .isEqualTo("The user wants a file read, so I call the tool.");
        assertThat(streamed.content().get(0).asThinking().signature()).isEqualTo("sig_stream");
        assertThat(streamed.content().get(1).asRedactedThinking().data()).isEqualTo("opaque==");
        assertThat(streamed.content().get(2).asText().text()).isEqualTo("Let me read that file for you.");
        assertThat(streamed.content().get(3).asToolUse()._input().convert(JsonNode.class))
                .isEqualTo(Json.MAPPER.valueToTree(Map.of("path", "docs/README.md", "limit", 200)));
        assertThat(streamed.stopReason()).contains(StopReason.TOOL_USE);
        assertThat(streamed.usage().inputTokens()).isEqualTo(expected.usage().inputTokens());
        assertThat(streamed.usage().outputTokens()).isEqualTo(40);
        assertThat(streamed.usage().cacheCreationInputTokens()).contains(100L);
        assertThat(streamed.usage().cacheReadInputTokens()).contains(7L);
        assertThat(streamed.model()).isEqualTo(expected.model());
        assertThat(server.requests().get(1).isStream()).isTrue();
    }

    @Test
    void errorsBecomeTheSdksTypedExceptions() {
        server.enqueue(FakeReply.rateLimited(Duration.ofSeconds(3)), FakeReply.error(ApiErrorType.AUTHENTICATION));

        assertThatThrownBy(() -> client.messages().create(params("x")))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(429);
                    assertThat(e.headers().values("retry-after")).containsExactly("3");
                    assertThat(e.requestId()).contains("req_fake_001");
                    assertThat(e.type().orElseThrow().asString()).isEqualTo("rate_limit_error");
                });
        assertThatThrownBy(() -> client.messages().create(params("x"))).isInstanceOf(UnauthorizedException.class);
    }

    @Test
    void overloadedIsA529ServiceException() {
        server.enqueue(FakeReply.overloaded());

        assertThatThrownBy(() -> client.messages().create(params("x")))
                .isInstanceOfSatisfying(AnthropicServiceException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(529);
                    assertThat(e.apiMessage()).contains("Overloaded");
                });
    }

    @Test
    void sdkRetriesFollowTheScriptedHeaders() {
        AnthropicClient retrying = client(2);
        try {
            server.enqueue(FakeReply.overloaded().withHeader("retry-after-ms", "10"), FakeReply.text("second try"));

            Message message = retrying.messages().create(params("x"));

            assertThat(message.content().get(0).asText().text()).isEqualTo("second try");
            assertThat(server.requestCount()).isEqualTo(2);
            assertThat(server.requests().get(1).header("x-stainless-retry-count")).isEqualTo("1");
        } finally {
            retrying.close();
        }
    }

    @Test
    void exhaustedScriptIsNotRetried() {
        AnthropicClient retrying = client(2);
        try {
            assertThatThrownBy(() -> retrying.messages().create(params("x")))
                    .isInstanceOf(InternalServerException.class)
                    .hasMessageContaining("script exhausted");
            assertThat(server.requestCount()).isEqualTo(1);
        } finally {
            retrying.close();
        }
    }

    @Test
    void errorEventInAStreamIsAnSseException() {
        server.enqueue(FakeReply.overloadedMidStream());

        assertThatThrownBy(() -> {
                    try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params("x"))) {
                        stream.stream().forEach(event -> {});
                    }
                })
                .isInstanceOfSatisfying(SseException.class, e -> assertThat(e.type().orElseThrow().asString())
                        .isEqualTo("overloaded_error"));
    }

    @Test
    void droppedConnectionIsAnIoException() {
        server.enqueue(FakeReply.disconnect(), FakeReply.disconnectMidStream(FakeReply.text("partial answer"), 4));

        assertThatThrownBy(() -> client.messages().create(params("x"))).isInstanceOf(AnthropicIoException.class);
        assertThatThrownBy(() -> {
                    try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(params("x"))) {
                        stream.stream().forEach(event -> {});
                    }
                })
                .isInstanceOf(AnthropicIoException.class);
    }

    @Test
    void malformedBodyIsAnSdkError() {
        server.enqueue(FakeReply.malformed());

        assertThatThrownBy(() -> client.messages().create(params("x")))
                .isInstanceOf(com.anthropic.errors.AnthropicException.class);
    }

    @Test
    void delayBeyondTheClientTimeoutTimesOut() {
        server.enqueue(FakeReply.delayed(Duration.ofSeconds(30), FakeReply.text("late")));

        AnthropicClient impatient = AnthropicOkHttpClient.builder()
                .baseUrl(server.baseUrl())
                .apiKey("sk-test")
                .maxRetries(0)
                .timeout(Duration.ofMillis(300))
                .build();
        try {
            assertThatThrownBy(() -> impatient.messages().create(params("x"))).isInstanceOf(AnthropicIoException.class);
        } finally {
            impatient.close();
        }
    }

    @Test
    void toolRoundTripPassesValidationAndAWrongIdDoesNot() {
        server.enqueue(FakeReply.toolUse("toolu_07", "read_file", "{\"path\":\"a.txt\"}"), FakeReply.text("Done."));
        Message toolCall = client.messages().create(params("read a.txt"));

        MessageCreateParams.Builder next = MessageCreateParams.builder()
                .model("claude-test-1")
                .maxTokens(256)
                .addUserMessage("read a.txt")
                .addMessage(toolCall);
        Message answer = client.messages().create(next.addUserMessageOfContentBlockParams(List.of(toolResult("toolu_07")))
                .build());
        assertThat(answer.content().get(0).asText().text()).isEqualTo("Done.");
        assertThat(server.lastRequest().body().at("/messages/1/content/0/type").asText()).isEqualTo("tool_use");

        MessageCreateParams wrong = MessageCreateParams.builder()
                .model("claude-test-1")
                .maxTokens(256)
                .addUserMessage("read a.txt")
                .addMessage(toolCall)
                .addUserMessageOfContentBlockParams(List.of(toolResult("toolu_08")))
                .build();
        assertThatThrownBy(() -> client.messages().create(wrong))
                .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.apiMessage().orElseThrow())
                        .contains("`tool_use` ids were found without `tool_result` blocks"));
    }

    @Test
    void countsTokens() {
        server.enqueueCountTokens(FakeReply.tokenCount(321));
        MessageCountTokensParams params =
                MessageCountTokensParams.builder().model("claude-test-1").addUserMessage("x").build();

        assertThat(client.messages().countTokens(params).inputTokens()).isEqualTo(321);
        assertThat(client.messages().countTokens(params).inputTokens()).isPositive();
        assertThat(server.lastRequest().path()).isEqualTo("/v1/messages/count_tokens");
    }

    private static ContentBlockParam toolResult(String id) {
        return ContentBlockParam.ofToolResult(
                ToolResultBlockParam.builder().toolUseId(id).content("file contents").build());
    }
}
