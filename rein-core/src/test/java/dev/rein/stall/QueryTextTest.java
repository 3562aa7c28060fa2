package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.text.EditDistance;
import dev.rein.json.Json;
import org.junit.jupiter.api.Test;

class QueryTextTest {
    @Test
    void normalisationIgnoresCasePunctuationSpacingAndWordOrder() {
        assertThat(QueryText.normalise("  Weather,   TOKYO!! ")).isEqualTo("tokyo weather");
        assertThat(QueryText.normalise("ｗｅａｔｈｅｒ　東京")).isEqualTo("weather 東京");
        assertThat(QueryText.normalise("?!")).isEmpty();
    }

    @Test
    void editDistanceCountsCodePoints() {
        assertThat(EditDistance.levenshtein("kitten".codePoints().toArray(), "sitting".codePoints().toArray())).isEqualTo(3);
        assertThat(EditDistance.levenshtein("東京の天気".codePoints().toArray(), "東京天気".codePoints().toArray())).isEqualTo(1);
        assertThat(EditDistance.levenshtein("😀a".codePoints().toArray(), "a".codePoints().toArray())).isEqualTo(1);
        assertThat(EditDistance.levenshtein(new int[0], "abc".codePoints().toArray())).isEqualTo(3);
    }

    @Test
    void stringsAndTheRestOfTheArgumentsAreSeparated() {
        QueryText a = QueryText.of(Json.parse("{\"q\":\"Tokyo weather\",\"page\":2,\"filters\":{\"lang\":\"en\"}}"));
        QueryText b = QueryText.of(Json.parse("{\"filters\":{\"lang\":\"EN\"},\"page\":2,\"q\":\"weather tokyo\"}"));
        assertThat(a.skeleton()).isEqualTo(b.skeleton());
        assertThat(a.similarity(b)).isEqualTo(1.0);
        QueryText c = QueryText.of(Json.parse("{\"q\":\"Tokyo weather\",\"page\":3,\"filters\":{\"lang\":\"en\"}}"));
        assertThat(c.skeleton()).isNotEqualTo(a.skeleton());
        assertThat(QueryText.of(Json.parse("{\"q\":\"release 2.1\"}")).entities()).containsExactly("1", "2");
    }
}
