package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.OutputSchema;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Typed final results over the Anthropic wire (fake server): valid, repaired after feedback, and invalid to the end. */
class TypedOutputTest extends FakeApi {
    /** The typed answer of these runs. */
    public record Verdict(String decision, int confidence, List<String> reasons) {}

    private Agent agent() {
        return Agent.builder().model(model).systemPrompt("You judge refund requests.").maxVerificationFailures(2).build();
    }

    @Test
    void aValidAnswerIsReturnedAsTheType() {
        server.enqueue(FakeReply.text("{\"decision\":\"refund\",\"confidence\":80,\"reasons\":[\"配送遅延\"]}"));

        RunResult result = agent().run("Should order A-104 be refunded?", Verdict.class);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Verdict.class)).isEqualTo(new Verdict("refund", 80, List.of("配送遅延")));
        String system = lastBody().at("/system/0/text").asText();
        assertThat(system).startsWith("You judge refund requests.").contains("JSON Schema (Verdict)").contains("\"confidence\"");
    }

    @Test
    void anInvalidAnswerIsShownToTheModelWithTheErrorsAndRepaired() {
        server.enqueue(FakeReply.text("{\"decision\":\"refund\",\"confidence\":\"high\"}"),
                FakeReply.text("```json\n{\"decision\":\"refund\",\"confidence\":90,\"reasons\":[]}\n```"));

        RunResult result = agent().run("Should order A-104 be refunded?", Verdict.class);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.output(Verdict.class).confidence()).isEqualTo(90);
        String feedback = server.requests().get(1).body().at("/messages/2/content/0/text").asText();
        assertThat(feedback).contains("not valid output").contains("confidence").contains("reasons");
    }

    @Test
    void anAnswerInvalidEveryTimeEndsFailedInvalidOutput() {
        server.enqueue(FakeReply.text("I think a refund is fair."), FakeReply.text("{\"decision\":1}"));

        RunResult result = agent().run("Should order A-104 be refunded?", Verdict.class);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.INVALID_OUTPUT);
        assertThat(result.message()).contains("2 times");
        assertThatThrownBy(() -> result.output(Verdict.class)).isInstanceOf(ReinException.class).hasMessageContaining("invalid_output");
    }

    @Test
    void aSchemaGivenAsJsonIsCheckedAndABadOneIsRefusedByName() {
        server.enqueue(FakeReply.text("{\"ok\":true}"));
        OutputSchema schema = OutputSchema.fromJson("flag",
                "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}},\"required\":[\"ok\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema).build().run("Is it ok?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThatThrownBy(() -> OutputSchema.fromJson("bad", "{\"type\":12}")).isInstanceOf(ReinException.class)
                .hasMessageContaining("'bad' is not a valid JSON Schema");
        assertThatThrownBy(() -> OutputSchema.fromJson("bad", "[1]")).hasMessageContaining("must be a JSON object");
    }

    @Test
    void withStructuredOutputEnabledTheSchemaIsSentAsOutputConfigAndStillValidated() {
        server.enqueue(FakeReply.text("{\"decision\":\"refund\",\"confidence\":70,\"reasons\":[]}"));

        RunResult result = Agent.builder().model(model).outputType(Verdict.class)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Refund?");

        assertThat(result.output(Verdict.class).confidence()).isEqualTo(70);
        assertThat(lastBody().at("/output_config/format/type").asText()).isEqualTo("json_schema");
        assertThat(lastBody().at("/output_config/format/schema/properties/confidence/type").asText()).isEqualTo("integer");
        assertThat(lastBody().at("/output_config/format/schema/required").toString()).contains("decision");
    }

    /** A sealed interface Jackson reads by its type id: the whole answer is one of its records (an anyOf at the top). */
    @com.fasterxml.jackson.annotation.JsonTypeInfo(use = com.fasterxml.jackson.annotation.JsonTypeInfo.Id.NAME, property = "kind")
    @com.fasterxml.jackson.annotation.JsonSubTypes({@com.fasterxml.jackson.annotation.JsonSubTypes.Type(value = Circle.class, name = "circle"),
            @com.fasterxml.jackson.annotation.JsonSubTypes.Type(value = Square.class, name = "square")})
    public sealed interface Shape permits Circle, Square {}

    public record Circle(double radius) implements Shape {}

    public record Square(double side) implements Shape {}

    /** A one-value class: the whole answer is a string. */
    public static final class Money {
        private final String amount;

        private Money(String amount) {
            this.amount = amount;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Money of(String amount) {
            return new Money(amount);
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String amount() {
            return amount;
        }
    }

    /**
     * The structured outputs docs list every basic type and anyOf as supported and ask nothing of the schema's top (the
     * tool input_schema, which must be an object, is another thing): a typed answer whose schema is not an object at its
     * top, a sealed interface's anyOf or a one-value class's string, is sent as it is.
     */
    @Test
    void aTopThatIsNotAnObjectIsSentAsItIs() {
        server.enqueue(FakeReply.text("{\"kind\":\"circle\",\"radius\":2.0}"), FakeReply.text("\"12.50 EUR\""));

        RunResult shape = Agent.builder().model(model).outputType(Shape.class)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Shape?");

        assertThat(shape.status()).as(shape.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(shape.output(Shape.class)).isEqualTo(new Circle(2.0));
        var sent = lastBody().at("/output_config/format/schema");
        assertThat(sent.has("anyOf")).as(sent.toString()).isTrue();
        assertThat(sent.at("/anyOf/0/additionalProperties").asBoolean(true)).as(sent.toString()).isFalse();

        RunResult money = Agent.builder().model(model).outputType(Money.class)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Price?");

        assertThat(money.status()).as(money.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(money.output(Money.class).amount()).isEqualTo("12.50 EUR");
        assertThat(lastBody().at("/output_config/format/schema/type").asText()).isEqualTo("string");
    }

    /** A typed answer with an object nested in a list. */
    public record Case(String id, List<Verdict> verdicts) {}

    /**
     * The structured outputs docs: every object schema needs {@code "additionalProperties": false} (the API refuses it
     * otherwise, and the official SDKs add it). The sent copy gets it on every object; Rein validates with the schema as
     * given.
     */
    @Test
    void theSentSchemaClosesEveryObjectAsTheApiRequires() {
        server.enqueue(FakeReply.text("{\"id\":\"A-1\",\"verdicts\":[{\"decision\":\"refund\",\"confidence\":7,\"reasons\":[]}]}"));

        RunResult result = Agent.builder().model(model).outputType(Case.class)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Judge case A-1");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var sent = lastBody().at("/output_config/format/schema");
        assertThat(sent.path("additionalProperties").asBoolean(true)).as("the top-level object").isFalse();
        assertThat(sent.toString().split("\"additionalProperties\":false", -1).length - 1)
                .as("the nested Verdict too, wherever it is defined").isGreaterThanOrEqualTo(2);
        assertThat(OutputSchema.of(Case.class).schema().has("additionalProperties"))
                .as("Rein's own schema is unchanged").isFalse();
    }

    /**
     * The docs list numerical, string-length and array-size constraints as unsupported (the SDKs take them out of the sent
     * schema): the sent copy leaves them out; the system prompt and Rein's validation keep them.
     */
    @Test
    void constraintsTheApiDoesNotSupportAreLeftOutOfTheSentSchemaButStillValidated() {
        server.enqueue(FakeReply.text("{\"n\":500,\"s\":\"x\",\"tags\":[]}"), FakeReply.text("{\"n\":5,\"s\":\"xyz\",\"tags\":[\"a\"]}"));
        OutputSchema schema = OutputSchema.fromJson("Limits", "{\"type\":\"object\",\"properties\":{"
                + "\"n\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":10},\"s\":{\"type\":\"string\",\"minLength\":3},"
                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,\"maxItems\":5}},"
                + "\"required\":[\"n\",\"s\",\"tags\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema).maxVerificationFailures(2)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Limits?");

        assertThat(result.status()).as("the first answer broke the limits and was repaired").isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requestCount()).isEqualTo(2);
        var sent = lastBody().at("/output_config/format/schema");
        assertThat(sent.toString()).doesNotContain("minimum").doesNotContain("maximum").doesNotContain("minLength")
                .doesNotContain("maxItems");
        assertThat(sent.at("/properties/tags/minItems").asInt()).as("minItems 0 or 1 is supported").isEqualTo(1);
        assertThat(lastBody().at("/system/0/text").asText()).as("the prompt shows the whole schema").contains("\"maximum\"");
    }

    /**
     * As the official SDK's transform_schema sends it: oneOf as anyOf, a format outside the supported list and the array
     * keywords the docs list as unsupported (uniqueItems, contains, minContains, maxContains) left out; Rein still
     * validates with the whole schema.
     */
    @Test
    void oneOfUnsupportedFormatsAndArrayKeywordsAreSentAsTheSdkSendsThem() {
        server.enqueue(FakeReply.text("{\"at\":\"2026-01-01T00:00:00Z\",\"mail\":\"a@b.c\",\"re\":\"x\",\"tags\":[\"a\"],"
                + "\"v\":1}"));
        OutputSchema schema = OutputSchema.fromJson("Mixed", "{\"type\":\"object\",\"properties\":{"
                + "\"at\":{\"type\":\"string\",\"format\":\"date-time\"},\"mail\":{\"type\":\"string\",\"format\":\"email\"},"
                + "\"re\":{\"type\":\"string\",\"format\":\"regex\"},"
                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"uniqueItems\":true,"
                + "\"contains\":{\"const\":\"a\"},\"minContains\":1,\"maxContains\":2},"
                + "\"v\":{\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}]}},"
                + "\"required\":[\"at\",\"mail\",\"re\",\"tags\",\"v\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Mixed?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var sent = lastBody().at("/output_config/format/schema/properties");
        assertThat(sent.at("/at/format").asText()).isEqualTo("date-time");
        assertThat(sent.at("/mail/format").asText()).isEqualTo("email");
        assertThat(sent.path("re").has("format")).as("regex is not a supported format").isFalse();
        assertThat(sent.path("tags").has("uniqueItems") || sent.path("tags").has("contains")
                || sent.path("tags").has("minContains") || sent.path("tags").has("maxContains")).isFalse();
        assertThat(sent.path("v").has("oneOf")).isFalse();
        assertThat(sent.at("/v/anyOf/1/type").asText()).isEqualTo("string");
    }

    /** An object that allows other properties cannot be sent (the API takes only false): refused before sending. */
    @Test
    void anObjectThatAllowsOtherPropertiesIsRefusedBeforeSendingWithWhatToChange() {
        OutputSchema schema = OutputSchema.fromJson("Open", "{\"type\":\"object\",\"properties\":{\"meta\":{\"type\":\"object\","
                + "\"additionalProperties\":{\"type\":\"string\"}}}}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Open?");

        assertThat(result.status()).isNotEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requestCount()).as("nothing was sent").isZero();
        assertThat(result.message()).contains("additionalProperties").contains("/properties/meta")
                .contains("AnthropicStructuredOutput");
    }

    /**
     * The sent copy says anyOf where the schema says oneOf, but a refusal names the place in the schema as given: the
     * path of an open object under a oneOf says oneOf.
     */
    @Test
    void aRefusalUnderAOneOfNamesThePlaceAsTheSchemaSaysIt() {
        OutputSchema schema = OutputSchema.fromJson("Either", "{\"type\":\"object\",\"properties\":{\"v\":{\"oneOf\":["
                + "{\"type\":\"string\"},{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}]}}}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Either?");

        assertThat(server.requestCount()).as("nothing was sent").isZero();
        assertThat(result.message()).contains("at /properties/v/oneOf/1 ").doesNotContain("anyOf");
    }

    /**
     * A property name is one step of a JSON Pointer (RFC 6901): '~' is written ~0 and '/' ~1, so a property named a/b is
     * not taken for two steps.
     */
    @Test
    void aRefusalsPathEscapesPropertyNamesAsAJsonPointer() {
        OutputSchema schema = OutputSchema.fromJson("Slashes", "{\"type\":\"object\",\"properties\":{\"a/b\":{"
                + "\"type\":\"object\",\"properties\":{\"c~d\":{\"type\":\"object\"}}}}}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Slashes?");

        assertThat(server.requestCount()).as("nothing was sent").isZero();
        assertThat(result.message()).contains("at /properties/a~1b/properties/c~0d ");
    }

    /**
     * The API takes anyOf and allOf but no oneOf; a schema with both anyOf and oneOf on one node cannot have its oneOf
     * renamed to anyOf, so it is sent as one more allOf entry (both must hold, as in the schema), and no oneOf is sent.
     */
    @Test
    void aNodeWithBothAnyOfAndOneOfSendsTheOneOfAsAnAllOfEntry() {
        server.enqueue(FakeReply.text("{\"v\":1,\"w\":1}"));
        OutputSchema schema = OutputSchema.fromJson("Both", "{\"type\":\"object\",\"properties\":{"
                + "\"v\":{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}],"
                + "\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"boolean\"}]},"
                + "\"w\":{\"allOf\":[{\"type\":\"integer\"}],\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}],"
                + "\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"boolean\"}]}},"
                + "\"required\":[\"v\",\"w\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Both?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        var sent = lastBody().at("/output_config/format/schema/properties");
        assertThat(sent.toString()).doesNotContain("oneOf");
        assertThat(sent.at("/v/anyOf/1/type").asText()).isEqualTo("string");
        assertThat(sent.at("/v/allOf/0/anyOf/1/type").asText()).isEqualTo("boolean");
        assertThat(sent.at("/w/allOf/0/type").asText()).as("the allOf given is kept").isEqualTo("integer");
        assertThat(sent.at("/w/allOf/1/anyOf/1/type").asText()).isEqualTo("boolean");
    }

    /**
     * A oneOf moved to an allOf entry (its node has an anyOf) would put its $ref under allOf, which the API's structured
     * outputs do not support: refused before sending, naming the $ref as given. A oneOf renamed to anyOf (no anyOf
     * beside it) may hold a $ref and is sent.
     */
    @Test
    void aOneOfMovedUnderAllOfThatHoldsARefIsRefusedBeforeSending() {
        OutputSchema schema = OutputSchema.fromJson("Both", "{\"type\":\"object\",\"$defs\":{\"Flag\":{\"type\":"
                + "\"boolean\"},\"Box\":{\"type\":\"object\",\"properties\":{\"f\":{\"$ref\":\"#/$defs/Flag\"}},"
                + "\"required\":[\"f\"]}},\"properties\":{"
                + "\"v\":{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}],"
                + "\"oneOf\":[{\"type\":\"integer\"},{\"$ref\":\"#/$defs/Flag\"}]},"
                + "\"w\":{\"anyOf\":[{\"type\":\"integer\"},{\"type\":\"string\"}],"
                + "\"oneOf\":[{\"type\":\"integer\"},{\"type\":\"object\",\"properties\":{\"b\":{\"$ref\":"
                + "\"#/$defs/Box\"}},\"required\":[\"b\"]}]}},\"required\":[\"v\",\"w\"]}");
        for (var c : List.of(new String[] {"v", "/properties/v/oneOf/1/$ref"},
                new String[] {"w", "/properties/w/oneOf/1/properties/b/$ref"})) {
            var json = (com.fasterxml.jackson.databind.node.ObjectNode) schema.schema().deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("properties")).remove(c[0].equals("v") ? "w" : "v");
            json.putArray("required").add(c[0]);

            RunResult result = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Both", json.toString()))
                    .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Both?");

            assertThat(result.status()).as(c[0]).isNotEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.message()).as(c[0]).contains(c[1] + " ").contains("allOf").contains("$ref")
                    .contains("AnthropicStructuredOutput");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();

        server.enqueue(FakeReply.text("{\"v\":true}"));
        RunResult renamed = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("One", "{\"type\":\"object\","
                        + "\"$defs\":{\"Flag\":{\"type\":\"boolean\"}},\"properties\":{\"v\":{\"oneOf\":[{\"type\":"
                        + "\"integer\"},{\"$ref\":\"#/$defs/Flag\"}]}},\"required\":[\"v\"]}"))
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("One?");

        assertThat(renamed.status()).as(renamed.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/output_config/format/schema/properties/v/anyOf/1/$ref").asText())
                .isEqualTo("#/$defs/Flag");
    }

    /**
     * The structured outputs docs list "allOf (with limitations - allOf with $ref not supported)": a schema's own allOf
     * holding a $ref (as an entry, deeper, or in a definition) is refused before sending, as the rewrite's is, with the
     * place as a JSON Pointer into the schema as given; an allOf without one is sent.
     */
    @Test
    void aSchemasOwnAllOfThatHoldsARefIsRefusedBeforeSending() {
        String defs = "\"$defs\":{\"Flag\":{\"type\":\"boolean\"},\"Both\":{\"allOf\":[{\"type\":\"object\","
                + "\"properties\":{\"f\":{\"$ref\":\"#/$defs/Flag\"}},\"required\":[\"f\"]}]}}";
        for (var c : List.of(
                new String[] {"{\"type\":\"object\"," + defs + ",\"properties\":{\"v\":{\"allOf\":[{\"$ref\":"
                        + "\"#/$defs/Flag\"}]}},\"required\":[\"v\"]}", "/properties/v/allOf/0/$ref"},
                new String[] {"{\"type\":\"object\"," + defs + ",\"properties\":{\"v\":{\"type\":\"object\",\"allOf\":"
                        + "[{\"properties\":{\"a~/b\":{\"$ref\":\"#/$defs/Flag\"}}}],\"properties\":{\"a~/b\":{}}}},"
                        + "\"required\":[\"v\"]}", "/properties/v/allOf/0/properties/a~0~1b/$ref"},
                new String[] {"{\"type\":\"object\"," + defs + ",\"properties\":{\"v\":{\"$ref\":\"#/$defs/Both\"}},"
                        + "\"required\":[\"v\"]}", "/$defs/Both/allOf/0/properties/f/$ref"})) {
            RunResult result = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Own", c[0]))
                    .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Own?");

            assertThat(result.status()).as(c[1]).isNotEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.message()).as(c[1]).contains("the output schema Own has an allOf")
                    .contains(" holds a $ref at " + c[1] + " ")
                    .contains("the structured outputs docs list \"allOf with $ref\" as not supported; Rein reads that"
                            + " cautiously as any $ref under an allOf, deeper ones too")
                    .contains("write the referenced schema out in place of the $ref")
                    .contains("AnthropicStructuredOutput off");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();

        server.enqueue(FakeReply.text("{\"v\":true}"));
        RunResult plain = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Plain", "{\"type\":\"object\","
                        + "\"properties\":{\"v\":{\"allOf\":[{\"type\":\"boolean\"}]}},\"required\":[\"v\"]}"))
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Plain?");

        assertThat(plain.status()).as(plain.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/output_config/format/schema/properties/v/allOf/0/type").asText()).isEqualTo("boolean");
    }

    /**
     * A $defs entry no $ref reaches is refused like any other (Rein does not bet that the API ignores unreferenced
     * entries): the allOf holding a $ref in it, and its anyOf+oneOf one, were sent as given.
     */
    @Test
    void anAllOfWithARefInADefsEntryNoRefReachesIsRefusedToo() {
        String unused = "{\"type\":\"object\",\"$defs\":{\"Flag\":{\"type\":\"boolean\"},"
                + "\"Unused\":{\"allOf\":[{\"$ref\":\"#/$defs/Flag\"}]}},\"properties\":{\"v\":{\"type\":\"boolean\"}},"
                + "\"required\":[\"v\"]}";
        RunResult allOf = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Own", unused))
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Own?");

        assertThat(allOf.status()).isNotEqualTo(RunStatus.SUCCEEDED);
        assertThat(allOf.message()).contains("has an allOf at /$defs/Unused that holds a $ref at"
                + " /$defs/Unused/allOf/0/$ref ");

        String both = "{\"type\":\"object\",\"definitions\":{\"Flag\":{\"type\":\"boolean\"},"
                + "\"AlsoUnused\":{\"anyOf\":[{\"type\":\"boolean\"}],\"oneOf\":[{\"$ref\":\"#/definitions/Flag\"}]}},"
                + "\"properties\":{\"v\":{\"type\":\"boolean\"}},\"required\":[\"v\"]}";
        RunResult oneOf = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Own", both))
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Own?");

        assertThat(oneOf.status()).isNotEqualTo(RunStatus.SUCCEEDED);
        assertThat(oneOf.message()).contains("has both anyOf and oneOf at /definitions/AlsoUnused")
                .contains("holds a $ref at /definitions/AlsoUnused/oneOf/0/$ref ");
        assertThat(server.requestCount()).as("neither was sent").isZero();
    }

    /** A keyword that holds schemas, its shape (one schema, an array of them, a map of names to them) as a place. */
    private static com.fasterxml.jackson.databind.JsonNode placed(String keyword, com.fasterxml.jackson.databind.JsonNode inner) {
        var factory = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        return switch (keyword) {
            case "anyOf", "allOf", "oneOf", "prefixItems" -> factory.arrayNode().add(inner);
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies" ->
                    factory.objectNode().set("x", inner);
            default -> inner;
        };
    }

    /** The step(s) of a JSON Pointer that {@link #placed} puts its schema at. */
    private static String placedAt(String keyword) {
        return switch (keyword) {
            case "anyOf", "allOf", "oneOf", "prefixItems" -> "/" + keyword + "/0";
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies" ->
                    "/" + keyword + "/x";
            default -> "/" + keyword;
        };
    }

    /** Runs with the output schema {"type":"object","$defs":{"Flag":...},"properties":{"v": v}}; nothing is answered. */
    private RunResult runWithV(com.fasterxml.jackson.databind.JsonNode v) {
        var schema = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse("{\"type\":\"object\","
                + "\"$defs\":{\"Flag\":{\"type\":\"boolean\"}},\"required\":[\"v\"]}");
        schema.putObject("properties").set("v", v);
        return Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Own", schema.toString()))
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Own?");
    }

    /**
     * Every keyword that holds a schema (JSON Schema 2020-12's applicators and unevaluated*, and the earlier drafts'
     * additionalItems, dependencies and definitions) is walked: an allOf holding a $ref beneath any of them
     * is found, and so is a $ref beneath any of them inside an allOf, named by its JSON Pointer as given.
     */
    @Test
    void anAllOfWithARefIsFoundBeneathEveryKeywordThatHoldsASchema() {
        List<String> keywords = List.of("items", "additionalItems", "not", "if", "then", "else", "propertyNames",
                "unevaluatedItems", "unevaluatedProperties", "additionalProperties", "anyOf", "allOf", "oneOf",
                "prefixItems", "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
                "dependencies");
        var refToFlag = Json.parse("{\"$ref\":\"#/$defs/Flag\"}");
        for (String keyword : keywords) {
            if (!List.of("allOf", "additionalProperties", "unevaluatedProperties").contains(keyword)) {
                // an allOf holding a $ref beneath the keyword (an allOf's own, and an additionalProperties or, on an
                // object Rein closes, an unevaluatedProperties other than false, have refusals of their own)
                var v = Json.object().put("type", "object");
                v.putObject("properties");
                v.set(keyword, placed(keyword, Json.object().set("allOf",
                        Json.mapper().createArrayNode().add(refToFlag))));
                withIf(v, keyword);
                RunResult result = runWithV(v);

                String at = "/properties/v" + placedAt(keyword);
                assertThat(result.message()).as("allOf beneath " + keyword)
                        .contains("has an allOf at " + at + " that holds a $ref at " + at + "/allOf/0/$ref ");
            }
            // a $ref beneath the keyword in an allOf entry
            var entry = Json.object().put("type", "object");
            entry.putObject("properties");
            entry.set(keyword, placed(keyword, refToFlag));
            withIf(entry, keyword);
            var v = Json.object();
            v.putArray("allOf").add(entry);
            RunResult result = runWithV(v);

            assertThat(result.message()).as("$ref beneath " + keyword + " in an allOf")
                    .contains("has an allOf at /properties/v that holds a $ref at /properties/v/allOf/0"
                            + placedAt(keyword) + "/$ref ");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();
    }

    /** A then or else with an if beside it: without one, the sent copy leaves them out (the spec ignores them). */
    private static void withIf(com.fasterxml.jackson.databind.node.ObjectNode node, String keyword) {
        if (keyword.equals("then") || keyword.equals("else")) {
            node.putObject("if");
        }
    }

    /** A $dynamicRef (2020-12) or $recursiveRef (2019-09) is a reference as a $ref is: refused under an allOf the same. */
    @Test
    void aDynamicOrRecursiveRefUnderAnAllOfIsRefusedAsARefIs() {
        for (String ref : List.of("$dynamicRef", "$recursiveRef")) {
            var v = Json.object();
            v.putArray("allOf").addObject().put("type", "object").putObject("properties").putObject("w")
                    .put(ref, ref.equals("$dynamicRef") ? "#/$defs/Flag" : "#");
            RunResult result = runWithV(v);

            assertThat(result.status()).as(ref).isNotEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.message()).as(ref).contains("has an allOf at /properties/v that holds a " + ref
                    + " at /properties/v/allOf/0/properties/w/" + ref + " ")
                    .contains("write the referenced schema out in place of the " + ref)
                    .contains("AnthropicStructuredOutput off");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();
    }

    /**
     * A contains is left out of the sent copy (the docs list it as unsupported), so a $ref in it under an allOf is never
     * sent under an allOf: the schema is sent, without the contains.
     */
    @Test
    void aRefInAContainsUnderAnAllOfIsSentWithTheContainsLeftOut() {
        server.enqueue(FakeReply.text("{\"v\":[true]}"));
        var v = Json.object();
        v.putArray("allOf").addObject().put("type", "array").<com.fasterxml.jackson.databind.node.ObjectNode>set("items",
                Json.object().put("type", "boolean"))
                .set("contains", Json.parse("{\"$ref\":\"#/$defs/Flag\"}"));

        RunResult result = runWithV(v);

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/output_config/format/schema/properties/v/allOf/0").toString())
                .isEqualTo("{\"type\":\"array\",\"items\":{\"type\":\"boolean\"}}");
    }

    /**
     * A condition's schema (under not, if, then, else, propertyNames, dependentSchemas, dependencies) is not a value's
     * shape: closing it would change what it says (a dependentSchemas entry applies to the whole object and does not list
     * its trigger, so closed it could never hold), so it goes as given, what is under it too; an allOf entry and the
     * object itself are closed.
     */
    @Test
    void aConditionsSchemaIsSentUnclosedWhileTheObjectAndAnAllOfEntryAreClosed() {
        server.enqueue(FakeReply.text("{\"v\":{\"a\":\"x\",\"b\":\"y\"}}"));
        String conditions = "\"dependentSchemas\":{\"a\":{\"properties\":{\"b\":{\"type\":\"string\"}},"
                + "\"required\":[\"b\"]}},"
                + "\"dependencies\":{\"b\":{\"properties\":{\"a\":{\"type\":\"string\"}}}},"
                + "\"not\":{\"properties\":{\"c\":{\"type\":\"object\",\"properties\":{\"d\":{\"type\":\"string\"}}}},"
                + "\"required\":[\"c\"]},"
                + "\"if\":{\"properties\":{\"a\":{\"const\":\"x\"}}},"
                + "\"then\":{\"properties\":{\"b\":{\"type\":\"string\"}}},"
                + "\"else\":{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"string\"}}},"
                + "\"propertyNames\":{\"type\":\"string\"}";
        // the entry lists b too: closed alone, one that did not could hold no answer with a b (rev94)
        String entry = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}}";
        var v = Json.parse("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
                + "\"b\":{\"type\":\"string\"}}," + conditions + ",\"allOf\":[" + entry + "}]}");

        RunResult result = runWithV(v);

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/output_config/format/schema/properties/v").toString()).isEqualTo(
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}},"
                        + conditions + ",\"allOf\":[" + entry + ",\"additionalProperties\":false}],"
                        + "\"additionalProperties\":false}");
    }

    /**
     * A $dynamicRef or $recursiveRef says what the value is as a $ref does: such a schema is sent as given, not refused
     * as a value of any type.
     */
    @Test
    void aDynamicOrRecursiveRefSaysTheValuesKindAsARefDoes() {
        for (String ref : List.of("$dynamicRef", "$recursiveRef")) {
            var schema = OutputSchema.fromJson("Own", "{\"type\":\"object\",\"$defs\":{\"F\":{\"$dynamicAnchor\":"
                    + "\"f\",\"type\":\"boolean\"}},\"properties\":{\"v\":{\"" + ref + "\":\"#f\"}},"
                    + "\"required\":[\"v\"]}");

            assertThat(RequestMapper.sentSchema(schema).toString()).as(ref).isEqualTo("{\"type\":\"object\",\"$defs\":"
                    + "{\"F\":{\"$dynamicAnchor\":\"f\",\"type\":\"boolean\"}},\"properties\":{\"v\":{\"" + ref
                    + "\":\"#f\"}},\"required\":[\"v\"],\"additionalProperties\":false}");
        }
    }

    /**
     * An empty schema under unevaluatedProperties, unevaluatedItems or additionalItems is their default and says nothing:
     * it is left out of the sent copy, not refused as a value of any type.
     */
    @Test
    void anEmptySchemaUnderUnevaluatedOrAdditionalItemsIsLeftOutNotRefused() {
        String[][] cases = {
            {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"t\":{\"type\":\"array\","
                    + "\"prefixItems\":[{\"type\":\"string\"}],\"unevaluatedItems\":{}}},\"required\":[\"a\",\"t\"],"
                    + "\"unevaluatedProperties\":{}}",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"t\":{\"type\":\"array\","
                    + "\"prefixItems\":[{\"type\":\"string\"}]}},\"required\":[\"a\",\"t\"],"
                    + "\"additionalProperties\":false}"},
            {"{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{"
                    + "\"a\":{\"type\":\"string\"},\"t\":{\"type\":\"array\",\"items\":[{\"type\":\"string\"}],"
                    + "\"additionalItems\":{}}},\"required\":[\"a\",\"t\"]}",
                "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":{"
                    + "\"a\":{\"type\":\"string\"},\"t\":{\"type\":\"array\",\"items\":[{\"type\":\"string\"}]}},"
                    + "\"required\":[\"a\",\"t\"],\"additionalProperties\":false}"}};
        for (String[] c : cases) {
            server.enqueue(FakeReply.text("{\"a\":\"x\",\"t\":[\"s\"]}"));

            RunResult result = Agent.builder().model(model).outputSchema(OutputSchema.fromJson("Own", c[0]))
                    .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Own?");

            assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(lastBody().at("/output_config/format/schema").toString()).isEqualTo(c[1]);
        }
    }

    public record Tagged(String id, java.util.Map<String, String> labels) {}

    public record Loose(String id, java.util.Map<String, Object> extra) {}

    public record AnyNode(String id, com.fasterxml.jackson.databind.JsonNode extra) {}

    public record AnyObject(String id, List<Object> extras) {}

    public record Rows(List<java.util.Map<String, Integer>> rows) {}

    /**
     * A {@code Map<String, Object>} field is generated as a bare {@code {"type":"object"}}; sent closed, the model could
     * only answer {@code {}} there and the data would be lost while the run succeeded: refused before sending instead.
     * The refusal names only what generates such an object now (a Map of other values has their schema, an empty record
     * is closed).
     */
    @Test
    void anObjectListingNoPropertiesIsRefusedBeforeSendingNotClosedToEmpty() {
        for (var c : List.<Object[]>of(new Object[] {Loose.class, "/properties/extra"})) {
            RunResult result = Agent.builder().model(model).outputType((Class<?>) c[0])
                    .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Fill it");

            assertThat(result.status()).as(c[0].toString()).isNotEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.message()).as(c[0].toString()).contains((String) c[1]).contains("lists no \"properties\"")
                    .contains("Map<String, Object>").doesNotContain("JsonNode").doesNotContain("empty record")
                    .contains("AnthropicStructuredOutput");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();
    }

    /**
     * A JsonNode or Object field (and a JsonNode answer) is generated as {@code {}}, any JSON value, which has none of
     * type, anyOf, oneOf, allOf: the API refuses such a schema with a 400, so Rein refuses it before sending, naming the
     * place and what to do.
     */
    @Test
    void aValueOfAnyTypeIsRefusedBeforeSending() {
        for (var c : List.<Object[]>of(new Object[] {AnyNode.class, "at /properties/extra "},
                new Object[] {AnyObject.class, "at /properties/extras/items "},
                new Object[] {com.fasterxml.jackson.databind.JsonNode.class, "at its top "})) {
            RunResult result = Agent.builder().model(model).outputType((Class<?>) c[0])
                    .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Fill it");

            assertThat(result.status()).as(c[0].toString()).isNotEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.message()).as(c[0].toString()).contains((String) c[1])
                    .contains("a JsonNode or Object field takes any value, which structured outputs cannot express")
                    .contains("use a record").contains("AnthropicStructuredOutput");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();
    }

    /**
     * A Map field (also inside a List) is generated with its values' schema as {@code additionalProperties}: refused as
     * an object that may hold other properties, not as one that lists none.
     */
    @Test
    void aMapIsRefusedAsAnObjectAllowingOtherProperties() {
        for (var c : List.of(new Object[] {Tagged.class, "/properties/labels"},
                new Object[] {Rows.class, "/properties/rows/items"})) {
            RunResult result = Agent.builder().model(model).outputType((Class<?>) c[0])
                    .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Fill it");

            assertThat(result.status()).as(c[0].toString()).isNotEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.message()).as(c[0].toString()).contains((String) c[1])
                    .contains("hold other properties (\"additionalProperties\": {")
                    .contains("a record instead of a Map").contains("AnthropicStructuredOutput")
                    .doesNotContain("lists no");
        }
        assertThat(server.requestCount()).as("nothing was sent").isZero();
    }

    public record Nothing() {}

    public record Receipt(String id, Nothing note) {}

    /** An empty record is generated as a closed empty object, so a typed run with one is sent with structured output. */
    @Test
    void aTypedRunWithAnEmptyRecordIsSentWithStructuredOutput() {
        server.enqueue(FakeReply.text("{}"));
        RunResult top = Agent.builder().model(model).outputType(Nothing.class)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Nothing?");

        assertThat(top.status()).as(top.message()).isEqualTo(RunStatus.SUCCEEDED);
        var sent = lastBody().at("/output_config/format/schema");
        assertThat(sent.at("/properties").isObject()).as(sent.toString()).isTrue();
        assertThat(sent.at("/properties").isEmpty()).isTrue();
        assertThat(sent.at("/additionalProperties").asBoolean(true)).isFalse();

        server.enqueue(FakeReply.text("{\"id\":\"注文-1\",\"note\":{}}"));
        RunResult nested = Agent.builder().model(model).outputType(Receipt.class)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Receipt?");

        assertThat(nested.status()).as(nested.message()).isEqualTo(RunStatus.SUCCEEDED);
        var note = lastBody().at("/output_config/format/schema");
        assertThat(note.toString()).as("the empty record's object is sent closed")
                .contains("\"properties\":{}").doesNotContain("\"additionalProperties\":true");
        assertThat(server.requestCount()).isEqualTo(2);
    }

    /** An object whose properties are written out, even as none, is closed and sent. */
    @Test
    void anObjectWithPropertiesWrittenOutEvenEmptyIsSentClosed() {
        server.enqueue(FakeReply.text("{}"));
        OutputSchema schema = OutputSchema.fromJson("Ack", "{\"type\":\"object\",\"properties\":{}}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Ack?");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastBody().at("/output_config/format/schema/additionalProperties").asBoolean(true)).isFalse();
    }

    @Test
    void withoutTheOptInNoOutputConfigIsSent() {
        server.enqueue(FakeReply.text("{\"decision\":\"no\",\"confidence\":1,\"reasons\":[]}"));
        agent().run("Refund?", Verdict.class);
        assertThat(lastBody().has("output_config")).isFalse();
    }
}
