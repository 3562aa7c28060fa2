package dev.rein.internal.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * Reads a model's JSON into a user's Java type under the names of the schema generated from that
 * type: its Java names ({@code orderId}), not the snake_case names of Rein's own documents
 * ({@link dev.rein.json.Json#mapper()}). {@code Optional} components are empty when left out or
 * null, and properties the schema did not forbid are ignored, so every value that validates can be
 * read. Used for typed final answers and for the parameters of annotated tools.
 */
public final class JavaNames {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private JavaNames() {}

    /** @throws IllegalArgumentException when {@code value} does not fit {@code type} */
    public static <T> T read(JsonNode value, Class<T> type) {
        return MAPPER.convertValue(value, type);
    }

    /** {@code value} as JSON, as {@link #read} reads it back (an enum constant by its {@code @JsonValue}, say). */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** @throws IllegalArgumentException when {@code value} does not fit {@code type} */
    public static Object read(JsonNode value, JavaType type) {
        return MAPPER.convertValue(value, type);
    }
}
