package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelResponse;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.FakeUsage;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Replies of the fake Messages API, streamed, mapped to Rein's blocks, stop reasons and usage. */
class ResponseMappingTest extends FakeApi {

    @Test
    void everyBlockTypeIsMappedWithItsFields() throws Exception {
        server.enqueue(FakeReply.message()
                .thinking("考えています", "sig_abc")
                .redactedThinking("ENCRYPTED==")
                .text("日本語のテキスト")
                .toolUse("toolu_01", "search", "{\"q\":\"東京\",\"n\":3,\"deep\":{\"x\":[1,2]}}")
                .build());

        ModelResponse response = call(request("hi"));

        assertThat(response.content()).containsExactly(
                new ThinkingBlock("考えています", "sig_abc"),
                new RedactedThinkingBlock("ENCRYPTED=="),
                new TextBlock("日本語のテキスト"),
                new ToolUseBlock("toolu_01", "search", Json.parse("{\"q\":\"東京\",\"n\":3,\"deep\":{\"x\":[1,2]}}")));
        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.model()).isEqualTo("claude-test");
        assertThat(response.id()).startsWith("msg_fake_");
    }

    @ParameterizedTest
    @CsvSource({
            "end_turn, END_TURN",
            "tool_use, TOOL_USE",
            "max_tokens, MAX_TOKENS",
            "stop_sequence, STOP_SEQUENCE",
            "pause_turn, PAUSE_TURN",
            "refusal, REFUSAL",
            "model_context_window_exceeded, MODEL_CONTEXT_WINDOW_EXCEEDED",
            "something_new_2027, UNKNOWN"})
    void everyStopReasonIsMapped(String wire, StopReason expected) throws Exception {
        server.enqueue(FakeReply.message().text("x").stopReason(wire).build());
        ModelResponse response = call(request("hi"));
        assertThat(response.stopReason()).isEqualTo(expected);
        // the stop_reason as sent, which UNKNOWN alone would not tell
        assertThat(response.providerStopReason()).isEqualTo(wire);
    }

    @Test
    void stopSequenceIsReported() throws Exception {
        server.enqueue(FakeReply.message().text("x").stopSequence("END").build());
        ModelResponse response = call(request("hi").stopSequences(List.of("END")));
        assertThat(response.stopReason()).isEqualTo(StopReason.STOP_SEQUENCE);
        assertThat(response.stopSequence()).isEqualTo("END");
        assertThat(lastBody().get("stop_sequences")).isEqualTo(Json.parse("[\"END\"]"));
    }

    @Test
    void cacheWritesAreSplitByLifetimeWhenTheApiReportsTheSplit() throws Exception {
        server.enqueue(FakeReply.message().text("x").usage(new FakeUsage(11, 7, 300, 50, 100, 200)).build());
        assertThat(call(request("hi")).usage()).isEqualTo(Usage.of(11, 7, 50, 300).withCacheWriteDetail("1h", 200));
    }

    /** Probe: the fake's thinking tokens (message_delta's output_tokens_details) reach the usage as reasoning tokens. */
    @Test
    void thinkingTokensFromTheFakesMessageDeltaAreTheReasoningOutputTokens() throws Exception {
        server.enqueue(FakeReply.message().thinking("考える", "sig").text("答え")
                .usage(FakeUsage.of(12, 50).withThinkingTokens(30)).build());
        Usage usage = call(request("hi")).usage();
        assertThat(usage.outputTokens()).isEqualTo(50);
        assertThat(usage.reasoningOutputTokens()).isEqualTo(30);
    }

    @Test
    void aCacheWriteTotalWithoutSplitCountsAsFiveMinuteWrites() throws Exception {
        String stream = new Sse()
                .messageStart("{\"input_tokens\":9,\"output_tokens\":1,\"cache_creation_input_tokens\":120,"
                        + "\"cache_read_input_tokens\":30}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"ok\"}")
                .end("end_turn", "{\"output_tokens\":4}")
                .build();
        server.enqueue(FakeReply.malformed(stream));
        ModelResponse response = call(request("hi"));
        assertThat(response.usage()).isEqualTo(Usage.of(9, 4, 30, 120));
        assertThat(response.text()).isEqualTo("ok");
    }

    @Test
    void cumulativeCacheWritesInMessageDeltaBeyondTheSplitOfMessageStartAreCounted() throws Exception {
        // message_delta's counts are cumulative (a server tool loop wrote more to the cache after
        // message_start) and carry no per-lifetime split: the writes the start's split does not
        // cover still count, as 5-minute writes.
        String stream = new Sse()
                .messageStart("{\"input_tokens\":9,\"output_tokens\":1,\"cache_creation_input_tokens\":100,"
                        + "\"cache_read_input_tokens\":0,\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,"
                        + "\"ephemeral_1h_input_tokens\":100}}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"ok\"}")
                .end("end_turn", "{\"input_tokens\":9,\"output_tokens\":20,\"cache_creation_input_tokens\":400,"
                        + "\"cache_read_input_tokens\":0}")
                .build();
        server.enqueue(FakeReply.malformed(stream));
        assertThat(call(request("hi")).usage()).isEqualTo(Usage.of(9, 20, 0, 400).withCacheWriteDetail("1h", 100));
    }

    @Test
    void aStreamWithoutAnyUsageIsMarkedNotReportedNotZero() throws Exception {
        // A gateway at the base URL may leave usage out; the model SPI says such a response carries
        // no usage (Usage.NOT_REPORTED), never a report of zero tokens, so the run charges an estimate.
        String stream = new Sse()
                .event("message_start", "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_raw\",\"type\":\"message\","
                        + "\"role\":\"assistant\",\"model\":\"claude-test\",\"content\":[],\"stop_reason\":null}}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"はい\"}")
                .event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}")
                .event("message_stop", "{\"type\":\"message_stop\"}")
                .build();
        server.enqueue(FakeReply.malformed(stream));
        ModelResponse response = call(request("hi"));
        assertThat(response.text()).isEqualTo("はい");
        assertThat(response.usage().notReported()).isTrue();
    }

    @Test
    void aStreamWhoseMessageDeltaHasNoUsageHasItsOutputEstimatedNotTakenAsOneToken() throws Exception {
        // message_start's output_tokens is a placeholder (1); the output count comes with message_delta,
        // cumulative. Without it the output is not reported: the input stays as reported, the output is
        // Rein's estimate from the content, marked estimated, so the output and money limits still bind.
        String text = "晴れのち曇り。".repeat(100);
        String stream = new Sse()
                .messageStart("{\"input_tokens\":40,\"cache_read_input_tokens\":7,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"" + text + "\"}")
                .event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}")
                .event("message_stop", "{\"type\":\"message_stop\"}")
                .build();
        server.enqueue(FakeReply.malformed(stream));
        ModelResponse response = call(request("hi"));
        assertThat(response.text()).isEqualTo(text);
        assertThat(response.usage().inputTokens()).isEqualTo(40);
        assertThat(response.usage().cacheReadInputTokens()).isEqualTo(7);
        assertThat(response.usage().outputTokens()).isEqualTo(dev.rein.context.TokenEstimator.estimate(response.content()));
        assertThat(response.usage().estimated()).isTrue();
    }

    @Test
    void aMessageDeltaWhoseUsageHasNoOutputCountStillHasItsOutputEstimatedNotTakenAsOneToken() throws Exception {
        // A usage object without output_tokens (a gateway that sends only the input on message_delta) reports no output:
        // message_start's placeholder (1) must not become the count.
        String text = "晴れのち曇り。".repeat(100);
        String stream = new Sse()
                .messageStart("{\"input_tokens\":40,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"" + text + "\"}")
                .end("end_turn", "{\"input_tokens\":40,\"cache_read_input_tokens\":7}")
                .build();
        server.enqueue(FakeReply.malformed(stream));
        ModelResponse response = call(request("hi"));
        assertThat(response.usage().inputTokens()).isEqualTo(40);
        assertThat(response.usage().cacheReadInputTokens()).isEqualTo(7);
        assertThat(response.usage().outputTokens()).isEqualTo(dev.rein.context.TokenEstimator.estimate(response.content()));
        assertThat(response.usage().estimated()).isTrue();
    }

    @Test
    void theServiceTierThatServedTheCallIsOnTheResponseForItsPriceButNotTheStandardOne() throws Exception {
        // usage.service_tier: the tier the API served the request at (standard, priority or batch), which the run
        // prices the call by; message_start carries it, and the standard tier is the base price, named as none.
        for (String tier : List.of("priority", "standard")) {
            server.enqueue(FakeReply.malformed(new Sse()
                    .messageStart("{\"input_tokens\":5,\"output_tokens\":1,\"service_tier\":\"" + tier + "\"}")
                    .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"ok\"}")
                    .end("end_turn", "{\"output_tokens\":2}")
                    .build()));
            ModelResponse response = call(request("hi"));
            assertThat(response.serviceTier()).as(tier).isEqualTo(tier.equals("standard") ? null : tier);
            assertThat(response.providerServiceTier()).as(tier).isEqualTo(tier); // as the API named it, for telemetry
        }
        server.enqueue(FakeReply.text("no tier"));
        assertThat(call(request("hi")).serviceTier()).isNull();
    }

    @Test
    void serverCompactionsOwnSamplingIsCountedThoughTheTopLevelUsageLeavesItOut() throws Exception {
        // The compaction docs ("Understanding usage"): the top-level input_tokens and output_tokens "do not include
        // compaction iteration usage"; the total billed is the sum over usage.iterations. A 'message' iteration is in
        // the top-level counts already.
        String iterations = "\"iterations\":[{\"type\":\"compaction\",\"input_tokens\":180000,\"output_tokens\":3500,"
                + "\"cache_read_input_tokens\":1000,\"cache_creation_input_tokens\":200,\"cache_creation\":"
                + "{\"ephemeral_5m_input_tokens\":0,\"ephemeral_1h_input_tokens\":200}},"
                + "{\"type\":\"message\",\"input_tokens\":23000,\"output_tokens\":1000}]";
        server.enqueue(FakeReply.malformed(new Sse()
                .messageStart("{\"input_tokens\":23000,\"output_tokens\":1}")
                .block(0, "{\"type\":\"compaction\",\"content\":null}",
                        "{\"type\":\"compaction_delta\",\"content\":\"Summary.\"}")
                .block(1, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"ok\"}")
                .end("end_turn", "{\"input_tokens\":23000,\"output_tokens\":1000," + iterations + "}")
                .build()));
        Usage streamed = call(request("hi")).usage();
        assertThat(streamed.inputTokens()).isEqualTo(203_000);
        assertThat(streamed.outputTokens()).isEqualTo(4_500);
        assertThat(streamed.cacheReadInputTokens()).isEqualTo(1_000);
        assertThat(streamed.cacheWriteInputTokens()).isEqualTo(200);
        assertThat(streamed.cacheWriteDetail()).containsEntry(ResponseMapper.WRITE_1H, 200L);
        // a whole message's usage is read the same way; without a compaction the iterations add nothing
        Usage whole = ResponseMapper.usage(Json.mapper().readTree("{\"input_tokens\":23000,\"output_tokens\":1000,"
                + iterations + "}"), List.of());
        assertThat(whole.inputTokens()).isEqualTo(203_000);
        assertThat(whole.outputTokens()).isEqualTo(4_500);
        assertThat(ResponseMapper.usage(Json.mapper().readTree("{\"input_tokens\":23000,\"output_tokens\":1000,"
                + "\"iterations\":[{\"type\":\"message\",\"input_tokens\":23000,\"output_tokens\":1000}]}"), List.of()))
                .isEqualTo(Usage.of(23_000, 1_000, 0, 0));
    }

    @Test
    void unknownBlocksBecomeOpaqueAndAreSentBackVerbatim() throws Exception {
        String serverToolUse = "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}";
        String searchResult = "{\"type\":\"web_search_tool_result\",\"tool_use_id\":\"srvtoolu_1\",\"content\":"
                + "[{\"type\":\"web_search_result\",\"url\":\"https://example.com\",\"title\":\"例\","
                + "\"encrypted_content\":\"EC1\",\"page_age\":null}]}";
        String stream = new Sse()
                .messageStart("{\"input_tokens\":5,\"output_tokens\":1}")
                .block(0, "{\"type\":\"compaction\",\"content\":null}",
                        "{\"type\":\"compaction_delta\",\"content\":\"Summary of the earlier turns.\"}")
                .block(1, serverToolUse, "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"query\\\": \"}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"rein\\\"}\"}")
                .block(2, searchResult)
                .block(3, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"Found it.\"}")
                .end("end_turn", "{\"output_tokens\":9}")
                .build();
        server.enqueue(FakeReply.malformed(stream), FakeReply.text("next"));

        ModelResponse response = call(request("search"));

        assertThat(response.content()).hasSize(4);
        OpaqueBlock compaction = (OpaqueBlock) response.content().get(0);
        assertThat(compaction.type()).isEqualTo("compaction");
        assertThat(compaction.json()).isEqualTo(Json.parse(
                "{\"type\":\"compaction\",\"content\":\"Summary of the earlier turns.\"}"));
        OpaqueBlock toolUse = (OpaqueBlock) response.content().get(1);
        assertThat(toolUse.json().get("input")).isEqualTo(Json.parse("{\"query\":\"rein\"}"));
        assertThat(((OpaqueBlock) response.content().get(2)).json()).isEqualTo(Json.parse(searchResult));
        assertThat(response.text()).isEqualTo("Found it.");

        call(request("search").addMessage(response.toHistoryMessage().orElseThrow()).addMessage(Message.user("thanks")));
        JsonNode echoed = lastBody().at("/messages/1/content");
        assertThat(echoed.get(0)).isEqualTo(compaction.json());
        assertThat(echoed.get(1)).isEqualTo(toolUse.json());
        assertThat(echoed.get(2)).isEqualTo(Json.parse(searchResult));
    }

    @Test
    void historyBlocksAreSentInTheApiShapeWithThinkingUnchanged() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        Message assistant = Message.assistant(List.of(
                new ThinkingBlock("思考", "sig/+=="),
                new RedactedThinkingBlock("REDACTED=="),
                new TextBlock("calling"),
                new ToolUseBlock("toolu_9", "search", Json.parse("{\"q\":\"é\",\"n\":[1,{\"a\":null}]}"))));
        Message results = Message.user(List.of(new ToolResultBlock("toolu_9", "失敗しました", true)));

        call(request("go").tools(List.of(tool("search"))).addMessage(assistant).addMessage(results));

        JsonNode messages = lastBody().get("messages");
        assertThat(messages.get(1)).isEqualTo(Json.parse("{\"role\":\"assistant\",\"content\":["
                + "{\"type\":\"thinking\",\"thinking\":\"思考\",\"signature\":\"sig/+==\"},"
                + "{\"type\":\"redacted_thinking\",\"data\":\"REDACTED==\"},"
                + "{\"type\":\"text\",\"text\":\"calling\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"search\",\"input\":{\"q\":\"é\",\"n\":[1,{\"a\":null}]}}]}"));
        assertThat(messages.get(2)).isEqualTo(Json.parse("{\"role\":\"user\",\"content\":["
                + "{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_9\",\"content\":\"失敗しました\",\"is_error\":true}]}"));
    }
}
