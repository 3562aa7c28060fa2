package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ModelResponse;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/** Every call streams: fragments reach the observer as they arrive and add up to the final message. */
class StreamingTest extends FakeApi {

    @Test
    void everyCallIsAStreamingRequest() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi"));
        assertThat(last().isStream()).isTrue();
        assertThat(last().path()).isEqualTo("/v1/messages");
        // The documented x-api-key header, and no bearer token next to it.
        assertThat(last().header("x-api-key")).isEqualTo("test-key");
        assertThat(last().header("authorization")).isNull();
        assertThat(last().header("anthropic-version")).isNotBlank();
    }

    @Test
    void textDeltasAreForwardedInOrderAndAddUpToTheText() throws Exception {
        String longText = "最初の文です。".repeat(30) + " and some ASCII at the end 🎉";
        server.enqueue(FakeReply.text(longText));

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo(longText);
        long textEvents = stream.events.stream().filter(e -> e.startsWith("text:")).count();
        assertThat(textEvents).as("the fake server splits long text into several deltas").isGreaterThan(1);
        assertThat(stream.text()).isEqualTo(longText);
    }

    @Test
    void toolUseStartsAndInputFragmentsAreForwardedAndTheInputIsAssembled() throws Exception {
        String input = "{\"q\":\"" + "検索語".repeat(40) + "\",\"limit\":10,\"filters\":{\"lang\":\"ja\",\"tags\":[\"a\",\"b\"]}}";
        server.enqueue(FakeReply.message().text("Let me look.").toolUse("toolu_7", "search", input).build());

        ModelResponse response = call(request("find"));

        ToolUseBlock use = response.toolUses().get(0);
        assertThat(use.input()).isEqualTo(Json.parse(input));
        assertThat(stream.events).first().isEqualTo("text:Let me look.");
        assertThat(stream.events).contains("tool:toolu_7:search");
        int start = stream.events.indexOf("tool:toolu_7:search");
        assertThat(stream.events.subList(start + 1, stream.events.size())).allMatch(e -> e.startsWith("input:toolu_7:"));
        assertThat(stream.events.size() - start - 1).as("the input arrives in several fragments").isGreaterThan(2);
        assertThat(Json.parse(stream.input("toolu_7"))).isEqualTo(Json.parse(input));
    }

    @Test
    void aToolWithoutArgumentsGetsAnEmptyObject() throws Exception {
        server.enqueue(FakeReply.toolUse("toolu_1", "now", "{}"));
        assertThat(call(request("time?")).toolUses().get(0).input()).isEqualTo(Json.object());
    }
}
