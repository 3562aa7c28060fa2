package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import org.junit.jupiter.api.Test;

/**
 * For a schema Rein accepts, the sent copy takes every value the schema given takes (rev94's probes): where it could
 * not, the schema is refused naming the place instead. Each case: a schema, a value the schema given takes, and what is
 * expected: null (sent, and the sent copy takes the value) or words the refusal must hold.
 */
class SentSchemaSoundnessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AB = "\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}";
    private static final String K = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"}},\"required\":[\"k\"],";
    private static final String IF_K = "\"if\":{\"properties\":{\"k\":{\"const\":\"a\"}}},";
    private static final String Y = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"type\":"
            + "\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}},\"required\":[\"k\",\"y\"],";

    private static void check(String schema, String value, String refusal) throws Exception {
        OutputSchema full = OutputSchema.fromJson("S", schema);
        assertThat(full.problems(JSON.readTree(value))).as("the schema given takes " + value).isEmpty();
        String sent;
        try {
            sent = RequestMapper.sentSchema(full).toString();
        } catch (ReinException e) {
            assertThat(refusal).as("refused: " + schema + "\n" + e.getMessage()).isNotNull();
            assertThat(e.getMessage()).as(schema).contains(refusal).contains("AnthropicStructuredOutput");
            return;
        }
        assertThat(refusal).as("sent, not refused: " + schema + "\nas " + sent).isNull();
        assertThat(OutputSchema.fromJson("T", sent).problems(JSON.readTree(value)))
                .as("the sent copy " + sent + " takes " + value).isEmpty();
    }

    /** A schema whose references loop with no property or item between is refused by fromJson, naming the loop. */
    private static void loopRefused(String schema, String loop) {
        assertThatThrownBy(() -> OutputSchema.fromJson("S", schema)).as(schema).isInstanceOf(ReinException.class)
                .hasMessageContaining("loops without reaching a property or item: " + loop);
    }

    /** A then/else/dependent* naming a property through allOf/anyOf, from an allOf entry, or of a nested object. */
    @Test
    void aConditionNamingAnUnlistedPropertyAtAnyDepthIsRefused() throws Exception {
        String kx = "{\"k\":\"a\",\"x\":1}";
        check(K + "\"allOf\":[{" + IF_K + "\"then\":{\"required\":[\"x\"]}}]}", kx, "names the property \"x\"");
        check(K + "\"allOf\":[{\"dependentRequired\":{\"k\":[\"x\"]}}]}", kx, "names the property \"x\"");
        check(K + IF_K + "\"then\":{\"anyOf\":[{\"required\":[\"x\"]}]}}", kx, "names the property \"x\"");
        check(K + IF_K + "\"then\":{\"allOf\":[{\"required\":[\"x\"]}]}}", kx, "names the property \"x\"");
        // a then left out of the sent copy (its maxLength is lossy) still names x: closed without it, no answer with k "a"
        // could hold x (rev98), with or without unevaluatedProperties false
        String lossyThen = "\"then\":{\"properties\":{\"x\":{\"type\":\"string\",\"maxLength\":8}},\"required\":[\"x\"]}";
        String ks = "{\"k\":\"a\",\"x\":\"s\"}";
        check(K + IF_K + lossyThen + "}", ks, "names the property \"x\"");
        check(K + IF_K + lossyThen + ",\"unevaluatedProperties\":false}", ks, "names the property \"x\"");
        String yb = "{\"k\":\"a\",\"y\":{\"a\":\"s\",\"b\":\"t\"}}";
        check(Y + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}", yb, "names the property \"b\"");
        check(Y + "\"dependentSchemas\":{\"k\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}}", yb,
                "names the property \"b\"");
        // an object given closed ("additionalProperties": false) is sent as it says at its own level, but its y is closed
        // by the copy: what the then says of y's properties, y must list all the same
        check(Y + "\"additionalProperties\":false," + IF_K + "\"then\":{\"properties\":{\"y\":{\"properties\":{\"b\":"
                + "{\"type\":\"string\"}}}}}}", yb, "names the property \"b\", which the object at /properties/y does not list");
        check(Y + "\"additionalProperties\":false," + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"a\"]}}}}",
                "{\"k\":\"a\",\"y\":{\"a\":\"s\"}}", null);
    }

    /**
     * A condition naming properties of a nested object given by a local $ref: the referenced object must list them (it
     * is closed on its own), and then the schema is sent, as before 5f91fbf9; a recursive $ref does not loop.
     */
    @Test
    void aConditionNamingPropertiesOfAReferencedObjectIsCheckedAgainstWhatItLists() throws Exception {
        String yb = "{\"k\":\"a\",\"y\":{\"a\":\"s\",\"b\":\"t\"}}";
        String then = IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}";
        String refY = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":\"#/$defs/Y\"}},"
                + "\"required\":[\"k\"],\"$defs\":{\"Y\":";
        // Y lists b: sent
        check(refY + "{\"type\":\"object\",\"properties\":{" + AB + "}}}," + then, yb, null);
        // Y lists only a: refused, naming b and the referenced object's place
        check(refY + "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}," + then, yb,
                "names the property \"b\", which the object at /$defs/Y does not list");
        // a $ref to a $ref is followed to the object
        check(refY + "{\"$ref\":\"#/$defs/Z\"},\"Z\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}},"
                + then, yb, "names the property \"b\", which the object at /$defs/Z does not list");
        // a recursive type: the check follows the $ref as deep as the condition speaks, no further
        String node = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"next\":{\"$ref\":"
                + "\"#/$defs/Node\"}}}";
        String list = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"head\":{\"$ref\":"
                + "\"#/$defs/Node\"}},\"required\":[\"k\"],\"$defs\":{\"Node\":" + node + "}," + IF_K;
        String linked = "{\"k\":\"a\",\"head\":{\"name\":\"x\",\"next\":{\"name\":\"y\"}}}";
        check(list + "\"then\":{\"properties\":{\"head\":{\"properties\":{\"next\":{\"required\":[\"name\"]}}}}}}",
                linked, null);
        check(list + "\"then\":{\"properties\":{\"head\":{\"properties\":{\"next\":{\"required\":[\"id\"]}}}}}}",
                "{\"k\":\"b\"}", "names the property \"id\", which the object at /$defs/Node does not list");
        check("{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":\"#\"}},\"required\":"
                + "[\"k\"]," + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"k\"]}}}}",
                "{\"k\":\"a\",\"y\":{\"k\":\"b\"}}", null);
        // references that name each other name no object and loop: refused when the schema is made (RefLoops), naming
        // the loop, before any copy is sent
        loopRefused(refY + "{\"$ref\":\"#/$defs/Z\"},\"Z\":{\"$ref\":\"#/$defs/Y\"}}," + then,
                "#/$defs/Y → #/$defs/Z → #/$defs/Y");
        // nor an anchor, not a JSON Pointer
        check(refY.replace("#/$defs/Y", "#Y") + "{\"$anchor\":\"Y\",\"type\":\"object\",\"properties\":{" + AB + "}}},"
                + then, yb, "write the schema the reference at /properties/y names out in its place");
    }

    /** zod's .and() (allOf of two closed objects), an entry listing less than its parent, an anyOf variant likewise. */
    @Test
    void aClosedEntryThatDoesNotListWhatItsParentOrSiblingNamesIsRefused() throws Exception {
        String zod = "{\"allOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"]},"
                + "{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"string\"}},\"required\":[\"b\"]}]";
        check(zod + "}", "{\"a\":\"x\",\"b\":\"y\"}", "names the property \"b\"");
        check(zod + ",\"unevaluatedProperties\":false}", "{\"a\":\"x\",\"b\":\"y\"}", "names the property \"b\"");
        check("{\"type\":\"object\",\"properties\":{" + AB + "},\"required\":[\"b\"],\"allOf\":[{\"properties\":{\"a\":"
                + "{\"type\":\"string\"}},\"required\":[\"a\"]}]}", "{\"a\":\"x\",\"b\":\"y\"}", "names the property \"b\"");
        check("{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"},\"a\":{\"type\":\"string\"}},"
                + "\"required\":[\"kind\"],\"anyOf\":[{\"type\":\"object\",\"properties\":{\"kind\":{\"const\":\"A\"}},"
                + "\"required\":[\"a\"]},{\"type\":\"object\",\"properties\":{\"kind\":{\"const\":\"B\"}}}]}",
                "{\"kind\":\"A\",\"a\":\"x\"}", "names the property \"a\"");
        // the node says what its y holds; the variant, closed alone, says y is an object but lists nothing of it
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":"
                + "\"string\"}}}},\"anyOf\":[{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\"}}}]}",
                "{\"y\":{\"a\":\"s\"}}", "write what the schema at its top says of \"y\"");
    }

    /** Something left out of a node with unevaluatedItems/Properties false would leave items or properties unevaluated. */
    @Test
    void unevaluatedFalseIsLeftOutWithWhatWouldHaveEvaluated() throws Exception {
        check("{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\"}],\"if\":{\"minItems\":2},\"then\":"
                + "{\"prefixItems\":[{\"type\":\"string\"},{\"type\":\"integer\"}]},\"unevaluatedItems\":false}",
                "[\"s\",1]", null);
        check("{\"type\":\"array\",\"contains\":{\"type\":\"integer\"},\"unevaluatedItems\":false}", "[1]", null);
    }

    /** Other properties a then allows (patternProperties, additionalProperties) are refused as a named one is. */
    @Test
    void otherPropertiesAConditionAllowsAreRefused() throws Exception {
        check(K + IF_K + "\"then\":{\"patternProperties\":{\"^x_\":{\"type\":\"string\"}},\"minProperties\":2},"
                + "\"unevaluatedProperties\":false}", "{\"k\":\"a\",\"x_1\":\"s\"}",
                "give the object's own schema the same pattern in its \"patternProperties\"");
        check(K + "\"dependentSchemas\":{\"k\":{\"additionalProperties\":{\"type\":\"string\"}}}}",
                "{\"k\":\"a\",\"x_1\":\"s\"}", "remove that \"additionalProperties\" from the dependentSchemas at");
    }

    /** A $ref in a condition to a schema sent unchanged, one in a condition left out, a then without an if: sent. */
    @Test
    void conditionsThatLoseNothingAreSent() throws Exception {
        check("{\"type\":\"object\",\"$defs\":{\"A\":{\"type\":\"string\"}},\"properties\":{\"k\":{\"type\":\"string\"},"
                + "\"x\":{\"type\":\"string\"}},\"if\":{\"properties\":{\"k\":{\"$ref\":\"#/$defs/A\"}}},\"then\":"
                + "{\"required\":[\"x\"]}}", "{\"k\":\"a\",\"x\":\"s\"}", null);
        check("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/A\"}},\"$defs\":{\"A\":{\"type\":\"string\"}},"
                + "\"not\":{\"properties\":{\"a\":{\"$ref\":\"#/$defs/A\",\"maxLength\":2}}}}", "{\"a\":\"abc\"}", null);
        check("{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"}},\"then\":{\"required\":[\"x\"]}}",
                "{\"k\":\"a\"}", null);
    }

    /** An anyOf/oneOf variant of required lists only is told to say "type": "object". */
    @Test
    void aVariantWithoutATypeIsToldToSayObject() throws Exception {
        for (String of : new String[] {"anyOf", "oneOf"}) {
            check("{\"type\":\"object\",\"properties\":{" + AB + "},\"" + of + "\":[{\"required\":[\"a\"]},{\"required\":"
                    + "[\"b\"]}]}", "{\"a\":\"x\"}", "has no \"type\": add \"type\": \"object\"");
        }
        check("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"patternProperties\":{\"^a$\":"
                + "{\"not\":{\"minLength\":1}}}}", "{\"a\":\"\"}", "has no \"type\": add the \"type\" of the value it"
                + " describes beside its \"not\"");
    }

    /**
     * An anyOf variant, closed alone, must list what a oneOf variant beside it names: the value meets one of each (both
     * apply to it), so a value holding a property only the chosen oneOf variant names would be refused by any anyOf
     * variant that does not list it. Not over-strict: where the node is closed too it lists those names, and the variant
     * must list its node's names all the same. Listing them all, the schema is sent.
     */
    @Test
    void anAnyOfVariantMustListWhatAOneOfVariantBesideItNames() throws Exception {
        String contact = "\"email\":{\"type\":\"string\"},\"phone\":{\"type\":\"string\"},\"nick\":{\"type\":\"string\"},"
                + "\"company\":{\"type\":\"string\"}";
        String en = "{\"email\":\"e\",\"nick\":\"n\"}";
        check("{\"anyOf\":[" + variant("\"email\":{\"type\":\"string\"}", "email") + ","
                + variant("\"phone\":{\"type\":\"string\"}", "phone") + "],\"oneOf\":["
                + variant("\"nick\":{\"type\":\"string\"}", "nick") + ","
                + variant("\"company\":{\"type\":\"string\"}", "company") + "]}", en,
                "the oneOf at /oneOf/0 names the property \"nick\", which the object at /anyOf/0 does not list");
        check("{\"anyOf\":[" + variant(contact, "email") + "," + variant(contact, "phone") + "],\"oneOf\":["
                + variant(contact, "nick") + "," + variant(contact, "company") + "]}", en, null);
    }

    /**
     * rev102: under a nested $id a "#..." $ref names a schema of that $id's, not of the top: the check cannot follow it,
     * so it refuses with the advice to write it out rather than send a copy that refuses a value the schema takes (P1).
     */
    @Test
    void aReferenceUnderANestedIdIsNotFollowedFromTheTop() throws Exception {
        check("{\"$id\":\"https://ex.com/root\",\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},"
                + "\"w\":{\"$id\":\"https://ex.com/w\",\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/$defs/Y\"}},"
                + "\"required\":[\"y\"],\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}},"
                + "\"required\":[\"k\",\"w\"],\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{" + AB + "}}}," + IF_K
                + "\"then\":{\"properties\":{\"w\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}}}",
                "{\"k\":\"a\",\"w\":{\"y\":{\"a\":\"s\",\"b\":\"t\"}}}",
                "write the schema the reference at /properties/w/properties/y names out in its place");
    }

    /**
     * rev114 P2: a property named "$id" is a name in a properties map, not a schema's $id: the $ref beside it is still
     * resolved from the top, and one through a oneOf is refused as without it.
     */
    @Test
    void aPropertyNamedIdDoesNotMoveTheBaseOfAReference() throws Exception {
        String u = "\"$defs\":{\"U\":{\"oneOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},"
                + "\"required\":[\"a\"]},{\"type\":\"null\"}]}}}";
        check("{\"type\":\"object\",\"properties\":{\"$id\":{\"type\":\"string\"},\"y\":{\"$ref\":\"#/$defs/U/oneOf/0\"}},"
                + u, "{\"y\":{\"a\":\"s\"}}", "passes through the oneOf at /$defs/U/oneOf");
    }

    /**
     * rev114 P3: anyOf variants whose references name each other round (U = anyOf[$ref V, null], V = anyOf[$ref U,
     * string]) name no object, and checking a value against them never ended: since 23076461 OutputSchema.fromJson
     * refuses the schema naming the loop, so no copy is ever made of it (and no stack overflows).
     */
    @Test
    void variantsThatReferToEachOtherRoundAreRefusedNotFollowedForever() throws Exception {
        // U's first variant is V, whose first is U: checking a value never ended, so the schema is refused when made
        loopRefused("{\"type\":\"object\",\"required\":[\"k\"],\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":\"#/$defs/U\"}},\"$defs\":{\"U\":{\"anyOf\":"
                + "[{\"$ref\":\"#/$defs/V\"},{\"type\":\"null\"}]},\"V\":{\"anyOf\":[{\"$ref\":\"#/$defs/U\"},{\"type\":\"string\"}]}},"
                + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}",
                "#/$defs/U → #/$defs/U/anyOf/0 → #/$defs/V → #/$defs/V/anyOf/0 → #/$defs/U");
    }

    /**
     * rev114 P14: what a condition says of the properties of a value that is never an object (a string or null, as
     * itself or as every variant of an anyOf, through a $ref) never applies, and the copy keeps the condition as it is:
     * the schema is sent, not refused with advice to list properties in a string's schema.
     */
    @Test
    void aConditionOnPropertiesOfAValueThatIsNeverAnObjectIsSent() throws Exception {
        String then = IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}";
        String head = "{\"type\":\"object\",\"required\":[\"k\"],\"properties\":{\"k\":{\"type\":\"string\"},\"y\":";
        check(head + "{\"$ref\":\"#/$defs/U\"}},\"$defs\":{\"U\":{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"null\"}]}},"
                + then, "{\"k\":\"a\",\"y\":\"s\"}", null);
        check(head + "{\"type\":[\"string\",\"null\"]}}," + then, "{\"k\":\"a\",\"y\":null}", null);
        // one variant may be an object that lists no properties: still refused
        check(head + "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"object\"}]}}," + then, "{\"k\":\"a\",\"y\":\"s\"}",
                "\"y\"");
    }

    /**
     * rev102: an object given closed that neither lists a property nor matches it by a pattern never holds it, so what a
     * condition says of that property's properties is not checked (P2); one matched by a pattern is checked against the
     * pattern's schema (P12).
     */
    @Test
    void aClosedObjectIsCheckedOnlyForPropertiesItCanHold() throws Exception {
        String closedK = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"}},\"required\":[\"k\"],"
                + "\"additionalProperties\":false,";
        String thenYb = "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}";
        check(closedK + IF_K + "\"then\":{\"properties\":{\"z\":{\"required\":[\"b\"]}}}}", "{\"k\":\"a\"}", null);
        String pattern = "\"patternProperties\":{\"^y\":{\"type\":\"object\",\"properties\":{";
        check(closedK + pattern + AB + "}}}," + IF_K + thenYb, "{\"k\":\"a\",\"y\":{\"a\":\"s\",\"b\":\"t\"}}", null);
        check(closedK + pattern + "\"a\":{\"type\":\"string\"}}}}," + IF_K + thenYb, "{\"k\":\"b\",\"y\":{\"a\":\"s\"}}",
                "names the property \"b\", which the object at /patternProperties/^y does not list");
    }

    /**
     * rev102: a $ref beside keywords that name properties applies to the same value as an allOf entry does, and the
     * object it names is closed on its own: it must list what its node names (P4, P8 through an anyOf variant).
     */
    @Test
    void aReferenceBesidePropertiesMustListWhatItsNodeNames() throws Exception {
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\",\"properties\":{" + AB + "},\"$ref\":"
                + "\"#/$defs/Y\"}},\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
                "{\"y\":{\"a\":\"s\",\"b\":\"t\"}}", "names the property \"b\", which the object at /$defs/Y does not list");
        // the advice names the referenced object, not "the object's own" (the node beside the $ref lists b)
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\",\"properties\":{" + AB + "},\"$ref\":"
                + "\"#/$defs/Y\"}},\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}}}",
                "{\"y\":{\"a\":\"s\",\"b\":\"t\"}}", "list \"b\" in the \"properties\" of the object at /$defs/Y (the $ref"
                + " at /properties/y/$ref names it) too");
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\",\"properties\":{" + AB + "},\"$ref\":"
                + "\"#/$defs/U\"}},\"$defs\":{\"U\":{\"anyOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":"
                + "\"string\"}}}]}}}", "{\"y\":{\"a\":\"s\",\"b\":\"t\"}}",
                "names the property \"b\", which the object at /$defs/U/anyOf/0 does not list");
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\",\"properties\":{" + AB + "},\"$ref\":"
                + "\"#/$defs/Y\"}},\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{" + AB + "}}}}",
                "{\"y\":{\"a\":\"s\",\"b\":\"t\"}}", null);
    }

    /**
     * rev122: a reference the closing check cannot follow because of an $id below the top is refused saying which $id
     * stops it: one that is not only a fragment, as an anchor's ("$id": "#a") keeps the base and stops nothing.
     */
    @Test
    void aRefusalForAnIdBelowTheTopSaysAnAnchorIdDoesNotStopTheCheck() throws Exception {
        String follows = "a JSON Pointer, percent-encoded or not, to a schema in this one, where no schema below the"
                + " top has an \"$id\" other than an anchor such as \"#a\")";
        String w = "\"w\":{\"$id\":\"https://ex.com/w\",\"type\":\"string\"}";
        // a $ref beside keywords that name properties
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"object\",\"properties\":{" + AB + "},\"$ref\":"
                + "\"#/$defs/Y\"}," + w + "},\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":"
                + "\"string\"}}}}}", "{\"y\":{\"a\":\"s\",\"b\":\"t\"}}",
                "which Rein cannot check (it follows only a \"$ref\" that is \"#\" and " + follows);
        // a $ref a condition speaks of the properties of
        check("{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":\"#/$defs/Y\"},"
                + w + "},\"required\":[\"k\"],\"$defs\":{\"Y\":{\"type\":\"object\",\"properties\":{" + AB + "}}},"
                + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}",
                "{\"k\":\"a\",\"y\":{\"a\":\"s\",\"b\":\"t\"}}", "names out in its place (Rein follows only a"
                + " \"$ref\" that is \"#\" and " + follows);
    }

    /** rev102: the copy sends oneOf as anyOf, so a $ref through a oneOf would name nothing: refused (P5b). */
    @Test
    void aReferenceThroughAOneOfIsRefused() throws Exception {
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/$defs/U/oneOf/0\"}},\"$defs\":{\"U\":{\"oneOf\":"
                + "[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}},{\"type\":\"string\"}]}}}",
                "{\"y\":{\"a\":\"s\"}}", "passes through the oneOf at /$defs/U/oneOf");
        // a $defs entry named oneOf is not a oneOf keyword
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/$defs/oneOf\"}},\"$defs\":{\"oneOf\":"
                + "{\"type\":\"string\"}}}", "{\"y\":\"s\"}", null);
    }

    /**
     * A $ref whose pointer passes through a keyword the copy leaves out or renames (a contains, a lossy not or if, a
     * then with no if, a oneOf) would name nothing once sent: refused naming the keyword. The pointer's steps alternate
     * keyword and name: a property named "properties" is a name, and a oneOf after it a keyword.
     */
    @Test
    void aReferenceThroughAKeywordTheCopyLeavesOutIsRefused() throws Exception {
        String a = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}";
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/properties/properties/oneOf/0\"},\"properties\":"
                + "{\"oneOf\":[" + a + ",{\"type\":\"string\"}]}}}", "{\"y\":{\"a\":\"s\"}}",
                "passes through the oneOf at /properties/properties/oneOf");
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/properties/l/contains\"},\"l\":{\"type\":"
                + "\"array\",\"items\":{\"type\":\"object\"},\"contains\":" + a + "}}}", "{\"y\":{\"a\":\"s\"}}",
                "passes through the contains at /properties/l/contains");
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/properties/n/not/anyOf/0\"},\"n\":{\"type\":"
                + "\"string\",\"not\":{\"anyOf\":[{\"type\":\"string\",\"maxLength\":2},{\"type\":\"string\"}]}}}}",
                "{\"y\":\"s\"}", "passes through the not at /properties/n/not");
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/properties/n/then\"},\"n\":{\"type\":\"string\","
                + "\"if\":{\"maxLength\":2},\"then\":{\"type\":\"string\"}}}}", "{\"y\":\"s\"}",
                "passes through the then at /properties/n/then");
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/$defs/T/then\"}},\"$defs\":{\"T\":{\"then\":"
                + "{\"type\":\"string\"}}}}", "{\"y\":\"s\"}", "passes through the then at /$defs/T/then");
        // names that read as keywords are names: sent
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/properties/oneOf\"},\"oneOf\":{\"type\":"
                + "\"string\"}}}", "{\"y\":\"s\",\"oneOf\":\"t\"}", null);
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/$defs/contains/properties/not\"}},\"$defs\":"
                + "{\"contains\":{\"type\":\"object\",\"properties\":{\"not\":{\"type\":\"string\"}}}}}", "{\"y\":\"s\"}",
                null);
        // a not or if that loses nothing is sent, and so is what a pointer through it names
        check("{\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/properties/n/not\"},\"n\":{\"type\":\"string\","
                + "\"not\":{\"type\":\"string\"}}}}", "{\"y\":\"s\"}", null);
    }

    /**
     * rev102 P3/P7: a "$ref" in a URI fragment may be percent-encoded ("#/$defs/My%20Y"): followed decoded; the advice
     * for a referenced schema that lists no properties names it once, without a second "which".
     */
    @Test
    void aPercentEncodedPointerIsFollowedAndTheAdviceReadsOnce() throws Exception {
        String yb = "{\"k\":\"a\",\"y\":{\"a\":\"s\",\"b\":\"t\"}}";
        String then = IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}";
        check("{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":\"#/$defs/My%20Y\"}},"
                + "\"required\":[\"k\"],\"$defs\":{\"My Y\":{\"type\":\"object\",\"properties\":{" + AB + "}}}," + then,
                yb, null);
        String anyOf = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":"
                + "\"#/$defs/U\"}},\"required\":[\"k\"],\"$defs\":{\"U\":{\"anyOf\":[";
        // every variant that is an object lists b (null has no properties to list): sent
        check(anyOf + "{\"type\":\"object\",\"properties\":{" + AB + "}},{\"type\":\"null\"}]}}," + then, yb, null);
        check(anyOf + "{\"$ref\":\"#/$defs/W\"},{\"type\":\"null\"}]},\"W\":{\"type\":\"object\",\"properties\":{"
                + AB + "}}}," + then, yb, null);
        // a variant that does not list b is refused, naming it
        check(anyOf + "{\"type\":\"object\",\"properties\":{" + AB + "}},{\"type\":\"object\",\"properties\":"
                + "{\"a\":{\"type\":\"string\"}}}]}}," + then, yb,
                "names the property \"b\", which the object at /$defs/U/anyOf/1 does not list");
        // a variant Rein cannot follow: refused, saying where to write it
        check(anyOf + "{\"$ref\":\"#W\"},{\"type\":\"null\"}]},\"W\":{\"$anchor\":\"W\",\"type\":\"object\","
                + "\"properties\":{" + AB + "}}}," + then, yb, "into the schema at /$defs/U (the reference at /properties/y"
                + " names it), which must list its \"properties\"");
    }

    /**
     * A draft-07 $id of the anchor form ("#a", a plain-name fragment) names its schema for a "$ref": "#a"; it does not
     * change the base a "#/..." reference is read from (a fragment resolved against the base keeps the base): a reference
     * under it through a oneOf is refused as one at the top is, and the check still follows the references of a schema
     * that has one below its top.
     */
    @Test
    void anIdThatIsAnAnchorIsNoNewBase() throws Exception {
        String draft7 = "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",";
        String u = "\"U\":{\"oneOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},"
                + "\"required\":[\"a\"]},{\"type\":\"null\"}]}";
        check(draft7 + "\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/definitions/A\"}},\"definitions\":{"
                + "\"A\":{\"$id\":\"#a\",\"type\":\"object\",\"properties\":{\"y\":{\"$ref\":\"#/definitions/U/oneOf/0\"}}},"
                + u + "}}", "{\"x\":{\"y\":{\"a\":\"s\"}}}", "passes through the oneOf at /definitions/U/oneOf");
        String yb = "{\"k\":\"a\",\"y\":{\"a\":\"s\",\"b\":\"t\"}}";
        check(draft7 + "\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":"
                + "\"#/definitions/Y\"}},\"required\":[\"k\"],\"definitions\":{\"Y\":{\"$id\":\"#y\",\"type\":"
                + "\"object\",\"properties\":{" + AB + "}}}," + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":"
                + "[\"b\"]}}}}", yb, null);
    }

    /**
     * A chain of anyOf levels, each naming the next twice by $ref, ending in an object that lists b or in a string: what
     * a condition says of the value's properties is checked reading each level once (it read the end 2^30 times). The
     * schema is given to SentSchema as JSON: OutputSchema's own compiling (the validator's) is slow for such a chain too.
     */
    @Test
    void aChainOfAnyOfLevelsEachNamingTheNextTwiceIsReadOnce() {
        for (String end : new String[] {"{\"type\":\"object\",\"properties\":{" + AB + "}}", "{\"type\":\"string\"}"}) {
            StringBuilder defs = new StringBuilder();
            for (int i = 0; i < 30; i++) {
                defs.append("\"L").append(i).append("\":{\"anyOf\":[{\"$ref\":\"#/$defs/L").append(i + 1)
                        .append("\"},{\"$ref\":\"#/$defs/L").append(i + 1).append("\"}]},");
            }
            String schema = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":"
                    + "\"#/$defs/L0\"}},\"required\":[\"k\"],\"$defs\":{" + defs + "\"L30\":" + end + "}," + IF_K
                    + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}";
            com.fasterxml.jackson.databind.node.ObjectNode sent = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(5),
                    () -> SentSchema.of("S", (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(schema)));
            assertThat(sent.at("/$defs/L29/anyOf/1/$ref").asText()).isEqualTo("#/$defs/L30");
        }
        // and where an end does not list b, it is refused as before, naming it
        StringBuilder defs = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            defs.append("\"L").append(i).append("\":{\"anyOf\":[{\"$ref\":\"#/$defs/L").append(i + 1)
                    .append("\"},{\"$ref\":\"#/$defs/M\"}]},");
        }
        String schema = "{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"y\":{\"$ref\":"
                + "\"#/$defs/L0\"}},\"required\":[\"k\"],\"$defs\":{" + defs + "\"L30\":{\"type\":\"object\","
                + "\"properties\":{" + AB + "}},\"M\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}},"
                + IF_K + "\"then\":{\"properties\":{\"y\":{\"required\":[\"b\"]}}}}";
        assertThat(org.junit.jupiter.api.Assertions.assertThrows(ReinException.class,
                () -> SentSchema.of("S", (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(schema))).getMessage())
                .contains("names the property \"b\", which the object at /$defs/M does not list");
    }

    /** rev100 (l): a then that forbids x ("x": false) names nothing the object must list: sent. */
    @Test
    void aConditionThatForbidsAPropertyDoesNotNameIt() throws Exception {
        check(K + IF_K + "\"then\":{\"properties\":{\"x\":false}}}", "{\"k\":\"a\"}", null);
    }

    private static String variant(String properties, String required) {
        return "{\"type\":\"object\",\"properties\":{" + properties + "},\"required\":[\"" + required + "\"]}";
    }
}
