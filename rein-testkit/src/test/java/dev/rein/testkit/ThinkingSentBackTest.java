package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * A thinking block sent back must be the block the model made, on every model (the extended thinking docs,
 * "Preserving thinking blocks": the complete unmodified block; its signature verifies it): one whose text changed is
 * refused with 400 "Invalid `signature` in `thinking` block", whether or not the model binds its thinking to a prefix.
 */
class ThinkingSentBackTest extends FakeServerTestBase {

    private static String first(String model) {
        return """
                {"model":"%s","max_tokens":4000,"thinking":%s,
                 "tools":[{"name":"lookup","input_schema":{"type":"object"}}],
                 "messages":[{"role":"user","content":"A-1 は?"}]}""".formatted(model, thinking(model));
    }

    private static String second(String model, String thinking) {
        return """
                {"model":"%s","max_tokens":4000,"thinking":%s,
                 "tools":[{"name":"lookup","input_schema":{"type":"object"}}],
                 "messages":[{"role":"user","content":"A-1 は?"},
                  {"role":"assistant","content":[{"type":"thinking","thinking":"%s","signature":"sig_a"},
                   {"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"発送済み"}]}]}"""
                .formatted(model, thinking(model), thinking);
    }

    /** Thinking as the model takes it: the newest refuse a budget. */
    private static String thinking(String model) {
        return model.equals("claude-opus-5-5") ? "{\"type\":\"adaptive\"}" : "{\"type\":\"enabled\",\"budget_tokens\":2000}";
    }

    private void firstTurn(String model) throws Exception {
        server.enqueue(FakeReply.message().thinking("まず A-1 を調べる", "sig_a").toolUse("toolu_1", "lookup", "{}").build());
        assertThat(api.messages(first(model)).statusCode()).isEqualTo(200);
    }

    private static void assertInvalidSignature(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(response).at("/error/message").asText())
                .isEqualTo("messages.1.content.0: Invalid `signature` in `thinking` block");
    }

    @Test
    void aThinkingBlockSentBackUnchangedIsTaken() throws Exception {
        firstTurn("claude-sonnet-4-5");
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(second("claude-sonnet-4-5", "まず A-1 を調べる"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void aThinkingBlockWhoseTextChangedIsRefusedOnAModelWithoutPreservedThinking() throws Exception {
        firstTurn("claude-sonnet-4-5");
        assertInvalidSignature(api.messages(second("claude-sonnet-4-5", "まず A-2 を調べる")));
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void aThinkingBlockWhoseTextChangedIsRefusedOnAModelWithPreservedThinkingToo() throws Exception {
        // Its prefix is unchanged, so the prefix check has nothing to say: the block itself was altered.
        firstTurn("claude-opus-5-5");
        assertInvalidSignature(api.messages(second("claude-opus-5-5", "まず A-2 を調べる")));
    }

    @Test
    void aHistoryWrittenByHandIsLeftAlone() throws Exception {
        // A signature this server never made: it cannot know the block, so it takes it.
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(second("claude-sonnet-4-5", "手書き").replace("sig_a", "sig_other"));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    private String twoBlocksSentBack(String blocks) {
        return """
                {"model":"claude-sonnet-4-5","max_tokens":4000,"thinking":{"type":"enabled","budget_tokens":2000},
                 "tools":[{"name":"lookup","input_schema":{"type":"object"}}],
                 "messages":[{"role":"user","content":"A-1 は?"},
                  {"role":"assistant","content":[%s,
                   {"type":"tool_use","id":"toolu_1","name":"lookup","input":{}}]},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"発送済み"}]}]}"""
                .formatted(blocks);
    }

    private static final String FIRST = "{\"type\":\"thinking\",\"thinking\":\"まず A-1\",\"signature\":\"sig\"}";
    private static final String SECOND = "{\"type\":\"redacted_thinking\",\"data\":\"EmwKAhgB\"}";
    private static final String THIRD = "{\"type\":\"thinking\",\"thinking\":\"次に在庫\",\"signature\":\"sig\"}";

    private void threeBlocksMade() throws Exception {
        // One signature for two blocks, as scripts often give: the blocks are told apart by their text.
        server.enqueue(FakeReply.message().thinking("まず A-1", "sig").redactedThinking("EmwKAhgB").thinking("次に在庫", "sig")
                .toolUse("toolu_1", "lookup", "{}").build());
        assertThat(api.messages(first("claude-sonnet-4-5")).statusCode()).isEqualTo(200);
    }

    @Test
    void theThinkingBlocksOfATurnSentBackInTheirOrderAreTaken() throws Exception {
        threeBlocksMade();
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(twoBlocksSentBack(FIRST + "," + SECOND + "," + THIRD));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    @Test
    void thinkingBlocksOfATurnMovedAreRefusedOnAModelWithoutPreservedThinking() throws Exception {
        threeBlocksMade();
        HttpResponse<String> response = api.messages(twoBlocksSentBack(FIRST + "," + THIRD + "," + SECOND));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText())
                .isEqualTo("messages.1.content.1: Invalid `signature` in `thinking` block");
    }

    @Test
    void aThinkingBlockOfATurnLeftOutIsRefusedOnAModelWithoutPreservedThinking() throws Exception {
        threeBlocksMade();
        HttpResponse<String> response = api.messages(twoBlocksSentBack(FIRST + "," + THIRD));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText())
                .isEqualTo("messages.1.content.1: Invalid `signature` in `thinking` block");
    }

    @Test
    void aBlockMadeInTwoPlacesIsTakenInEither() throws Exception {
        // A script that repeats a block in another turn, after other thinking: both places are the model's.
        threeBlocksMade();
        server.enqueue(FakeReply.message().thinking("次に在庫", "sig").toolUse("toolu_1", "lookup", "{}").build());
        assertThat(api.messages(first("claude-sonnet-4-5")).statusCode()).isEqualTo(200);
        server.enqueue(FakeReply.text("発送済みです"));
        HttpResponse<String> response = api.messages(twoBlocksSentBack(THIRD));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }
}
