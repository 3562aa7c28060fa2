package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The schema shortcut may only say "valid" where the JSON Schema validator finds no problem; for
 * everything else the validator decides (and writes the problems), so the results are the same.
 */
class SimpleSchemaTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> TYPES = List.of("object", "array", "string", "boolean", "null", "number", "integer");
    private static final List<String> NAMES = List.of("q", "id", "mode", "items", "", "ü");
    private static final List<String> WORDS = List.of("a", "b", "fast", "");

    @Test
    void neverSaysValidWhereTheValidatorFindsAProblem() {
        Random random = new Random(11);
        int sure = 0;
        int checked = 0;
        for (int s = 0; s < 400; s++) {
            ObjectNode schema = objectSchema(random, 0);
            JsonSchemas.Compiled compiled = JsonSchemas.compile("t", schema);
            SimpleSchema shortcut = SimpleSchema.of(schema);
            assertThat(shortcut).as(schema.toString()).isNotNull();
            for (int v = 0; v < 60; v++) {
                JsonNode value = random.nextInt(3) == 0 ? anyValue(random, 0) : fitting(random, schema, 0);
                boolean valid = compiled.validatorProblems(value).isEmpty();
                if (shortcut.surelyValid(value)) {
                    sure++;
                    assertThat(valid).as(schema + " with " + value).isTrue();
                }
                assertThat(compiled.problems(value)).isEqualTo(compiled.validatorProblems(value));
                checked++;
            }
        }
        assertThat(sure).as("values the shortcut settled, of " + checked).isGreaterThan(checked / 4);
    }

    @Test
    void coversTheUsualToolSchemaAndLeavesOthersToTheValidator() {
        JsonNode usual = Json.parse("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"description\":\"the item\"},"
                + "\"n\":{\"type\":[\"integer\",\"null\"]},\"tags\":{\"type\":\"array\",\"items\":{\"enum\":[\"x\",\"y\"]}}},"
                + "\"required\":[\"q\"],\"additionalProperties\":false}");
        SimpleSchema shortcut = SimpleSchema.of(usual);
        assertThat(shortcut).isNotNull();
        assertThat(shortcut.surelyValid(Json.parse("{\"q\":\"x\",\"n\":3,\"tags\":[\"x\"]}"))).isTrue();
        assertThat(shortcut.surelyValid(Json.parse("{\"q\":\"x\",\"n\":3.0}"))).isFalse(); // the validator decides 3.0
        assertThat(shortcut.surelyValid(Json.parse("{\"q\":\"x\",\"other\":1}"))).isFalse();
        assertThat(shortcut.surelyValid(Json.parse("{\"n\":1}"))).isFalse();
        for (String other : List.of("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"minLength\":2}}}",
                "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\",\"format\":\"email\"}}}",
                "{\"type\":\"object\",\"patternProperties\":{\"^x\":{\"type\":\"string\"}}}",
                "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}",
                "{\"type\":\"object\",\"properties\":{\"q\":true}}",
                "{\"type\":\"object\",\"properties\":{\"q\":{\"$ref\":\"#/$defs/q\"}},\"$defs\":{\"q\":{\"type\":\"string\"}}}",
                "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\"}",
                "{\"type\":\"object\",\"properties\":{\"q\":{\"enum\":[1,\"a\"]}}}",
                "{\"properties\":{\"q\":{\"type\":\"string\"}}}",
                "{\"type\":\"object\",\"properties\":{\"q\":{\"items\":{\"type\":\"string\"}}}}",
                "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"text\"}}}")) {
            assertThat(SimpleSchema.of(Json.parse(other))).as(other).isNull();
        }
    }

    private static ObjectNode objectSchema(Random random, int level) {
        ObjectNode schema = NODES.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = NODES.arrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
            String name = NAMES.get(random.nextInt(NAMES.size()));
            properties.set(name, subschema(random, level + 1));
            if (random.nextBoolean()) {
                required.add(name);
            }
        }
        if (random.nextInt(3) == 0) {
            required.add("missing");
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        if (random.nextInt(3) == 0) {
            schema.put("additionalProperties", random.nextBoolean());
        }
        if (random.nextBoolean()) {
            schema.put("description", "what it is");
        }
        return schema;
    }

    private static ObjectNode subschema(Random random, int level) {
        int kind = random.nextInt(level >= 3 ? 4 : 6);
        return switch (kind) {
            case 0 -> NODES.objectNode().put("type", TYPES.get(random.nextInt(TYPES.size())));
            case 1 -> {
                ObjectNode s = NODES.objectNode();
                ArrayNode types = s.putArray("type");
                types.add(TYPES.get(random.nextInt(TYPES.size()))).add(TYPES.get(random.nextInt(TYPES.size())));
                yield s;
            }
            case 2 -> {
                ObjectNode s = NODES.objectNode();
                ArrayNode values = s.putArray("enum");
                WORDS.subList(0, 1 + random.nextInt(WORDS.size() - 1)).forEach(values::add);
                if (random.nextBoolean()) {
                    s.put("type", "string");
                }
                yield s;
            }
            case 3 -> NODES.objectNode().put("title", "anything").put("default", 1);
            case 4 -> {
                ObjectNode s = NODES.objectNode().put("type", "array");
                s.set("items", subschema(random, level + 1));
                yield s;
            }
            default -> objectSchema(random, level);
        };
    }

    /** A value that often fits {@code schema} (sometimes not quite), to exercise both answers. */
    private static JsonNode fitting(Random random, JsonNode schema, int level) {
        if (random.nextInt(12) == 0 || level > 5) {
            return anyValue(random, level);
        }
        if (schema.has("enum")) {
            JsonNode values = schema.get("enum");
            return values.get(random.nextInt(values.size()));
        }
        JsonNode type = schema.get("type");
        String name = type == null ? "string" : type.isArray() ? type.get(random.nextInt(type.size())).asText() : type.asText();
        return switch (name) {
            case "object" -> {
                ObjectNode object = NODES.objectNode();
                schema.path("properties").properties().forEach(p -> {
                    if (random.nextInt(4) > 0) {
                        object.set(p.getKey(), fitting(random, p.getValue(), level + 1));
                    }
                });
                if (random.nextInt(6) == 0) {
                    object.put("extra", 1);
                }
                yield object;
            }
            case "array" -> {
                ArrayNode array = NODES.arrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    array.add(fitting(random, schema.path("items"), level + 1));
                }
                yield array;
            }
            default -> scalar(random, name);
        };
    }

    private static JsonNode scalar(Random random, String type) {
        return switch (type) {
            case "string" -> NODES.textNode(WORDS.get(random.nextInt(WORDS.size())));
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            case "null" -> NODES.nullNode();
            case "number" -> random.nextBoolean() ? NODES.numberNode(random.nextDouble()) : NODES.numberNode(random.nextInt());
            default -> random.nextInt(4) == 0 ? NODES.numberNode(2.0) : NODES.numberNode(random.nextLong());
        };
    }

    private static JsonNode anyValue(Random random, int level) {
        int kind = random.nextInt(level > 3 ? 7 : 9);
        return switch (kind) {
            case 0 -> scalar(random, "string");
            case 1 -> scalar(random, "boolean");
            case 2 -> NODES.nullNode();
            case 3 -> NODES.numberNode(random.nextDouble());
            case 4 -> NODES.numberNode(random.nextInt(5));
            case 5 -> NODES.numberNode(3.0);
            case 6 -> NODES.numberNode(new java.math.BigDecimal("1.50"));
            case 7 -> {
                ObjectNode o = NODES.objectNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    o.set(NAMES.get(random.nextInt(NAMES.size())), anyValue(random, level + 1));
                }
                yield o;
            }
            default -> {
                ArrayNode a = NODES.arrayNode();
                for (int i = random.nextInt(3); i > 0; i--) {
                    a.add(anyValue(random, level + 1));
                }
                yield a;
            }
        };
    }
}
