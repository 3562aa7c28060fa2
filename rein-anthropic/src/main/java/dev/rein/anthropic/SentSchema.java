package dev.rein.anthropic;

import static dev.rein.anthropic.ClosedObjects.closeObject;
import static dev.rein.anthropic.ClosedObjects.parts;
import static dev.rein.anthropic.ClosedObjects.refuseEntryUnlisted;
import static dev.rein.anthropic.ClosedObjects.refuseUnlistedByRef;
import static dev.rein.anthropic.SchemaRefs.refuseRefInCondition;
import static dev.rein.anthropic.SchemaRefs.refuseRefToWhatIsLeftOut;
import static dev.rein.anthropic.SchemaRefs.refuseRefUnderAllOf;
import static dev.rein.anthropic.SchemaTree.isObject;
import static dev.rein.anthropic.SchemaTree.subschemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.anthropic.ClosedObjects.Part;
import dev.rein.anthropic.SchemaTree.SchemaRole;
import dev.rein.anthropic.SchemaTree.Subschema;
import dev.rein.model.OutputSchema;
import java.util.List;

/**
 * The output schema as the API's structured outputs take it ({@link #of}): a copy changed as the official SDKs change
 * it, or a refusal before sending where a change would alter what the answer may be. Rein validates the answer against
 * the schema as given either way. Here: the walk and what the copy leaves out or renames; the keywords that hold schemas
 * are {@link SchemaTree}'s, references {@link SchemaRefs}', closing objects {@link ClosedObjects}' (with
 * {@link VariantObjects} for a property's variants).
 */
final class SentSchema {
    private SentSchema() {}

    /** How every refusal ends: the other way out. */
    static final String LEAVE_IT_OFF = ", or leave AnthropicStructuredOutput off (Rein still validates the answer)";

    /** Keywords the structured outputs docs list as unsupported; Rein's own validation still applies them. */
    static final List<String> UNSUPPORTED_CONSTRAINTS = List.of("minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems", "contains", "minContains",
            "maxContains");

    /** The string formats the structured outputs docs list (and the official SDKs keep); any other is left out. */
    private static final java.util.Set<String> SUPPORTED_FORMATS = java.util.Set.of("date-time", "time", "date", "duration",
            "email", "hostname", "uri", "ipv4", "ipv6", "uuid");

    /**
     * The keywords whose default is any value, so that an empty schema under them ({@code {}}) says nothing: it is left
     * out of the sent copy rather than refused as a value of any kind.
     */
    static final List<String> EMPTY_MEANS_NOTHING = List.of("unevaluatedProperties", "unevaluatedItems",
            "additionalItems");

    /**
     * The output schema as the API's structured outputs take it, a copy: every object schema closed with
     * {@code "additionalProperties": false} (required, as the official SDKs add it), but for a condition's and what is
     * under it ({@link SchemaRole#CONDITION}: closed, it would say another thing), and the numerical, string-length and
     * array-size constraints the docs list as unsupported, a string format outside the supported list, and an empty
     * schema ({@code {}} or {@code true}) under a keyword whose default it is ({@link #EMPTY_MEANS_NOTHING}), left out,
     * a not, or if with its then and else, beneath which anything would be left out or renamed, left out whole (so that
     * condition is looser, not stricter: {@link #leaveOutLossyConditions}), a then or else without an if left out, an
     * unevaluated* false left out with what would have evaluated ({@link #leaveOutUnevaluatedFalse}), and
     * {@code oneOf} sent as {@code anyOf} (as the SDKs do; the system prompt shows the whole
     * schema and Rein validates the answer against it), or, on a node that has an {@code anyOf} already, as one more
     * {@code allOf} entry. An object that allows other properties (a {@code Map}'s values' schema as
     * {@code additionalProperties}), or lists none (a bare {@code {"type":"object"}}, as a {@code Map<String, Object>}
     * generates), or whose unevaluatedProperties is a schema, is refused: sending it closed would change what the
     * answer may hold; so is one that does not list a property something applying to the same value names, and an
     * allOf/anyOf/oneOf entry closed alone that does not list what its node names ({@link ClosedObjects#refuseUnlisted}); an empty
     * record (a closed empty object) is sent. A $ref beneath a condition is refused where its target would not be sent as
     * given ({@link SchemaRefs#refuseRefInCondition}).
     * A schema that says nothing of its value's kind (none of type, anyOf, oneOf, allOf, $ref, $dynamicRef,
     * $recursiveRef, enum, const: the {@code {}} a JsonNode or Object generates; {@code true}) is refused too: the API
     * answers it with a 400 (its SDKs refuse a schema with none of type, anyOf, oneOf, allOf).
     * An {@code allOf} of the schema's own, and a oneOf that would go as an {@code allOf} entry, that holds a {@code $ref}
     * (an entry's or deeper; a {@code $dynamicRef} or {@code $recursiveRef} as well) is refused too, beneath any keyword
     * that holds schemas ({@link SchemaTree#APPLICATORS}), wherever it is in the schema, in a {@code $defs} (or {@code definitions})
     * entry that no {@code $ref} reaches as well: the docs list "{@code allOf} with {@code $ref}" as not supported, and
     * Rein reads that cautiously as any {@code $ref} under an {@code allOf}, deeper ones too, and does not bet that the
     * API ignores an entry nothing uses. A refusal names the place as a JSON Pointer into the schema as given.
     */
    static ObjectNode of(OutputSchema schema) {
        return of(schema.name(), schema.schema());
    }

    /** {@link #of(OutputSchema)} of the schema {@code given} named {@code name} (a test's, not compiled first). */
    static ObjectNode of(String name, ObjectNode given) {
        ObjectNode copy = given.deepCopy();
        leaveOutThenElseWithoutIf(copy);
        refuseRefInCondition(copy, copy, "", name, null, null);
        close(copy, "", name, given);
        return copy;
    }

    /** Keywords of which one a schema the API takes must have (its SDKs ask for type, anyOf, oneOf or allOf). */
    private static final List<String> KIND_KEYWORDS = List.of("type", "anyOf", "oneOf", "allOf", "$ref", "$dynamicRef",
            "$recursiveRef", "enum", "const");

    /** Keywords that say what an object holds: a schema with one but no kind is told to say "type": "object". */
    static final List<String> OBJECT_WORDS = List.of("required", "properties", "patternProperties",
            "dependentRequired", "dependentSchemas", "minProperties", "maxProperties");

    /** The condition keywords left out of the sent copy together, as one, when any would lose something. */
    static final List<String> IF_THEN_ELSE = List.of("if", "then", "else");

    /** {@code given}: the schema as given, whose JSON Pointers a local reference follows ({@link SchemaRefs#referenced}). */
    private static void close(JsonNode node, String pointer, String name, JsonNode given) {
        close(node, pointer, name, given, SchemaRole.VALUE);
    }

    /**
     * {@code role}: what the node is to the value ({@link SchemaRole}); a CONDITION's node, and every one under it, is walked
     * for the allOf check and the constraints only: not closed, not asked to say its kind.
     */
    private static void close(JsonNode node, String pointer, String name, JsonNode given, SchemaRole role) {
        if (!(node instanceof ObjectNode object)) {
            if (role == SchemaRole.VALUE && node.isBoolean() && node.booleanValue()) {
                throw saysNoKind(name, pointer, node); // true is {}: any value; false (no value) is sent as it is
            }
            return;
        }
        boolean condition = role == SchemaRole.CONDITION;
        refuseRefUnderAllOf(object, pointer, name);
        refuseRefToWhatIsLeftOut(object, pointer, name, given);
        if (role == SchemaRole.VALUE && KIND_KEYWORDS.stream().noneMatch(object::has)) {
            throw saysNoKind(name, pointer, object);
        }
        for (String keyword : EMPTY_MEANS_NOTHING) {
            JsonNode value = object.get(keyword);
            if (value != null && (value.isObject() && value.isEmpty() || value.isBoolean() && value.booleanValue())) {
                object.remove(keyword); // {} or true: the keyword's default
            }
        }
        leaveOutUnevaluatedFalse(object);
        if (!condition) {
            // before a lossy then or else is left out: what it names, the closed object must list all the same
            closeObject(object, pointer, name, given);
            refuseUnlistedByRef(object, pointer, name, given);
        }
        leaveOutLossyConditions(object);
        object.remove(UNSUPPORTED_CONSTRAINTS);
        if (unsupportedFormat(object)) {
            object.remove("format");
        }
        if (minItemsAboveOne(object)) {
            object.remove("minItems"); // only 0 or 1 is supported
        }
        // The unsupported constraints (contains among them) are gone by now: what they held is not sent, nor walked.
        for (Subschema sub : subschemas(object, pointer)) {
            if (!condition && List.of("allOf", "anyOf", "oneOf").contains(sub.keyword())
                    && sub.schema() instanceof ObjectNode entry && isObject(entry) && entry.has("properties")) {
                refuseEntryUnlisted(object, pointer, sub, entry, name, given);
            }
            close(sub.schema(), sub.pointer(), name, given, condition ? SchemaRole.CONDITION : sub.role());
        }
        renameOneOf(object);
    }

    /**
     * Leaves out an unevaluatedItems or unevaluatedProperties false when the sent copy leaves out something that would
     * have evaluated items or properties (a contains, an if with its then and else, in the node or a schema applying to
     * the same value): kept, it would forbid what they allowed. Left out, the copy is looser; Rein still applies it.
     */
    private static void leaveOutUnevaluatedFalse(ObjectNode object) {
        if (dropsAnEvaluator(object)) {
            for (String keyword : List.of("unevaluatedItems", "unevaluatedProperties")) {
                if (object.get(keyword) instanceof com.fasterxml.jackson.databind.node.BooleanNode b && !b.booleanValue()) {
                    object.remove(keyword);
                }
            }
        }
    }

    static boolean dropsAnEvaluator(ObjectNode object) {
        for (Part part : parts(object, null, "", null)) {
            ObjectNode s = part.schema();
            if (s.has("contains") || (s.has("if") && IF_THEN_ELSE.stream().anyMatch(k -> losesSomething(s.get(k))))) {
                return true;
            }
        }
        return false;
    }

    /** The refusal of a schema that says nothing of its value's kind ({@code {}} or {@code true}). */
    private static ReinException saysNoKind(String name, String pointer, JsonNode schema) {
        String at = place(pointer);
        if (schema instanceof ObjectNode object && OBJECT_WORDS.stream().anyMatch(object::has)) {
            return new ReinException("the output schema " + name + " has a schema at " + at + " (" + schema + ") that"
                    + " has no \"type\": add \"type\": \"object\" and the \"properties\" it may hold (the API's"
                    + " structured outputs ask every schema to say its kind, an anyOf variant's too, and close every"
                    + " object)" + LEAVE_IT_OFF);
        }
        if (schema instanceof ObjectNode object && object.has("not")) {
            return new ReinException("the output schema " + name + " has a schema at " + at + " (" + schema + ") that"
                    + " has no \"type\": add the \"type\" of the value it describes beside its \"not\" (the API's"
                    + " structured outputs ask every schema to say its kind)" + LEAVE_IT_OFF);
        }
        return new ReinException("the output schema " + name + " has a schema at " + at + " that says nothing of the"
                + " value's kind (" + schema + ": none of type, anyOf, oneOf,"
                + " allOf, $ref, $dynamicRef, $recursiveRef, enum, const), which the API's structured outputs refuse: a"
                + " JsonNode or Object field takes any value, which structured outputs cannot express: use a record" + LEAVE_IT_OFF);
    }

    /** A place as a refusal names it: its JSON Pointer, or "its top" for the schema's top (the empty pointer). */
    static String place(String pointer) {
        return pointer.isEmpty() ? "its top" : pointer;
    }

    /**
     * Leaves out of the sent copy a {@code not}, and {@code if}, {@code then} and {@code else} together, when anything
     * beneath would be left out or renamed ({@link #losesSomething}): under a not a constraint left out makes it hold for
     * fewer values ({@code "not": {}} for none), under an if for more (its then applying where it should not). Left out,
     * that condition is looser, not stricter; Rein's validation still applies them.
     */
    private static void leaveOutLossyConditions(ObjectNode object) {
        if (losesSomething(object.get("not"))) {
            object.remove("not");
        }
        if (IF_THEN_ELSE.stream().anyMatch(k -> losesSomething(object.get(k)))) {
            object.remove(IF_THEN_ELSE);
        }
    }

    /**
     * Whether the sent copy would leave out or rename anything in {@code node} or beneath it: an unsupported
     * constraint, format or minItems, or a oneOf. An empty schema left out under {@link #EMPTY_MEANS_NOTHING} is not
     * counted: it said nothing.
     */
    static boolean losesSomething(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            return false;
        }
        if (UNSUPPORTED_CONSTRAINTS.stream().anyMatch(object::has) || object.has("oneOf") || unsupportedFormat(object)
                || minItemsAboveOne(object)) {
            return true;
        }
        // a then or else with no if beside it is left out of the copy, not sent: it loses nothing there
        return subschemas(object, "").stream().anyMatch(sub -> losesSomething(sub.schema())
                && (object.has("if") || !List.of("then", "else").contains(sub.keyword())));
    }

    private static boolean unsupportedFormat(ObjectNode object) {
        JsonNode format = object.get("format");
        return format != null && !(format.isTextual() && SUPPORTED_FORMATS.contains(format.textValue()));
    }

    private static boolean minItemsAboveOne(ObjectNode object) {
        JsonNode minItems = object.get("minItems");
        return minItems != null && minItems.isNumber() && minItems.asInt() > 1;
    }

    /**
     * Leaves out of the sent copy a then or else with no if beside it, everywhere: the spec ignores them, so they say
     * nothing, and sent they might be read otherwise.
     */
    private static void leaveOutThenElseWithoutIf(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        if (!object.has("if")) {
            object.remove(List.of("then", "else"));
        }
        for (Subschema sub : subschemas(object, "")) {
            leaveOutThenElseWithoutIf(sub.schema());
        }
    }

    /**
     * Sends oneOf as anyOf, as the SDKs do (the API takes anyOf, not oneOf; Rein's validation keeps "exactly one"), or,
     * where the name is taken, as one more allOf entry (both must hold; the API takes allOf). Done after the walk, so
     * that a refusal's path names the place as the schema given says it (oneOf).
     */
    private static void renameOneOf(ObjectNode object) {
        JsonNode oneOf = object.remove("oneOf");
        if (oneOf == null) {
            return;
        }
        if (!object.has("anyOf")) {
            object.set("anyOf", oneOf);
        } else {
            JsonNode allOf = object.get("allOf");
            ArrayNode entries = allOf != null && allOf.isArray() ? (ArrayNode) allOf : object.putArray("allOf");
            entries.addObject().set("anyOf", oneOf);
        }
    }
}
