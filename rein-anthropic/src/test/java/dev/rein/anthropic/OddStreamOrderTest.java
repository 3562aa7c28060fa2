package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Streams whose events come in an order the API's own server does not use but the streaming docs
 * allow a client to see (each event names its block by {@code index}): blocks interleaved, started
 * out of index order, a ping before anything, message_delta before the last block stops. The
 * message is assembled by index, intact, with Japanese text split across the interleaving.
 */
class OddStreamOrderTest extends FakeApi {

    private static String start(int index, String block) {
        return "{\"type\":\"content_block_start\",\"index\":" + index + ",\"content_block\":" + block + "}";
    }

    private static String delta(int index, String delta) {
        return "{\"type\":\"content_block_delta\",\"index\":" + index + ",\"delta\":" + delta + "}";
    }

    private static String stop(int index) {
        return "{\"type\":\"content_block_stop\",\"index\":" + index + "}";
    }

    @Test
    void interleavedAndOutOfOrderBlocksAreAssembledByIndex() throws Exception {
        String stream = new Sse()
                .event("ping", "{\"type\":\"ping\"}")
                .messageStart("{\"input_tokens\":20,\"output_tokens\":1}")
                .event("content_block_start", start(1, "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"search\",\"input\":{}}"))
                .event("content_block_start", start(0, "{\"type\":\"text\",\"text\":\"\"}"))
                .event("content_block_delta", delta(1, "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"q\\\": \\\"東\"}"))
                .event("content_block_delta", delta(0, "{\"type\":\"text_delta\",\"text\":\"天気を\"}"))
                .event("content_block_delta", delta(1, "{\"type\":\"input_json_delta\",\"partial_json\":\"京の天気\\\"}\"}"))
                .event("content_block_delta", delta(0, "{\"type\":\"text_delta\",\"text\":\"調べます。\"}"))
                .event("content_block_stop", stop(0))
                .event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},"
                        + "\"usage\":{\"output_tokens\":30}}")
                .event("content_block_stop", stop(1))
                .event("message_stop", "{\"type\":\"message_stop\"}")
                .build();
        server.enqueue(FakeReply.malformed(stream));

        ModelResponse response = call(request("東京の天気は？").tools(List.of(tool("search"))));

        assertThat(response.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(response.content()).hasSize(2);
        assertThat(response.content().get(0)).isEqualTo(new TextBlock("天気を調べます。"));
        assertThat(response.content().get(1)).isInstanceOfSatisfying(ToolUseBlock.class, use -> {
            assertThat(use.id()).isEqualTo("toolu_1");
            assertThat(use.input()).isEqualTo(Json.parse("{\"q\":\"東京の天気\"}"));
        });
        assertThat(response.usage().outputTokens()).isEqualTo(30);
        assertThat(response.usage().inputTokens()).isEqualTo(20);
    }
}
