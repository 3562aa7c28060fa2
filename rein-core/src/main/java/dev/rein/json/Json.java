package dev.rein.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.rein.ReinException;

/**
 * The one shared, thread-safe Jackson mapper and small helpers around it. Property names are
 * snake_case, like the wire protocols and the CLI's JSON output.
 */
public final class Json {
    /**
     * Jackson's default buffer pool is per thread, and Rein runs every run, model call and tool
     * call on a fresh virtual thread, so each parse or write would start with empty buffers (about
     * twice the allocation). A shared pool hands the buffers from one thread to the next.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
            .build();
    private static final ObjectMapper MAPPER = JsonMapper.builder(FACTORY)
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();
    /** Sorted keys give one canonical text per JSON value, used for hashing and repeat detection. */
    private static final ObjectMapper CANONICAL = JsonMapper.builder(FACTORY.copy())
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Parses JSON text; throws {@link ReinException} with the parser's message when it is not JSON. */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ReinException("not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** Compact JSON text of any value. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new ReinException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Pretty JSON text of any value. */
    public static String pretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new ReinException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Canonical text: object keys sorted at every level, no insignificant whitespace. */
    public static String canonical(JsonNode node) {
        try {
            Object plain = CANONICAL.treeToValue(node, Object.class);
            return CANONICAL.writeValueAsString(plain);
        } catch (JsonProcessingException e) {
            throw new ReinException("cannot canonicalise JSON: " + e.getOriginalMessage(), e);
        }
    }
}
