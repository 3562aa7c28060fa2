package dev.rein.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import org.junit.jupiter.api.Test;

/** The compiled copy lists each anyOf/allOf branch once, and only where that cannot change what is valid or referred to. */
class DistinctBranchesTest {
    private static ObjectNode parse(String json) {
        return (ObjectNode) Json.parse(json);
    }

    @Test
    void anyOfAndAllOfListEachBranchOnce() {
        ObjectNode schema = parse("{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"string\"},{\"type\":\"null\"}],"
                + "\"properties\":{\"a\":{\"allOf\":[{\"minimum\":1},{\"minimum\":1}]}}}");
        assertThat(DistinctBranches.of(schema)).isEqualTo(parse("{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}],"
                + "\"properties\":{\"a\":{\"allOf\":[{\"minimum\":1}]}}}"));
        assertThat(schema.path("anyOf").size()).as("the given schema is not changed").isEqualTo(3);
    }

    /** oneOf [A, A] fits no value; a $ref into an array needs its indices; data is no schema. */
    @Test
    void oneOfDataAndArraysARefPointsIntoAreKept() {
        ObjectNode oneOf = parse("{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"string\"}]}");
        assertThat(DistinctBranches.of(oneOf)).isSameAs(oneOf);
        ObjectNode pointed = parse("{\"$defs\":{\"a\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"string\"},{\"type\":"
                + "\"null\"}]}},\"$ref\":\"#/$defs/a/anyOf/2\"}");
        assertThat(DistinctBranches.of(pointed)).isSameAs(pointed);
        ObjectNode data = parse("{\"default\":{\"anyOf\":[1,1]},\"const\":{\"allOf\":[2,2]}}");
        assertThat(DistinctBranches.of(data)).isSameAs(data);
        ObjectNode named = parse("{\"properties\":{\"default\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"string\"}]}}}");
        assertThat(DistinctBranches.of(named).at("/properties/default/anyOf").size()).isEqualTo(1);
    }

    /**
     * rev132: a $ref into an array through another base ("inner#/anyOf/1", or "#/anyOf/2" inside a subschema with its own
     * $id) was not seen, so the indices moved: an invalid answer accepted, a valid one refused, a schema refused. Any
     * fragment naming an anyOf/allOf index now keeps the schema as written, whatever its base.
     */
    @Test
    void aRefIntoAnArrayThroughAnotherBaseKeepsTheSchema() {
        ObjectNode byId = parse("{\"$id\":\"https://example.com/root\",\"properties\":{\"p\":{\"$ref\":\"inner#/anyOf/1\"}},"
                + "\"$defs\":{\"i\":{\"$id\":\"inner\",\"anyOf\":[{\"type\":\"string\"},{\"type\":\"string\"},{\"type\":\"integer\"}]}}}");
        assertThat(DistinctBranches.of(byId)).isSameAs(byId);
        ObjectNode inside = parse("{\"$defs\":{\"i\":{\"$id\":\"urn:i\",\"properties\":{\"q\":{\"$ref\":\"#/allOf/1\"}},"
                + "\"allOf\":[{\"minimum\":1},{\"minimum\":1},{\"maximum\":9}]}}}");
        assertThat(DistinctBranches.of(inside)).isSameAs(inside);
        ObjectNode encoded = parse("{\"$defs\":{\"i\":{\"$id\":\"urn:i\",\"anyOf\":[{\"type\":\"string\"},{\"type\":\"string\"}]}},"
                + "\"$ref\":\"urn:i#/any%4Ff/0\"}");
        assertThat(DistinctBranches.of(encoded)).isSameAs(encoded);
    }
}
