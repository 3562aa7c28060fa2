package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import org.junit.jupiter.api.Test;

class OutputSchemaTest {
    private final OutputSchema weather = OutputSchema.fromJson("weather",
            "{\"type\":\"object\",\"properties\":{\"temperature\":{\"type\":\"number\"}},\"required\":[\"temperature\"]}");

    @Test
    void aParsedValueIsCheckedAsItsTextIs() {
        assertThat(weather.problems(Json.parse("{\"temperature\":21}"))).isEmpty();
        assertThat(weather.problems(Json.parse("{\"temperature\":\"hot\"}")))
                .isNotEmpty()
                .isEqualTo(weather.problems("{\"temperature\":\"hot\"}"));
        assertThat(weather.problems(Json.parse("{}"))).isEqualTo(weather.problems("{}")).isNotEmpty();
    }
}
