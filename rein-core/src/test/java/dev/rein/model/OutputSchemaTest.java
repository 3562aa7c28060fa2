package dev.rein.model;

import static dev.rein.internal.schema.DeepValues.DEEP_SCHEMA;
import static dev.rein.internal.schema.DeepValues.OVERFLOWING_DEPTH;
import static dev.rein.internal.schema.DeepValues.deepNode;
import static dev.rein.internal.schema.DeepValues.onSmallStack;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutputSchemaTest {
    private final OutputSchema weather = OutputSchema.fromJson("weather",
            "{\"type\":\"object\",\"properties\":{\"temperature\":{\"type\":\"number\"}},\"required\":[\"temperature\"]}");

    public record Scores(Map<String, Integer> scores, Map<String, List<String>> tags) {}
    public record Labels(Map<String, String> labels) {}
    public record Terms(Map<String, Map<String, Integer>> byClass, Map<String, Integer> total) {}
    public record Nothing() {}
    public record Holder(Nothing nothing, JsonNode raw, Object anything) {}

    @Test
    void aParsedValueIsCheckedAsItsTextIs() {
        assertThat(weather.problems(Json.parse("{\"temperature\":21}"))).isEmpty();
        assertThat(weather.problems(Json.parse("{\"temperature\":\"hot\"}")))
                .isNotEmpty()
                .isEqualTo(weather.problems("{\"temperature\":\"hot\"}"));
        assertThat(weather.problems(Json.parse("{}"))).isEqualTo(weather.problems("{}")).isNotEmpty();
    }

    /**
     * A Map's schema gives its values' schema as additionalProperties, so Rein's validation checks each value: it was
     * a bare {"type":"object"}, so a Map<String,String> took {"a": 5} (Jackson reads 5 as "5") and any value went unchecked
     * by the schema the model is shown.
     */
    @Test
    void aMapsSchemaChecksItsValues() {
        OutputSchema scores = OutputSchema.of(Scores.class);
        JsonNode properties = scores.schema().get("properties");
        assertThat(properties.get("scores")).isEqualTo(Json.parse(
                "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}"));
        assertThat(properties.get("tags")).isEqualTo(Json.parse(
                "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}"));
        assertThat(scores.problems("{\"scores\":{\"算数\":90},\"tags\":{\"算数\":[\"得意\"]}}")).isEmpty();
        assertThat(scores.problems("{\"scores\":{\"算数\":\"九十\"},\"tags\":{}}"))
                .containsExactly("$.scores.算数: string found, integer expected");

        OutputSchema labels = OutputSchema.of(Labels.class);
        assertThat(labels.problems("{\"labels\":{\"a\":5}}")).containsExactly("$.labels.a: integer found, string expected");
        assertThat(labels.problems("{\"labels\":{\"a\":\"五\"}}")).isEmpty();
    }

    /**
     * A map of maps has its value schema once: victools wrote the inner map as a $ref to a definition named
     * "Map(String,Integer)" (a name the model saw) with the same additionalProperties again beside it, so each bad value
     * was reported twice.
     */
    @Test
    void aMapOfMapsHasItsValueSchemaOnceAndNoDefinitionNamedAfterAMap() {
        OutputSchema terms = OutputSchema.of(Terms.class);
        assertThat(terms.schema().toString()).doesNotContain("$ref").doesNotContain("Map(");
        assertThat(terms.schema().get("properties").get("byClass")).isEqualTo(Json.parse(
                "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}}"));
        assertThat(terms.problems("{\"byClass\":{\"一組\":{\"算数\":90}},\"total\":{\"算数\":90}}")).isEmpty();
        assertThat(terms.problems("{\"byClass\":{\"一組\":{\"算数\":\"九十\"}},\"total\":{}}"))
                .containsExactly("$.byClass.一組.算数: string found, integer expected");
    }

    /**
     * An empty record's schema is a closed empty object, "properties": {} and "additionalProperties": false, as it can
     * hold nothing: it was the bare {"type":"object"} of a Map, which a structured-output feature that closes every
     * object cannot tell from one.
     */
    @Test
    void anEmptyRecordIsAClosedEmptyObject() {
        assertThat(OutputSchema.of(Nothing.class).schema()).isEqualTo(Json.parse(
                "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\",\"properties\":{},"
                        + "\"additionalProperties\":false}"));
        OutputSchema holder = OutputSchema.of(Holder.class);
        assertThat(holder.schema().get("properties").get("nothing")).isEqualTo(Json.parse(
                "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}"));
        assertThat(holder.problems("{\"nothing\":{},\"raw\":{\"any\":1},\"anything\":{\"x\":[1]}}")).isEmpty();
        assertThat(holder.problems("{\"nothing\":{\"x\":1},\"raw\":{},\"anything\":{}}")).singleElement().asString()
                .contains("$.nothing").contains("x");
    }

    /**
     * A JsonNode or Object field takes any JSON value, as Jackson binds any to it (a TextNode, a String, an Integer, a
     * List, null), so its schema is {} (anything): a JsonNode field was {"type":"object"}, which refused the "hot" or 5
     * Jackson would have read, while the Javadoc and docs said both were such an open object (an Object field was {}).
     * A JsonNode or Object answer is as open; a JsonNode answer was refused as "an abstract class".
     */
    @Test
    void aJsonNodeOrObjectTakesAnyValueJacksonBindsToIt() {
        OutputSchema holder = OutputSchema.of(Holder.class);
        JsonNode properties = holder.schema().get("properties");
        assertThat(properties.get("raw")).isEqualTo(Json.object());
        assertThat(properties.get("anything")).isEqualTo(Json.object());
        for (String value : List.of("\"hot\"", "5", "[1,\"a\"]", "{\"x\":1}", "true", "null")) {
            String answer = "{\"nothing\":{},\"raw\":" + value + ",\"anything\":" + value + "}";
            assertThat(holder.problems(answer)).as(answer).isEmpty();
            assertThat(OutputSchema.readAnswer(answer, Holder.class).raw()).as(answer).isEqualTo(Json.parse(value));
        }
        assertThat(holder.problems("{\"nothing\":{},\"anything\":1}")).singleElement().asString().contains("raw");

        for (Class<?> type : List.of(JsonNode.class, Object.class)) {
            OutputSchema any = OutputSchema.of(type);
            assertThat(any.schema()).as(type.getSimpleName()).isEqualTo(Json.parse(
                    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\"}"));
            for (String value : List.of("\"hot\"", "5", "[1]", "{\"x\":1}")) {
                assertThat(any.problems(value)).as(type.getSimpleName() + " " + value).isEmpty();
            }
        }
    }

    public record Nodes(com.fasterxml.jackson.databind.node.ObjectNode object, com.fasterxml.jackson.databind.node.ArrayNode array,
                        com.fasterxml.jackson.databind.node.TextNode text, com.fasterxml.jackson.databind.node.IntNode whole,
                        com.fasterxml.jackson.databind.node.DoubleNode real, com.fasterxml.jackson.databind.node.BooleanNode flag,
                        com.fasterxml.jackson.databind.node.ValueNode value) {}

    /**
     * A JsonNode subclass is the JSON it holds, not Jackson's internals: an ObjectNode was generated with the properties
     * _children and _nodeFactory, so an answer of {"a":1} was refused and the model was asked for Jackson's fields.
     */
    @Test
    void aJsonNodeSubclassIsTheJsonItHoldsNotJacksonsFields() {
        JsonNode properties = OutputSchema.of(Nodes.class).schema().get("properties");
        assertThat(properties.get("object")).isEqualTo(Json.parse("{\"type\":\"object\"}"));
        assertThat(properties.get("array")).isEqualTo(Json.parse("{\"type\":\"array\"}"));
        assertThat(properties.get("text")).isEqualTo(Json.parse("{\"type\":\"string\"}"));
        assertThat(properties.get("whole")).isEqualTo(Json.parse("{\"type\":\"integer\"}"));
        assertThat(properties.get("real")).isEqualTo(Json.parse("{\"type\":\"number\"}"));
        assertThat(properties.get("flag")).isEqualTo(Json.parse("{\"type\":\"boolean\"}"));
        assertThat(properties.get("value")).isEqualTo(Json.object());
        OutputSchema object = OutputSchema.of(com.fasterxml.jackson.databind.node.ObjectNode.class);
        assertThat(object.problems("{\"a\":1}")).isEmpty();
        assertThat(object.problems("[1]")).isNotEmpty();
    }

    /** A bean holding records: whether an answer read as it is checked takes a walk over its properties. */
    public static final class Ledger {
        public List<Scores> pages;
    }

    /**
     * Whether an answer read as a type is checked against its schema is worked out once per type (TypeMemoTest), not on
     * every readAnswer (RunResult.output), and the answer is still checked each time.
     */
    @Test
    void aTypeReadAgainIsStillChecked() {
        java.lang.reflect.Type pages = new TypeRef<List<Ledger>>() {}.type();
        for (int i = 0; i < 3; i++) {
            assertThat(OutputSchema.readAnswer("{\"pages\":[]}", Ledger.class).pages).isEmpty();
            assertThat((List<?>) OutputSchema.readAnswer("[{\"pages\":[]}]", pages)).hasSize(1);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.readAnswer("{\"pages\":[{}]}", Ledger.class))
                    .hasMessageContaining("$.pages[0]: required property 'scores' not found");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.readAnswer("[{\"pages\":[{}]}]", pages))
                    .hasMessageContaining("$[0].pages[0]: required property 'scores' not found");
        }
    }
    /** A generic bean with two properties at ever larger types: each level is a new type, twice as many as the last. */
    public static final class Fork<T> {
        public Fork<List<T>> a;
        public Fork<java.util.Set<T>> b;
        public T value;
    }

    public record Invoice(String invoiceId, int total) {}

    /** A generic bean nested nine deep, each level smaller: finite, so it has a schema. */
    public static final class Wrap<T> {
        public T value;
    }

    /**
     * The walk that decides whether a type is checked ends soon whatever the type: it was bounded in depth only, and a
     * bean with two growing properties has 2^32 beans within that depth (still running after 40 s). Failed first
     * (through readAnswer, which ran the walk: timed out after 10 s).
     */
    @Test
    void theWalkOverABeanWithTwoGrowingPropertiesEndsSoon() {
        var types = Json.mapper().getTypeFactory();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
            assertThat(OutputSchema.checked(types.constructType(new TypeRef<Fork<String>>() {}.type()))).isFalse();
            // past the bounds a type is read unchecked; a record within them is still found
            assertThat(OutputSchema.checked(types.constructType(new TypeRef<Fork<Invoice>>() {}.type()))).isTrue();
        });
    }

    /**
     * A type whose schema never ends is refused with what to do, not a StackOverflowError from the generator (which took
     * most of a minute). Failed first: StackOverflowError.
     */
    @Test
    void aTypeWhoseSchemaNeverEndsIsRefusedClearly() {
        java.lang.reflect.Type fork = new TypeRef<Fork<String>>() {}.type();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () ->
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.of("Fork", fork))
                        .isInstanceOf(dev.rein.ReinException.class)
                        .hasMessage("the output type Fork<String> has no JSON Schema that ends: Fork, through its property"
                                + " 'a', holds itself at a larger type (as a Fork<T> holding a Fork<List<T>>), so each level"
                                + " is a new type to describe, without end. Give such a property its class's own type"
                                + " (Fork<T>), or a type of its own"));
        // a finite nesting of one class, however deep, is not taken for one that grows
        java.lang.reflect.Type nested = new TypeRef<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Invoice>>>>>>>>>>() {}.type();
        assertThat(OutputSchema.of("Nested", nested).schema().toString()).contains("invoiceId");
    }

    /**
     * The same type given straight to readAnswer (no schema made first) is refused alike (core44's note). Failed first: a
     * StackOverflowError from Jackson's read.
     */
    @Test
    void aTypeWhoseSchemaNeverEndsIsRefusedClearlyWhenRead() {
        java.lang.reflect.Type fork = new TypeRef<Fork<String>>() {}.type();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () ->
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.readAnswer("{\"a\":null}", fork))
                        .isInstanceOf(dev.rein.ReinException.class)
                        .hasMessageStartingWith("the output type Fork<String> has no JSON Schema that ends: Fork, through"
                                + " its property 'a', holds itself at a larger type"));
    }

    /**
     * A hand-written schema whose $ref chain comes back to itself with no object between (each step applies to the same
     * value) is refused when it is made, naming where: checking an answer against it overflowed the stack. A $ref loop
     * through a property (a tree) is no such loop and is kept. Failed first: problems threw StackOverflowError.
     */
    @Test
    void aRefLoopWithNoObjectBetweenIsRefusedNamingWhere() {
        String looping = "{\"$defs\":{\"a\":{\"$ref\":\"#/$defs/b\"},\"b\":{\"allOf\":[{\"$ref\":\"#/$defs/a\"}]}},"
                + "\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a\"}}}";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.fromJson("Loop", looping).problems("{\"x\":1}"))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("the output schema 'Loop' ")
                .hasMessageContaining("#/$defs/a");
        OutputSchema tree = OutputSchema.fromJson("Tree", "{\"type\":\"object\",\"properties\":{\"kids\":{\"type\":"
                + "\"array\",\"items\":{\"$ref\":\"#\"}}}}");
        assertThat(tree.problems("{\"kids\":[{\"kids\":[]}]}")).isEmpty();
        assertThat(tree.problems("{\"kids\":[{\"kids\":5}]}")).isNotEmpty();
    }

    /**
     * rev120: loops RefLoops did not follow still overflowed the stack: a $ref to an anchor, a percent-encoded pointer,
     * a pointer behind the root's $id, a $dynamicRef to a $dynamicAnchor. Each is now refused naming the loop.
     */
    @Test
    void refLoopsThroughAnchorsEncodedPointersTheRootsIdAndDynamicRefsAreRefused() {
        java.util.Map<String, String> loops = new java.util.LinkedHashMap<>();
        loops.put("{\"$defs\":{\"a\":{\"$anchor\":\"A\",\"$ref\":\"#/$defs/b\"},\"b\":{\"allOf\":[{\"$ref\":\"#A\"}]}},"
                + "\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a\"}}}", "#/$defs/a → #/$defs/b");
        loops.put("{\"$defs\":{\"a b\":{\"allOf\":[{\"$ref\":\"#/$defs/a%20b\"}]}},"
                + "\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a%20b\"}}}", "#/$defs/a b");
        loops.put("{\"$id\":\"https://example.com/s\",\"$defs\":{\"a\":{\"allOf\":[{\"$ref\":"
                + "\"https://example.com/s#/$defs/a\"}]}},\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/$defs/a\"}}}",
                "#/$defs/a/allOf/0 → #/$defs/a");
        loops.put("{\"$dynamicAnchor\":\"m\",\"allOf\":[{\"$dynamicRef\":\"#m\"}]}", "# → #/allOf/0 → #");
        loops.forEach((looping, where) -> org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> OutputSchema.fromJson("Loop", looping).problems("{\"x\":1}")).as(looping)
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("the output schema 'Loop' loops without reaching a property or item")
                .hasMessageContaining(where));
    }

    /** rev120: a const, enum, example or default value is data, not a schema: a "$ref" in it is no loop. */
    @Test
    void aRefInsideAValueIsNotFollowed() {
        OutputSchema constData = OutputSchema.fromJson("C", "{\"type\":\"object\",\"properties\":{\"x\":{\"const\":"
                + "{\"allOf\":[{\"$ref\":\"#/properties/x/const\"}]}}}}");
        assertThat(constData.problems("{}")).isEmpty();
        OutputSchema examples = OutputSchema.fromJson("E", "{\"type\":\"object\",\"examples\":[{\"$ref\":\"#/examples/0\"}],"
                + "\"default\":{\"$ref\":\"#/default\"},\"properties\":{\"e\":{\"enum\":[{\"$ref\":\"#/properties/e/enum/0\"}]},"
                + "\"default\":{\"type\":\"string\"}}}");
        assertThat(examples.problems("{\"default\":\"s\"}")).isEmpty();
        // a property named like a data keyword is still a schema, and a loop through it still refused
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.fromJson("L", "{\"type\":\"object\","
                + "\"properties\":{\"default\":{\"allOf\":[{\"$ref\":\"#/properties/default\"}]}}}"))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("#/properties/default");
    }

    /**
     * rev120: a loop RefLoops does not follow (a $ref to a subschema's own relative $id) still overflows the validator's
     * stack: problems says so as a ReinException, as for the loops it follows, not a StackOverflowError.
     */
    @Test
    void aLoopOnlyTheValidatorFindsIsAReinExceptionNotAStackOverflow() {
        OutputSchema looping = OutputSchema.fromJson("Loop", "{\"$id\":\"https://example.com/root\",\"type\":\"object\","
                + "\"properties\":{\"x\":{\"$ref\":\"sub\"}},\"$defs\":{\"s\":{\"$id\":\"sub\",\"allOf\":[{\"$ref\":\"sub\"}]}}}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> looping.problems("{\"x\":1}"))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("checking an answer against the output schema 'Loop' ran out of stack: the schema may"
                        + " loop through a form Rein does not follow")
                .hasMessageContaining("or the answer is nested too deeply")
                .hasMessageNotContaining("loops without reaching");
    }

    /**
     * rev126 asked that "#/..." inside a subschema with its own $id be read in that resource, not the root. networknt
     * 1.5.9, which checks answers, reads it in the root when the root has the pointer, and overflowed its stack on this
     * schema (seen with RefLoops so changed): so it stays refused when made, naming the loop the validator would run.
     */
    @Test
    void aPointerInsideASubschemaWithItsOwnIdIsReadInTheRootAsTheValidatorDoes() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OutputSchema.fromJson("R", "{\"$defs\":{\"a\":{\"$id\":"
                        + "\"urn:a\",\"$ref\":\"#/$defs/b\",\"$defs\":{\"b\":{\"type\":\"string\"}}},\"b\":{\"$ref\":"
                        + "\"#/$defs/a\"}},\"$ref\":\"#/$defs/b\"}"))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("#/$defs/b → #/$defs/a → #/$defs/b");
        // a pointer the root does not have is the subschema's own, for the validator too: no loop, checked as written
        OutputSchema own = OutputSchema.fromJson("R", "{\"$defs\":{\"a\":{\"$id\":\"urn:a\",\"$ref\":\"#/$defs/c\","
                + "\"$defs\":{\"c\":{\"type\":\"string\"}}},\"b\":{\"$ref\":\"#/$defs/a\"}},\"$ref\":\"#/$defs/b\"}");
        assertThat(own.problems("\"s\"")).isEmpty();
        assertThat(own.problems("1")).isNotEmpty();
    }

    /**
     * rev132: the compiled copy's anyOf lost its duplicate, so "inner#/anyOf/1" (a subschema with its own $id) pointed at
     * the integer branch: 5 was accepted and "s" refused, and "inner#/anyOf/2" could not be resolved. Now as written, as
     * the validator reads the schema itself.
     */
    @Test
    void aRefIntoAnAnyOfOfASubschemaWithItsOwnIdKeepsItsIndex() {
        String schema = "{\"$id\":\"https://example.com/root\",\"type\":\"object\",\"properties\":{\"p\":{\"$ref\":"
                + "\"inner#/anyOf/INDEX\"}},\"$defs\":{\"i\":{\"$id\":\"inner\",\"anyOf\":[{\"type\":\"string\"},"
                + "{\"type\":\"string\"},{\"type\":\"integer\"}]}}}";
        OutputSchema second = OutputSchema.fromJson("S", schema.replace("INDEX", "1"));
        assertThat(second.problems("{\"p\":\"s\"}")).isEmpty();
        assertThat(second.problems("{\"p\":5}")).containsExactly("$.p: integer found, string expected");
        OutputSchema third = OutputSchema.fromJson("S", schema.replace("INDEX", "2"));
        assertThat(third.problems("{\"p\":5}")).isEmpty();
        assertThat(third.problems("{\"p\":\"s\"}")).containsExactly("$.p: string found, integer expected");
    }

    /**
     * rev132: "#/$defs/s" inside a subschema with its own $id is that subschema's $defs/s, as the validator reads it with
     * or without a root $id; RefLoops looked it up in the root and refused the schema as a loop. Failed first: refused.
     */
    @Test
    void aPointerInsideASubschemaWithItsOwnIdIsLookedUpInThatSubschema() {
        String schema = "{\"$id\":\"https://example.com/root\",\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":"
                + "\"#/$defs/s\"}},\"$defs\":{\"s\":{\"$ref\":\"#/$defs/i\"},\"i\":{\"$id\":\"inner\",\"$defs\":{\"s\":"
                + "{\"type\":\"string\"}},\"allOf\":[{\"$ref\":\"#/$defs/s\"}]}}}";
        OutputSchema inner = OutputSchema.fromJson("S", schema);
        assertThat(inner.problems("{\"x\":\"s\"}")).isEmpty();
        assertThat(inner.problems("{\"x\":1}")).containsExactly("$.x: integer found, string expected");
        OutputSchema noRootId = OutputSchema.fromJson("S", schema.replace("\"$id\":\"https://example.com/root\",", "")
                .replace("\"inner\"", "\"urn:inner\""));
        assertThat(noRootId.problems("{\"x\":1}")).containsExactly("$.x: integer found, string expected");
    }

    /**
     * rev133: a draft-07 fragment-only {@code "$id": "#foo"} is an anchor, not a new base; RefLoops started a resource at
     * it, so "#/definitions/b" inside resolved under it and the loop through it was missed (the validator overflowed).
     * Failed first: no loop refused. A $ref to "#foo" is followed as an anchor too.
     */
    @Test
    void aLoopThroughAFragmentOnlyIdIsRefused() {
        String draft7 = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"definitions\":{\"a\":{\"$id\":\"#foo\","
                + "\"allOf\":[{\"$ref\":\"#/definitions/b\"}]},\"b\":{\"allOf\":[{\"$ref\":\"%s\"}]}},"
                + "\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/definitions/a\"}}}";
        for (String back : List.of("#/definitions/a", "#foo")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> OutputSchema.fromJson("Loop", draft7.formatted(back)).problems("{\"x\":1}")).as(back)
                    .isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageStartingWith("the output schema 'Loop' loops without reaching a property or item")
                    .hasMessageContaining("#/definitions/a");
        }
    }

    /**
     * rev132: an answer nested deeper than the validator's stack holds ended the run configuration_error, blaming the
     * schema; it is now a problem of the answer, which the model is asked to fix. Failed first: ConfigurationException.
     */
    @Test
    void anAnswerTooDeepForTheValidatorIsAProblemOfTheAnswer() throws Exception {
        OutputSchema deep = OutputSchema.fromJson("Deep", DEEP_SCHEMA);
        JsonNode value = deepNode(OVERFLOWING_DEPTH);
        List<String> problems = onSmallStack(() -> deep.problems(value));
        assertThat(problems).containsExactly("the answer is nested " + OVERFLOWING_DEPTH + " levels deep, more than the validator can check (it ran"
                + " out of stack): answer with fewer levels of nesting");
    }

    /**
     * rev133: a deep answer to a schema that loops through a form Rein does not follow ($ids "urn:a" and "urn:b" referring
     * to each other) was blamed on the answer; a shallow stand-in overflows too, so it is the schema's. Failed first: the
     * answer was told it is nested 900 levels deep.
     */
    @Test
    void aDeepAnswerToASchemaThatLoopsAnywayIsTheSchemasFault() {
        String looping = DEEP_SCHEMA.replace("{\"$defs\":{", "{\"allOf\":[{\"$ref\":\"urn:a\"}],\"$defs\":{\"a\":{\"$id\":"
                + "\"urn:a\",\"$ref\":\"urn:b\"},\"b\":{\"$id\":\"urn:b\",\"$ref\":\"urn:a\"},");
        OutputSchema schema = OutputSchema.fromJson("Loop", looping);
        JsonNode value = Json.parse(deep(900));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> onSmallStack(() -> schema.problems(value)))
                .hasCauseInstanceOf(dev.rein.ConfigurationException.class)
                .cause().hasMessageStartingWith("checking an answer against the output schema 'Loop' ran out of stack");
    }

    /** {@code {"n": {"n": ... 1}}}, {@code levels} objects deep. */
    static String deep(int levels) {
        return "{\"n\":".repeat(levels) + "1" + "}".repeat(levels);
    }
}
