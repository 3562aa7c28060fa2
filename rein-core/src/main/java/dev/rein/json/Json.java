package dev.rein.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.rein.ReinException;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The one shared, thread-safe Jackson mapper and small helpers around it. Property names are
 * snake_case, like the wire protocols and the CLI's JSON output.
 */
public final class Json {
    /**
     * How deep JSON from outside (models, tools, files) may nest: Jackson's own default, made
     * explicit because the limits below are derived from it.
     */
    public static final int MAX_INPUT_DEPTH = 1000;
    /**
     * How deep Rein writes and reads its own documents (snapshots, trace events, requests): room for
     * an input of {@link #MAX_INPUT_DEPTH} levels inside Rein's envelopes, so anything Rein accepted
     * can always be saved and read back.
     */
    public static final int MAX_DOCUMENT_DEPTH = 2 * MAX_INPUT_DEPTH;

    private static final ObjectMapper MAPPER = JsonMapper.builder(factory(MAX_INPUT_DEPTH))
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module()) // a tool's result may hold Optionals: written as the value or null
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();
    /** Sorted keys give one canonical text per JSON value, used for hashing and repeat detection. */
    /** Reads what Rein itself wrote (stored snapshots and events), which may nest deeper than any input. */
    private static final ObjectMapper STORED = JsonMapper.builder(factory(MAX_DOCUMENT_DEPTH))
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();
    private static final ObjectMapper CANONICAL = JsonMapper.builder(factory(MAX_DOCUMENT_DEPTH))
            .addModule(new JavaTimeModule())
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private Json() {}

    private static JsonFactory factory(int maxReadDepth) {
        return JsonFactory.builder()
                // Jackson's default buffer pool is per thread, and Rein runs every run, model call and
                // tool call on a fresh virtual thread, so each parse or write would start with empty
                // buffers (about twice the allocation). A shared pool hands them from thread to thread.
                .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
                .streamReadConstraints(maxReadDepth == MAX_DOCUMENT_DEPTH
                        // Rein's own documents read back whatever Rein wrote: a tool output kept whole
                        // (toolOutputLimit 0) may be one string over Jackson's 20,000,000 characters
                        ? StreamReadConstraints.builder().maxNestingDepth(maxReadDepth).maxStringLength(Integer.MAX_VALUE).build()
                        : StreamReadConstraints.builder().maxNestingDepth(maxReadDepth).build())
                .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_DOCUMENT_DEPTH).build())
                .build();
    }

    /** The mapper for everything Rein reads from outside and everything it writes. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** The mapper for reading back documents Rein wrote itself (stores). */
    public static ObjectMapper storedMapper() {
        return STORED;
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Parses JSON text; throws {@link ReinException} with the parser's message when it is not JSON. */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ReinException("not valid JSON: " + problem(e));
        }
    }

    /**
     * Parses text that must be exactly one JSON value, as a person types it: unlike {@link #parse},
     * text after the value (a second object, a stray brace) is refused instead of being ignored.
     * White space around the value is fine.
     *
     * @throws ReinException with the parser's message, or saying where the extra text starts
     */
    public static JsonNode parseWhole(String text) {
        try (com.fasterxml.jackson.core.JsonParser parser = MAPPER.createParser(text)) {
            JsonNode value = MAPPER.readTree(parser);
            if (value == null) {
                throw new ReinException("not valid JSON: there is no value");
            }
            com.fasterxml.jackson.core.JsonLocation end = parser.currentLocation();
            boolean more;
            try {
                more = parser.nextToken() != null;
            } catch (JsonProcessingException e) {
                more = true; // not even a token: still text after the value
            }
            if (more) {
                throw new ReinException("not valid JSON: more text follows after the JSON value, from line "
                        + end.getLineNr() + " column " + end.getColumnNr());
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new ReinException("not valid JSON: " + problem(e));
        } catch (IOException e) {
            throw new ReinException("not valid JSON: " + e.getMessage());
        }
    }

    /**
     * The parser's reason why text is not JSON, for people: the positions Jackson names inside its
     * message (the start of an object that is not closed) as lines and columns without its
     * "[Source: REDACTED …]" placeholder, which reads as a masked secret, and where the problem is.
     */
    public static String problem(JsonProcessingException e) {
        String reason = SOURCE.matcher(String.valueOf(e.getOriginalMessage())).replaceAll("line $1, column $2");
        com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? reason : reason + ", at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    /** Where Jackson names a position inside its message, e.g. the start of an object that is not closed. */
    private static final java.util.regex.Pattern SOURCE = java.util.regex.Pattern.compile(
            "\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)]");

    /** Compact JSON text of any value. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new ReinException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * {@code json} with each unpaired UTF-16 surrogate (half an emoji, from text cut by UTF-16 index)
     * written as its JSON escape ({@code \ud83d}), which a JSON reader turns back into the same
     * character; whole pairs (emoji) pass unchanged. Half a pair has no UTF-8 form, so JSON text
     * written as UTF-8 (a trace file, a database column) would otherwise hold {@code ?} instead.
     * JSON text holds characters outside ASCII only inside its strings, where an escape means the
     * character itself. The same instance when there is nothing to escape.
     */
    public static String escapeHalfPairs(String json) {
        StringBuilder out = null;
        for (int i = 0, n = json.length(); i < n; i++) {
            char c = json.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(json.charAt(i + 1));
            if (!pair && Character.isSurrogate(c)) {
                if (out == null) {
                    out = new StringBuilder(n + 16).append(json, 0, i);
                }
                out.append("\\u").append(Integer.toHexString(c));
                continue;
            }
            if (out != null) {
                out.append(c);
                if (pair) {
                    out.append(json.charAt(i + 1));
                }
            }
            if (pair) {
                i++;
            }
        }
        return out == null ? json : out.toString();
    }

    /** Pretty JSON text of any value. */
    public static String pretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new ReinException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Canonical text: object keys sorted at every level, no insignificant whitespace. Written
     * straight from the tree (no copy into maps and lists first); this runs for every proposed
     * call (repeat detection, action hashes), so it is on the hot path of every step.
     */
    public static String canonical(JsonNode node) {
        return canonical(node, UnaryOperator.identity());
    }

    /**
     * As {@link #canonical(JsonNode)}, with each string value (not key) written as what
     * {@code strings} returns for it; {@code strings} sees the values in the order they are
     * written. Lets a caller take the strings out of a value and get the canonical text of the
     * rest in one walk.
     */
    public static String canonical(JsonNode node, UnaryOperator<String> strings) {
        String plain = PlainCanonical.of(node, strings);
        return plain != null ? plain : canonicalByGenerator(node, strings);
    }

    /** {@link #canonical(JsonNode, UnaryOperator)} through Jackson's generator: any value, and the reference for the plain writer. */
    static String canonicalByGenerator(JsonNode node, UnaryOperator<String> strings) {
        try (StringWriter out = new StringWriter(64); JsonGenerator gen = CANONICAL.getFactory().createGenerator(out)) {
            writeCanonical(gen, node, strings);
            gen.flush();
            return out.toString();
        } catch (IOException e) {
            throw new ReinException("cannot canonicalise JSON: " + e.getMessage(), e);
        }
    }

    private static void writeCanonical(JsonGenerator gen, JsonNode node, UnaryOperator<String> strings) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                List<String> names = new ArrayList<>(node.size());
                node.fieldNames().forEachRemaining(names::add);
                Collections.sort(names);
                gen.writeStartObject();
                for (String name : names) {
                    gen.writeFieldName(name);
                    writeCanonical(gen, node.get(name), strings);
                }
                gen.writeEndObject();
            }
            case ARRAY -> {
                gen.writeStartArray();
                for (JsonNode element : node) {
                    writeCanonical(gen, element, strings);
                }
                gen.writeEndArray();
            }
            case STRING -> gen.writeString(strings.apply(node.textValue()));
            case BOOLEAN -> gen.writeBoolean(node.booleanValue());
            case NULL -> gen.writeNull();
            case NUMBER -> {
                if (node.isIntegralNumber()) {
                    gen.writeNumber(node.bigIntegerValue());
                } else {
                    gen.writeRawValue(canonicalByMapper(node)); // floats: exactly the mapper's rendering
                }
            }
            default -> gen.writeRawValue(canonicalByMapper(node));
        }
    }

    /** The reference definition of {@link #canonical}: through plain maps and lists, keys sorted by the mapper. */
    static String canonicalByMapper(JsonNode node) {
        try {
            Object plain = CANONICAL.treeToValue(node, Object.class);
            return CANONICAL.writeValueAsString(plain);
        } catch (JsonProcessingException e) {
            throw new ReinException("cannot canonicalise JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Nesting depth of a JSON value (a scalar is 0), walked without recursion so any depth is safe to measure. */
    public static int depth(JsonNode root) {
        int max = 0;
        Deque<Map.Entry<JsonNode, Integer>> open = new ArrayDeque<>();
        open.push(Map.entry(root, 0));
        while (!open.isEmpty()) {
            Map.Entry<JsonNode, Integer> next = open.pop();
            if (next.getKey().isContainerNode()) {
                int level = next.getValue() + 1;
                max = Math.max(max, level);
                next.getKey().forEach(child -> open.push(Map.entry(child, level)));
            }
        }
        return max;
    }
}
