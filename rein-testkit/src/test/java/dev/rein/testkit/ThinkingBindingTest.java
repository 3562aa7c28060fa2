package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The prefix check of preserved thinking, as the fake server plays it: a block sent back is refused when what came
 * before it changed, and also when a thinking block between others of its turn was omitted or moved ("Prefix checks
 * on thinking blocks"); {@code drop_block} with the beta lets the request through.
 */
class ThinkingBindingTest extends FakeServerTestBase {
    private static final String FIRST = """
            {"model":"claude-opus-5-5","max_tokens":2000,"system":"注文係","tools":[{"name":"lookup","input_schema":{"type":"object"}}],
             "messages":[{"role":"user","content":[{"type":"text","text":"A-1 と A-2 は?","cache_control":{"type":"ephemeral"}}]}]}""";

    /** The second request, with the first response's assistant turn as {@code turn}. */
    private static String second(String turn, String extra) {
        return """
                {"model":"claude-opus-5-5","max_tokens":2000,%s"system":"注文係","tools":[{"name":"lookup","input_schema":{"type":"object"}}],
                 "messages":[{"role":"user","content":[{"type":"text","text":"A-1 と A-2 は?"}]},
                  {"role":"assistant","content":%s},
                  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"発送済み"}]}]}"""
                .formatted(extra, turn);
    }

    private static final String A = "{\"type\":\"thinking\",\"thinking\":\"まず A-1\",\"signature\":\"sig_a\"}";
    private static final String B = "{\"type\":\"thinking\",\"thinking\":\"次に A-2\",\"signature\":\"sig_b\"}";
    private static final String TEXT = "{\"type\":\"text\",\"text\":\"調べます\"}";
    private static final String USE = "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"lookup\",\"input\":{}}";

    private void firstTurn() throws Exception {
        server.enqueue(FakeReply.message().thinking("まず A-1", "sig_a").text("調べます").thinking("次に A-2", "sig_b")
                .toolUse("toolu_1", "lookup", "{}").build());
        assertThat(api.messages(FIRST).statusCode()).isEqualTo(200);
    }

    private static void assertBound(HttpResponse<String> response, String where) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/message").asText()).isEqualTo(where + ": Invalid `signature` in `thinking` block."
                + " The block is bound to a different conversation. Remove the block, or set"
                + " `thinking.block_binding.prefix_mismatch_behavior` to \"drop_block\".");
    }

    /** A dated id of a model with preserved thinking binds its thinking as the undated name does. */
    @Test
    void aDatedIdOfAModelThatBindsItsThinkingIsCheckedToo() throws Exception {
        String dated = "\"model\":\"claude-opus-5-5-20261015\"";
        server.enqueue(FakeReply.message().thinking("まず A-1", "sig_a").text("調べます").thinking("次に A-2", "sig_b")
                .toolUse("toolu_1", "lookup", "{}").build());
        assertThat(api.messages(FIRST.replace("\"model\":\"claude-opus-5-5\"", dated)).statusCode()).isEqualTo(200);
        assertBound(api.messages(second("[" + TEXT + "," + B + "," + USE + "]", "").replace("\"model\":\"claude-opus-5-5\"", dated)),
                "messages.1.content.1");
    }

    @Test
    void theTurnSentBackAsItCameIsTaken() throws Exception {
        firstTurn();
        server.enqueue(FakeReply.text("発送済みです"));
        assertThat(api.messages(second("[" + A + "," + TEXT + "," + B + "," + USE + "]", "")).statusCode()).isEqualTo(200);
    }

    @Test
    void aThinkingBlockBeforeAnotherLeftOutIsRefused() throws Exception {
        firstTurn();
        assertBound(api.messages(second("[" + TEXT + "," + B + "," + USE + "]", "")), "messages.1.content.1");
    }

    @Test
    void thinkingBlocksOfATurnSwappedAreRefused() throws Exception {
        firstTurn();
        assertBound(api.messages(second("[" + B + "," + TEXT + "," + A + "," + USE + "]", "")), "messages.1.content.0");
    }

    @Test
    void aChangedEarlierMessageIsRefusedAndDropBlockWithTheBetaLetsItThrough() throws Exception {
        firstTurn();
        String changed = second("[" + A + "," + TEXT + "," + B + "," + USE + "]", "").replace("A-1 と A-2 は?\"}", "A-1 は?\"}");
        assertBound(api.messages(changed), "messages.1.content.0");
        server.enqueue(FakeReply.text("発送済みです"));
        String dropping = second("[" + TEXT + "," + B + "," + USE + "]",
                "\"thinking\":{\"type\":\"adaptive\",\"block_binding\":{\"prefix_mismatch_behavior\":\"drop_block\"}},");
        HttpResponse<String> response = api.send(api.request("/v1/messages", dropping)
                .header("anthropic-beta", "thinking-binding-controls-2026-08-01").build());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }
}
