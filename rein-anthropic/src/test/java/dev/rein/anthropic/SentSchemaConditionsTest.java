package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.OutputSchema;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sent copy of an output schema around conditions (not, if/then/else, dependentSchemas), unevaluatedProperties and
 * boolean schemas: not stricter there than the schema given, and refused where it would be; generated schemas unchanged.
 */
class SentSchemaConditionsTest extends FakeApi {
    private static String sent(String schema) {
        return RequestMapper.sentSchema(OutputSchema.fromJson("S", schema)).toString();
    }

    private static String refusal(String schema) {
        try {
            RequestMapper.sentSchema(OutputSchema.fromJson("S", schema));
        } catch (ReinException e) {
            return e.getMessage();
        }
        throw new AssertionError("not refused: " + schema);
    }

    /**
     * A constraint left out under a not makes the not stricter ("not": {} holds for no value), and one left out under an
     * if makes it match more often (so its then applies where it should not): such a not, or if with its then and else,
     * is left out of the sent copy as a whole (looser, not stricter); Rein still validates the answer against it.
     */
    @Test
    void aNotOrIfThatWouldLoseAConstraintIsLeftOutNotTightened() {
        String[][] cases = {
            {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"not\":{\"maxLength\":3}}}}",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"additionalProperties\":false}"},
            {"{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"not\":{\"not\":{\"minimum\":1}}}}}",
                "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},\"additionalProperties\":false}"},
            {"{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"},\"b\":{\"type\":\"string\"},\"c\":{\"type\":"
                    + "\"string\"}},\"if\":{\"properties\":{\"n\":{\"minimum\":10}}},\"then\":{\"required\":[\"b\"]},"
                    + "\"else\":{\"required\":[\"c\"]}}",
                "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"},\"b\":{\"type\":\"string\"},\"c\":{\"type\":"
                    + "\"string\"}},\"additionalProperties\":false}"},
            {"{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"},\"b\":{\"type\":\"string\"}},\"if\":"
                    + "{\"properties\":{\"n\":{\"const\":1}}},\"then\":{\"properties\":{\"b\":{\"maxLength\":2}}}}",
                "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"},\"b\":{\"type\":\"string\"}},"
                    + "\"additionalProperties\":false}"},
            {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}},\"if\":{\"oneOf\":"
                    + "[{\"required\":[\"a\"]},{\"required\":[\"b\"]}]},\"then\":{\"required\":[\"a\"]}}",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}},"
                    + "\"additionalProperties\":false}"},
            {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"not\":{\"format\":\"ipv4\"}}}}",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"not\":{\"format\":\"ipv4\"}}},"
                    + "\"additionalProperties\":false}"}};
        for (String[] c : cases) {
            assertThat(sent(c[0])).as(c[0]).isEqualTo(c[1]);
        }
    }

    /** The not left out of the sent copy is still Rein's: an answer breaking it is sent back and repaired. */
    @Test
    void aNotLeftOutOfTheSentCopyIsStillValidated() {
        server.enqueue(FakeReply.text("{\"a\":\"ab\"}"), FakeReply.text("{\"a\":\"abcd\"}"));
        OutputSchema schema = OutputSchema.fromJson("Long", "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":"
                + "\"string\",\"not\":{\"maxLength\":3}}},\"required\":[\"a\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema).maxVerificationFailures(2)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Long?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server.requestCount()).as("the first answer broke the not").isEqualTo(2);
        assertThat(lastBody().at("/output_config/format/schema/properties/a").toString())
                .isEqualTo("{\"type\":\"string\"}");
    }

    /**
     * A $ref in a condition names a schema that is sent as a value's own (closed, asked to say its kind), which would
     * change the condition: refused with its own message, not the misleading "says nothing of the value's kind".
     */
    @Test
    void aRefInsideAConditionIsRefusedWithItsOwnMessage() {
        String obj = "\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}}";
        String[][] cases = {
            {"{" + obj + ",\"not\":{\"$ref\":\"#/$defs/OnlyA\"},\"$defs\":{\"OnlyA\":{\"properties\":{\"a\":{\"const\":"
                    + "\"x\"}},\"required\":[\"a\"]}}}", "a $ref at /not/$ref, inside the not at /not,"},
            {"{" + obj + ",\"if\":{\"$ref\":\"#/$defs/A\"},\"then\":{\"required\":[\"b\"]},\"$defs\":{\"A\":{\"type\":"
                    + "\"object\",\"properties\":{\"a\":{\"const\":\"x\"}}}}}", "a $ref at /if/$ref, inside the if at /if,"},
            {"{" + obj + ",\"dependentSchemas\":{\"a\":{\"properties\":{\"b\":{\"$ref\":\"#/$defs/B\"}}}},\"$defs\":"
                    + "{\"B\":{\"type\":\"string\",\"maxLength\":3}}}",
                "a $ref at /dependentSchemas/a/properties/b/$ref, inside the dependentSchemas at /dependentSchemas/a,"}};
        for (String[] c : cases) {
            assertThat(refusal(c[0])).as(c[0]).contains(c[1]).contains("write the referenced schema out in place of"
                    + " the $ref").contains("AnthropicStructuredOutput").doesNotContain("says nothing");
        }
    }

    /**
     * A "#/..." reference in a condition is read, as JSON Schema 2020-12 resolves it, from the schema holding the nearest
     * $id above it: the check read it from the top, so a $ref under a nested $id naming that schema's own $defs/B (with a
     * maxLength the copy leaves out) was judged by the top's $defs/B (a plain string) and sent, changing the condition.
     */
    @Test
    void aRefInAConditionIsReadFromTheNearestIdAboveIt() {
        String obj = "\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}}";
        String top = "\"$defs\":{\"B\":{\"type\":\"string\"}}";
        String underId = "{" + obj + ",\"dependentSchemas\":{\"a\":{\"$id\":\"https://example.com/dep\",\"$defs\":{\"B\":"
                + "{\"type\":\"string\",\"maxLength\":3}},\"properties\":{\"b\":{\"$ref\":\"#/$defs/B\"}}}}," + top + "}";
        assertThat(refusal(underId)).contains("a $ref at /dependentSchemas/a/properties/b/$ref, inside the dependentSchemas"
                + " at /dependentSchemas/a,");
        // the same without the $id names the top's plain string, which is sent as given
        String noId = underId.replace("\"$id\":\"https://example.com/dep\",", "");
        assertThat(sent(noId)).contains("\"$ref\":\"#/$defs/B\"");
        // and a $ref under an $id whose own $defs/B is sent as given is not refused for the top's
        String topLoses = "{" + obj + ",\"dependentSchemas\":{\"a\":{\"$id\":\"https://example.com/dep\",\"$defs\":{\"B\":"
                + "{\"type\":\"string\"}},\"properties\":{\"b\":{\"$ref\":\"#/$defs/B\"}}}},\"$defs\":{\"B\":{\"type\":"
                + "\"string\",\"maxLength\":3}}}";
        assertThat(sent(topLoses)).contains("\"$ref\":\"#/$defs/B\"");
    }

    /**
     * An unevaluatedProperties schema lets the object hold other properties of that schema, which the sent
     * "additionalProperties": false would forbid: refused as an additionalProperties schema is. A true schema is handled
     * as {} is: left out under unevaluatedProperties/unevaluatedItems, refused where a value's kind is asked for.
     */
    @Test
    void unevaluatedPropertiesWithASchemaIsRefusedAndTrueIsHandledAsAnEmptySchema() {
        String obj = "\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}";
        assertThat(refusal("{" + obj + ",\"unevaluatedProperties\":{\"type\":\"string\"}}"))
                .contains("lets the object at its top hold other properties (\"unevaluatedProperties\":"
                        + " {\"type\":\"string\"})").contains("AnthropicStructuredOutput");
        assertThat(sent("{" + obj + ",\"unevaluatedProperties\":true}"))
                .isEqualTo("{" + obj + ",\"additionalProperties\":false}");
        assertThat(sent("{" + obj + ",\"unevaluatedProperties\":false}"))
                .isEqualTo("{" + obj + ",\"unevaluatedProperties\":false,\"additionalProperties\":false}");
        assertThat(sent("{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}],\"unevaluatedItems\":true}"))
                .isEqualTo("{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}]}");
        assertThat(refusal("{\"type\":\"array\",\"items\":true}"))
                .contains("has a schema at /items that says nothing of the value's kind (true:");
        assertThat(refusal("{\"type\":\"object\",\"properties\":{\"a\":true}}"))
                .contains("has a schema at /properties/a that says nothing of the value's kind (true:");
        assertThat(sent("{\"type\":\"object\",\"properties\":{\"a\":false}}"))
                .isEqualTo("{\"type\":\"object\",\"properties\":{\"a\":false},\"additionalProperties\":false}");
        assertThat(sent("{" + obj + ",\"not\":true}")).isEqualTo("{" + obj + ",\"not\":true,\"additionalProperties\":false}");
    }

    /**
     * A then or else (or dependentSchemas entry, or the names a dependentRequired or draft-07 dependencies entry
     * requires) naming a property the object does not list cannot hold once the object is sent closed: refused naming
     * the property.
     */
    @Test
    void aPropertyOnlyAConditionNamesIsRefusedNamingIt() {
        String top = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"],\"if\":"
                + "{\"properties\":{\"a\":{\"const\":\"x\"}}},";
        for (String[] c : List.of(
                new String[] {top + "\"then\":{\"properties\":{\"c\":{\"type\":\"string\"}},\"required\":[\"c\"]}}",
                    "the then at /then names the property \"c\""},
                new String[] {top + "\"then\":{},\"else\":{\"required\":[\"d\"]}}", "the else at /else names the property \"d\""},
                new String[] {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"dependentSchemas\":"
                    + "{\"a\":{\"required\":[\"e\"]}}}", "the dependentSchemas at /dependentSchemas/a names the property \"e\""},
                new String[] {"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"dependentRequired\":"
                    + "{\"a\":[\"f\"]}}", "the dependentRequired at /dependentRequired/a names the property \"f\""},
                new String[] {"{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\",\"properties\":"
                    + "{\"a\":{\"type\":\"string\"}},\"dependencies\":{\"a\":[\"g\"]}}",
                    "the dependencies at /dependencies/a names the property \"g\""})) {
            assertThat(refusal(c[0])).as(c[0]).contains(c[1]).contains("does not list").contains("AnthropicStructuredOutput");
        }
    }

    /**
     * Nothing found confirms that the API takes not, if, $dynamicRef or dependentSchemas: a keyword it does not take is
     * its to refuse, with a 400 that ends the run FAILED provider_error with the API's own words, not retried.
     */
    @Test
    void aKeywordTheApiRefusesEndsTheRunWithTheApisOwnWords() {
        String words = "output_config.format.schema: keyword 'not' is not supported";
        server.enqueue(FakeReply.error(400, "invalid_request_error", words));
        OutputSchema schema = OutputSchema.fromJson("Neg", "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":"
                + "\"string\",\"not\":{\"const\":\"x\"}}},\"required\":[\"a\"]}");

        RunResult result = Agent.builder().model(model).outputSchema(schema)
                .modelOption(AnthropicStructuredOutput.ENABLED).build().run("Neg?");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(dev.rein.run.Reasons.PROVIDER_ERROR);
        assertThat(result.message()).contains(words);
        assertThat(server.requestCount()).as("not retried").isEqualTo(1);
        assertThat(lastBody().at("/output_config/format/schema/properties/a/not").toString())
                .isEqualTo("{\"const\":\"x\"}");
    }

    enum Kind { A, B }

    record Line(String sku, int qty, double price) {}

    record Addr(String street, Optional<String> zip) {}

    record Node(String name, List<Node> children) {}

    record Big(String id, Kind kind, List<Line> lines, Addr addr, Optional<Integer> n, List<String> tags,
            java.time.LocalDate date, Line[] arr, Boolean flag) {}

    /** Schemas generated from records are sent byte for byte as before these changes (recorded on d80fc4cf's code). */
    @Test
    void schemasGeneratedFromRecordsAreSentAsBefore() {
        String s = "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",";
        String line = "\"type\":\"object\",\"properties\":{\"price\":{\"type\":\"number\"},\"qty\":{\"type\":\"integer\"},"
                + "\"sku\":{\"type\":\"string\"}},\"required\":[\"price\",\"qty\",\"sku\"],\"additionalProperties\":false";
        String addr = "\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"},\"zip\":{\"type\":[\"string\","
                + "\"null\"]}},\"required\":[\"street\"],\"additionalProperties\":false";
        Object[][] cases = {
            {Line.class, s + line + "}"},
            {Addr.class, s + addr + "}"},
            {Node.class, s + "\"type\":\"object\",\"properties\":{\"children\":{\"type\":\"array\",\"items\":{\"$ref\":"
                    + "\"#\"}},\"name\":{\"type\":\"string\"}},\"required\":[\"children\",\"name\"],"
                    + "\"additionalProperties\":false}"},
            {Big.class, s + "\"$defs\":{\"Line\":{" + line + "}},\"type\":\"object\",\"properties\":{\"addr\":{" + addr
                    + "},\"arr\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/Line\"}},\"date\":{\"type\":\"string\","
                    + "\"format\":\"date\"},\"flag\":{\"type\":\"boolean\"},\"id\":{\"type\":\"string\"},\"kind\":{\"type\":"
                    + "\"string\",\"enum\":[\"A\",\"B\"]},\"lines\":{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/Line\"}},"
                    + "\"n\":{\"type\":[\"integer\",\"null\"]},\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                    + "\"required\":[\"addr\",\"arr\",\"date\",\"flag\",\"id\",\"kind\",\"lines\",\"tags\"],"
                    + "\"additionalProperties\":false}"},
            {TypedOutputTest.Verdict.class, s + "\"type\":\"object\",\"properties\":{\"confidence\":{\"type\":\"integer\"},"
                    + "\"decision\":{\"type\":\"string\"},\"reasons\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                    + "\"required\":[\"confidence\",\"decision\",\"reasons\"],\"additionalProperties\":false}"}};
        for (Object[] c : cases) {
            assertThat(RequestMapper.sentSchema(OutputSchema.of((Class<?>) c[0])).toString()).as(c[0].toString())
                    .isEqualTo(c[1]);
        }
    }
}
