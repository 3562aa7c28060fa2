package dev.rein.model;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * Reads a typed final answer into its Java type under the contract of the schema {@link OutputSchema#of}
 * generates: the Java names of the components (not Rein's snake_case wire names), {@code Optional}
 * components empty when left out or null, and properties the schema does not forbid ignored, so every
 * answer that validates can be read.
 */
final class AnswerReader {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private AnswerReader() {}

    /** @throws IllegalArgumentException when {@code value} does not fit {@code type} */
    static <T> T read(JsonNode value, Class<T> type) {
        return MAPPER.convertValue(value, type);
    }
}
