package dev.rein.approval;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hash assembled around the arguments' canonical text is the hash of the canonical wrapper object. */
class ActionHashTest {
    @Test
    void sameAsTheWrapperDefinition() {
        List<String> arguments = List.of("{}", "{\"b\":[1,{\"d\":2.5,\"c\":null}],\"a\":\"x\"}", "\"not json\"", "[]", "3",
                "{\"q\":\"caf\u00e9 \\\"\\n\\u2028 \ud83d\ude00\"}");
        for (String tool : List.of("search", "lookup_2-Z", "tool \"quoted\" \u00fc", "a/b\\c\t", "")) {
            for (String json : arguments) {
                JsonNode node = Json.parse(json);
                assertThat(ActionHash.of(tool, node)).as(tool + " " + json).isEqualTo(ActionHash.ofWrapper(tool, node));
            }
            assertThat(ActionHash.of(tool, null)).isEqualTo(ActionHash.ofWrapper(tool, null));
        }
    }

    @Test
    void keyOrderAndSpacingDoNotChangeTheHash() {
        assertThat(ActionHash.of("t", Json.parse("{\"a\":1, \"b\":2}"))).isEqualTo(ActionHash.of("t", Json.parse("{\"b\":2,\"a\":1}")));
    }
}
