package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageRepliesTest extends FakeServerTestBase {


    @Test
    void baseUrlIsLoopbackWithEphemeralPort() {
        assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
        assertThat(server.port()).isPositive();
    }

    @Test
    void textReplyIsAFullMessageObject() throws Exception {
        server.enqueue(FakeReply.text("hi"));

        HttpResponse<String> response = api.messages(Api.userRequest("hello", false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.headers().firstValue("request-id")).hasValue("req_fake_001");
        JsonNode message = Api.json(response);
        assertThat(message.path("id").asText()).isEqualTo("msg_fake_001");
        assertThat(message.path("type").asText()).isEqualTo("message");
        assertThat(message.path("role").asText()).isEqualTo("assistant");
        assertThat(message.path("model").asText()).isEqualTo("claude-test-1");
        assertThat(message.path("content").toString()).isEqualTo("[{\"type\":\"text\",\"text\":\"hi\"}]");
        assertThat(message.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(message.get("stop_sequence").isNull()).isTrue();
        JsonNode usage = message.path("usage");
        assertThat(usage.path("input_tokens").asInt()).isPositive();
        assertThat(usage.path("output_tokens").asInt()).isPositive();
        assertThat(usage.path("cache_creation_input_tokens").asInt()).isZero();
        assertThat(usage.path("cache_read_input_tokens").asInt()).isZero();
        assertThat(usage.path("cache_creation").path("ephemeral_5m_input_tokens").isInt()).isTrue();
        assertThat(usage.path("cache_creation").path("ephemeral_1h_input_tokens").isInt()).isTrue();
    }

    /**
     * The rate limits page: every response carries the organization's limits, what is left of them and when they are
     * full again ({@code anthropic-ratelimit-requests-*}, {@code -input-tokens-*}, {@code -output-tokens-*} and the
     * combined {@code -tokens-*}; {@code -limit}, {@code -remaining}, {@code -reset} in RFC 3339), so a client that reads
     * them (to pace itself, or for a 429's wait) finds them here, whole and streamed. A scripted error carries only
     * the headers its script gives, so a test decides what a 429 says about its limits.
     */
    @Test
    void aMessageCarriesTheRateLimitHeadersWholeAndStreamed() throws Exception {
        server.enqueue(FakeReply.text("一"), FakeReply.text("二"), FakeReply.rateLimited(java.time.Duration.ofSeconds(3)));
        for (boolean stream : new boolean[] {false, true}) {
            HttpResponse<String> response = api.messages(Api.userRequest("こんにちは", stream));
            assertThat(response.statusCode()).isEqualTo(200);
            java.util.Map<String, Long> limits = new java.util.HashMap<>();
            for (String limit : List.of("requests", "tokens", "input-tokens", "output-tokens")) {
                String prefix = "anthropic-ratelimit-" + limit + "-";
                long most = Long.parseLong(response.headers().firstValue(prefix + "limit").orElseThrow(() ->
                        new AssertionError("no " + prefix + "limit (stream " + stream + ")")));
                long left = Long.parseLong(response.headers().firstValue(prefix + "remaining").orElseThrow());
                assertThat(most).as(limit).isPositive();
                if (limit.equals("requests")) {
                    assertThat(left).as(limit).isEqualTo(most - 1);
                } else {
                    // what remains is rounded to the nearest thousand (the rate limits page): a request of a few
                    // tokens leaves the whole limit as far as the header tells
                    assertThat(left).as(limit).isEqualTo(most);
                }
                java.time.OffsetDateTime.parse(response.headers().firstValue(prefix + "reset").orElseThrow());
                limits.put(limit, most);
            }
            assertThat(limits.get("tokens")).as("input and output together")
                    .isEqualTo(limits.get("input-tokens") + limits.get("output-tokens"));
        }
        HttpResponse<String> limited = api.messages(Api.userRequest("もう一度", false));
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).hasValue("3");
        assertThat(limited.headers().map().keySet()).noneMatch(name -> name.startsWith("anthropic-ratelimit-"));
    }

    @Test
    void idsCountUpPerServer() throws Exception {
        server.enqueue(FakeReply.text("one"), FakeReply.text("two"));
        api.messages(Api.userRequest("a", false));
        JsonNode second = Api.json(api.messages(Api.userRequest("b", false)));
        assertThat(second.path("id").asText()).isEqualTo("msg_fake_002");

        try (FakeMessagesServer other = FakeMessagesServer.start()) {
            other.enqueue(FakeReply.text("x"));
            JsonNode first = Api.json(new Api(other).messages(Api.userRequest("c", false)));
            assertThat(first.path("id").asText()).isEqualTo("msg_fake_001");
            assertThat(other.port()).isNotEqualTo(server.port());
            assertThat(other.requestCount()).isEqualTo(1);
        }
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void severalBlocksWithScriptedCachedUsage() throws Exception {
        server.enqueue(FakeReply.message()
                .thinking("Let me look.", "sig_abc")
                .redactedThinking("opaque==")
                .text("I will read it.")
                .toolUse("toolu_01", "read_file", "{\"path\":\"a.txt\",\"lines\":[1,2]}")
                .usage(new FakeUsage(12, 34, 100, 200, 60, 40))
                .build());

        JsonNode message = Api.json(api.messages(Api.userRequest("go", false)));

        assertThat(message.path("stop_reason").asText()).isEqualTo("tool_use");
        JsonNode content = message.path("content");
        assertThat(content.get(0).toString())
                .isEqualTo("{\"type\":\"thinking\",\"thinking\":\"Let me look.\",\"signature\":\"sig_abc\"}");
        assertThat(content.get(1).toString()).isEqualTo("{\"type\":\"redacted_thinking\",\"data\":\"opaque==\"}");
        assertThat(content.get(2).path("text").asText()).isEqualTo("I will read it.");
        JsonNode toolUse = content.get(3);
        assertThat(toolUse.path("type").asText()).isEqualTo("tool_use");
        assertThat(toolUse.path("id").asText()).isEqualTo("toolu_01");
        assertThat(toolUse.path("name").asText()).isEqualTo("read_file");
        assertThat(toolUse.path("input").toString()).isEqualTo("{\"path\":\"a.txt\",\"lines\":[1,2]}");
        JsonNode usage = message.path("usage");
        assertThat(usage.path("input_tokens").asInt()).isEqualTo(12);
        assertThat(usage.path("output_tokens").asInt()).isEqualTo(34);
        assertThat(usage.path("cache_creation_input_tokens").asInt()).isEqualTo(100);
        assertThat(usage.path("cache_read_input_tokens").asInt()).isEqualTo(200);
        assertThat(usage.path("cache_creation").path("ephemeral_5m_input_tokens").asInt()).isEqualTo(60);
        assertThat(usage.path("cache_creation").path("ephemeral_1h_input_tokens").asInt()).isEqualTo(40);
    }

    @ParameterizedTest
    @ValueSource(strings = {"end_turn", "tool_use", "max_tokens", "pause_turn", "refusal", "model_context_window_exceeded"})
    void everyStopReasonIsSentAsScripted(String stopReason) throws Exception {
        server.enqueue(FakeReply.message().text("x").stopReason(stopReason).build());
        server.enqueue(FakeReply.message().text("x").stopReason(stopReason).build());

        assertThat(Api.json(api.messages(Api.userRequest("a", false))).path("stop_reason").asText())
                .isEqualTo(stopReason);
        List<Api.Event> events = Api.events(api.messages(Api.userRequest("a", true)).body());
        JsonNode delta = events.get(events.size() - 2).data().path("delta");
        assertThat(delta.path("stop_reason").asText()).isEqualTo(stopReason);
    }

    @Test
    void stopSequenceSetsReasonAndSequence() throws Exception {
        server.enqueue(FakeReply.message().text("1, 2,").stopSequence("3").build());
        JsonNode message = Api.json(api.messages(Api.userRequest("count", false)));
        assertThat(message.path("stop_reason").asText()).isEqualTo("stop_sequence");
        assertThat(message.path("stop_sequence").asText()).isEqualTo("3");
    }

    @Test
    void streamFollowsTheRealEventSequence() throws Exception {
        String input = "{\"path\":\"src/main/java/App.java\",\"options\":{\"recursive\":true,\"depth\":3}}";
        String text = "I will read the file for you now.";
        server.enqueue(FakeReply.message()
                .thinking("The user wants the file read.", "sig_xyz")
                .text(text)
                .toolUse("toolu_42", "read_file", input)
                .usage(new FakeUsage(50, 70, 10, 20, 10, 0))
                .build());

        HttpResponse<String> response = api.messages(Api.userRequest("read it", true));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(response.headers().firstValue("request-id")).isPresent();
        List<Api.Event> events = Api.events(response.body());
        for (Api.Event event : events) {
            assertThat(event.data().path("type").asText()).as("data type repeats the event name").isEqualTo(event.name());
        }
        String sequence = events.stream().map(this::describe).collect(Collectors.joining(" "));
        assertThat(sequence).matches("message_start"
                + " content_block_start:0:thinking ping (content_block_delta:0:thinking_delta )+"
                + "content_block_delta:0:signature_delta content_block_stop:0"
                + " content_block_start:1:text (content_block_delta:1:text_delta )+content_block_stop:1"
                + " content_block_start:2:tool_use (content_block_delta:2:input_json_delta ){3,}content_block_stop:2"
                + " message_delta message_stop");

        JsonNode start = events.get(0).data().path("message");
        assertThat(start.path("id").asText()).isEqualTo("msg_fake_001");
        assertThat(start.path("model").asText()).isEqualTo("claude-test-1");
        assertThat(start.path("role").asText()).isEqualTo("assistant");
        assertThat(start.path("content").isArray()).isTrue();
        assertThat(start.path("content")).isEmpty();
        assertThat(start.get("stop_reason").isNull()).isTrue();
        assertThat(start.path("usage").path("input_tokens").asInt()).isEqualTo(50);
        assertThat(start.path("usage").path("cache_read_input_tokens").asInt()).isEqualTo(20);

        JsonNode toolStart = events.stream()
                .filter(e -> e.name().equals("content_block_start") && e.data().path("index").asInt() == 2)
                .findFirst().orElseThrow().data().path("content_block");
        assertThat(toolStart.path("id").asText()).isEqualTo("toolu_42");
        assertThat(toolStart.path("name").asText()).isEqualTo("read_file");
        assertThat(toolStart.path("input").toString()).isEqualTo("{}");

        assertThat(join(events, 0, "thinking")).isEqualTo("The user wants the file read.");
        assertThat(join(events, 0, "signature")).isEqualTo("sig_xyz");
        assertThat(join(events, 1, "text")).isEqualTo(text);
        String partialJson = join(events, 2, "partial_json");
        assertThat(Json.MAPPER.readTree(partialJson)).isEqualTo(Json.MAPPER.readTree(input));

        JsonNode messageDelta = events.get(events.size() - 2).data();
        assertThat(messageDelta.path("delta").path("stop_reason").asText()).isEqualTo("tool_use");
        assertThat(messageDelta.path("delta").get("stop_sequence").isNull()).isTrue();
        assertThat(messageDelta.path("usage").path("output_tokens").asInt()).isEqualTo(70);
    }

    @Test
    void redactedThinkingIsSentWholeInItsStartEvent() throws Exception {
        server.enqueue(FakeReply.message().redactedThinking("secret==").text("ok").build());

        List<Api.Event> events = Api.events(api.messages(Api.userRequest("x", true)).body());

        assertThat(events.get(1).data().path("content_block").toString())
                .isEqualTo("{\"type\":\"redacted_thinking\",\"data\":\"secret==\"}");
        assertThat(events.get(2).name()).isEqualTo("ping");
        assertThat(events.get(3).name()).isEqualTo("content_block_stop");
    }

    @Test
    void aServerToolCallsInputIsStreamedAsInputJsonDeltasAndItsResultWhole() throws Exception {
        // The web search docs' streaming example: server_tool_use starts with an empty input and its query follows as
        // input_json_delta, as a tool_use's does; the search result comes whole in its start event.
        String input = "{\"query\":\"東京の天気 今日\"}";
        String result = "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_01\",\"content\":[]}";
        server.enqueue(FakeReply.message()
                .block(FakeBlock.serverSide("{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01\",\"name\":\"web_search\","
                        + "\"input\":" + input + ",\"caller\":{\"type\":\"direct\"}}"))
                .block(FakeBlock.serverSide(result)).text("晴れ").build());

        List<Api.Event> events = Api.events(api.messages(Api.userRequest("x", true)).body());

        assertThat(events.get(1).data().path("content_block").toString()).isEqualTo("{\"type\":\"server_tool_use\","
                + "\"id\":\"srvtoolu_01\",\"name\":\"web_search\",\"input\":{},\"caller\":{\"type\":\"direct\"}}");
        assertThat(events.stream().filter(e -> e.data().path("index").asInt(-1) == 0 && e.name().equals("content_block_delta"))
                .map(e -> e.data().path("delta").path("type").asText())).isNotEmpty().allMatch("input_json_delta"::equals);
        assertThat(Json.MAPPER.readTree(join(events, 0, "partial_json"))).isEqualTo(Json.MAPPER.readTree(input));
        Api.Event resultStart = events.stream().filter(e -> e.name().equals("content_block_start")
                && e.data().path("index").asInt() == 1).findFirst().orElseThrow();
        assertThat(resultStart.data().path("content_block")).isEqualTo(Json.MAPPER.readTree(result));
        assertThat(events.stream().filter(e -> e.data().path("index").asInt(-1) == 1 && e.name().equals("content_block_delta")))
                .isEmpty();
    }

    @Test
    void emptyContentStillStreamsAPing() throws Exception {
        server.enqueue(FakeReply.message().stopReason("max_tokens").build());

        List<Api.Event> events = Api.events(api.messages(Api.userRequest("x", true)).body());

        assertThat(events).extracting(Api.Event::name)
                .containsExactly("message_start", "ping", "message_delta", "message_stop");
    }

    @Test
    void textDeltasNeverSplitASurrogatePair() throws Exception {
        String text = "😀".repeat(40);
        server.enqueue(FakeReply.text(text));

        List<Api.Event> events = Api.events(api.messages(Api.userRequest("x", true)).body());

        assertThat(join(events, 0, "text")).isEqualTo(text);
        events.stream()
                .filter(e -> e.data().path("delta").path("type").asText().equals("text_delta"))
                .map(e -> e.data().path("delta").path("text").asText())
                .forEach(piece -> assertThat(piece.codePoints().allMatch(Character::isValidCodePoint)
                        && !Character.isHighSurrogate(piece.charAt(piece.length() - 1))).isTrue());
    }

    private String describe(Api.Event event) {
        JsonNode data = event.data();
        return switch (event.name()) {
            case "content_block_start" -> event.name() + ":" + data.path("index").asInt() + ":"
                    + data.path("content_block").path("type").asText();
            case "content_block_delta" -> event.name() + ":" + data.path("index").asInt() + ":"
                    + data.path("delta").path("type").asText();
            case "content_block_stop" -> event.name() + ":" + data.path("index").asInt();
            default -> event.name();
        };
    }

    /** Joins one field of all deltas of a block, as a client reassembles them. */
    private static String join(List<Api.Event> events, int index, String field) {
        return events.stream()
                .filter(e -> e.name().equals("content_block_delta") && e.data().path("index").asInt() == index)
                .map(e -> e.data().path("delta").path(field))
                .filter(JsonNode::isTextual)
                .map(JsonNode::asText)
                .collect(Collectors.joining());
    }
}
