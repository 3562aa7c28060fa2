package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A text block's {@code citations} (the sources of a web search answer, with the {@code
 * encrypted_index} the web search docs say to pass back) are kept on the block and sent back with it.
 */
class CitationsTest extends FakeApi {
    private static final String CITATION = "{\"type\":\"web_search_result_location\",\"url\":\"https://tenki.example.jp/\","
            + "\"title\":\"東京の天気\",\"encrypted_index\":\"Eo8BCioIAhgBIiQ\",\"cited_text\":\"東京は晴れ。\"}";

    @Test
    void streamedCitationsAreKeptOnTheTextBlockAndSentBackAsReceived() throws Exception {
        server.enqueue(FakeReply.malformed(new Sse().messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\",\"citations\":null}", "{\"type\":\"text_delta\",\"text\":\"今日は\"}")
                .block(1, "{\"type\":\"text\",\"text\":\"\",\"citations\":null}",
                        "{\"type\":\"citations_delta\",\"citation\":" + CITATION + "}", "{\"type\":\"text_delta\",\"text\":\"晴れです\"}")
                .block(2, "{\"type\":\"text\",\"text\":\"。\"}")
                .end("end_turn", "{\"output_tokens\":20}").build()));
        ModelResponse response = call(request("東京の天気は？"));

        assertThat(response.text()).isEqualTo("今日は晴れです。");
        List<TextBlock> texts = response.content().stream().map(TextBlock.class::cast).toList();
        assertThat(texts.get(0).citations()).as("none: null, as for any text block").isNull();
        assertThat(texts.get(1).citations()).isEqualTo(Json.parse("[" + CITATION + "]"));
        assertThat(texts.get(2).citations()).isNull();

        server.enqueue(FakeReply.text("どういたしまして"));
        call(request("東京の天気は？").addMessage(Message.assistant(response.content())).addMessage(Message.user("ありがとう")));
        JsonNode sent = lastBody().get("messages").get(1).get("content");
        assertThat(sent.get(0)).isEqualTo(Json.parse("{\"type\":\"text\",\"text\":\"今日は\"}"));
        assertThat(sent.get(1)).isEqualTo(Json.parse("{\"type\":\"text\",\"text\":\"晴れです\",\"citations\":[" + CITATION + "]}"));
    }

    @Test
    void citationsSurviveTheTraceJson() {
        TextBlock cited = new TextBlock("晴れです", Json.parse("[" + CITATION + "]"));
        String json = Json.write(cited);
        assertThat(Json.mapper().convertValue(Json.parse(json), dev.rein.model.ContentBlock.class)).isEqualTo(cited);
        assertThat(Json.write(new TextBlock("plain"))).doesNotContain("citations");
        assertThat(new TextBlock("plain")).isEqualTo(new TextBlock("plain", null));
    }
}
