package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The argument size limit counts exactly the bytes of the written JSON text, without writing it. */
class Utf8LengthTest {
    private static final List<String> TEXTS = List.of("", "ascii", "é", "€uro", "東京", "😀", "a😀b", "\uD83D", "\uDE00",
            "x\uD83Dy", "\uDE00\uD83D", "\uD83D\uD83D\uDE00", "tab\tnew\nline \"q\" \\ \u0001", "ｗｅａｔｈｅｒ");

    @Test
    void countsAsTheUtf8EncoderDoesIncludingLoneSurrogates() {
        for (String text : TEXTS) {
            assertThat(Utf8Length.of(text)).as(text).isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    @Test
    void countsTheCompactJsonOfArguments() {
        ObjectNode arguments = Json.object();
        for (int i = 0; i < TEXTS.size(); i++) {
            arguments.put("k" + i, TEXTS.get(i));
        }
        arguments.putArray("list").add(1.5).add(-2).addNull().add(true).addObject().put("ü", "😀".repeat(3000));
        for (JsonNode node : List.of(arguments, Json.parse("{}"), Json.parse("\"text\""), Json.parse("[1,2,3]"))) {
            assertThat(Utf8Length.ofJson(node)).isEqualTo(Json.write(node).getBytes(StandardCharsets.UTF_8).length);
        }
    }
}
