package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import java.util.List;

/**
 * The output schema as the API's structured outputs take it ({@link #of}): a copy changed as the official SDKs change
 * it, or a refusal before sending where a change would alter what the answer may be. Rein validates the answer against
 * the schema as given either way.
 */
final class SentSchema {
    private SentSchema() {}

    /** Keywords the structured outputs docs list as unsupported; Rein's own validation still applies them. */
    private static final List<String> UNSUPPORTED_CONSTRAINTS = List.of("minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "maxItems", "uniqueItems", "contains", "minContains",
            "maxContains");

    /** The string formats the structured outputs docs list (and the official SDKs keep); any other is left out. */
    private static final java.util.Set<String> SUPPORTED_FORMATS = java.util.Set.of("date-time", "time", "date", "duration",
            "email", "hostname", "uri", "ipv4", "ipv6", "uuid");

    /** How a keyword holds its schemas: one schema, an array of them, or a map of names to them. */
    private enum Holds { ONE, ARRAY, MAP }

    /**
     * What a keyword's schemas are to the value. VALUE: a value's own schema (a property's, an item's), closed and saying
     * its kind. ENTRY: an allOf entry, which describes the same value as its node with it, closed but need not say its
     * kind ({"required": [...]}, say). CONDITION: a condition on the value or a schema applied only when one holds (not,
     * if, then, else, contains, propertyNames, dependentSchemas, dependencies), which is not closed, nor anything under it:
     * closed it would say another thing (a dependentSchemas entry does not list its trigger property, so closed it
     * could never hold), and it need not say a kind.
     */
    private enum SchemaRole { VALUE, ENTRY, CONDITION }

    /** A keyword whose value holds schemas, how it holds them, and what they are to the value ({@link SchemaRole}). */
    private record Applicator(String keyword, Holds holds, SchemaRole role) {}

    /**
     * Every keyword that holds schemas: JSON Schema 2020-12's core ($defs) and applicator vocabularies, its
     * unevaluated ones, and the earlier drafts' additionalItems, dependencies (the schema form) and definitions, so that
     * no schema the API is sent goes unchecked. Data keywords (const, enum, default, examples) are not among them.
     */
    private static final List<Applicator> APPLICATORS = List.of(
            new Applicator("items", Holds.ONE, SchemaRole.VALUE), new Applicator("not", Holds.ONE, SchemaRole.CONDITION),
            new Applicator("if", Holds.ONE, SchemaRole.CONDITION), new Applicator("then", Holds.ONE, SchemaRole.CONDITION),
            new Applicator("else", Holds.ONE, SchemaRole.CONDITION), new Applicator("contains", Holds.ONE, SchemaRole.CONDITION),
            new Applicator("additionalItems", Holds.ONE, SchemaRole.VALUE),
            new Applicator("propertyNames", Holds.ONE, SchemaRole.CONDITION),
            new Applicator("unevaluatedItems", Holds.ONE, SchemaRole.VALUE),
            new Applicator("unevaluatedProperties", Holds.ONE, SchemaRole.VALUE),
            new Applicator("additionalProperties", Holds.ONE, SchemaRole.VALUE),
            new Applicator("anyOf", Holds.ARRAY, SchemaRole.VALUE), new Applicator("allOf", Holds.ARRAY, SchemaRole.ENTRY),
            new Applicator("oneOf", Holds.ARRAY, SchemaRole.VALUE), new Applicator("prefixItems", Holds.ARRAY, SchemaRole.VALUE),
            new Applicator("properties", Holds.MAP, SchemaRole.VALUE), new Applicator("$defs", Holds.MAP, SchemaRole.VALUE),
            new Applicator("definitions", Holds.MAP, SchemaRole.VALUE),
            new Applicator("patternProperties", Holds.MAP, SchemaRole.VALUE),
            new Applicator("dependentSchemas", Holds.MAP, SchemaRole.CONDITION),
            new Applicator("dependencies", Holds.MAP, SchemaRole.CONDITION));

    /**
     * The keywords whose default is any value, so that an empty schema under them ({@code {}}) says nothing: it is left
     * out of the sent copy rather than refused as a value of any kind.
     */
    private static final List<String> EMPTY_MEANS_NOTHING = List.of("unevaluatedProperties", "unevaluatedItems",
            "additionalItems");

    /** A schema held by a keyword of another: the schema, its JSON Pointer, the keyword, what it is to the value. */
    private record Subschema(ObjectNode schema, String pointer, String keyword, SchemaRole role) {}

    /** The schemas {@code object} holds through its {@link #APPLICATORS}, in their order (boolean schemas left out). */
    private static List<Subschema> subschemas(ObjectNode object, String pointer) {
        List<Subschema> found = new java.util.ArrayList<>();
        for (Applicator a : APPLICATORS) {
            JsonNode value = object.get(a.keyword());
            String at = pointer + "/" + a.keyword();
            switch (a.holds()) {
                case ONE -> {
                    if (value instanceof ObjectNode schema) {
                        found.add(new Subschema(schema, at, a.keyword(), a.role()));
                    } else {
                        elements(value, at, a, found); // the earlier drafts' tuple: an items array
                    }
                }
                case ARRAY -> elements(value, at, a, found);
                case MAP -> {
                    if (value instanceof ObjectNode map) {
                        // a dependencies entry may be an array of names, not a schema
                        map.properties().forEach(e -> {
                            if (e.getValue() instanceof ObjectNode schema) {
                                found.add(new Subschema(schema, at + "/" + pointerStep(e.getKey()), a.keyword(),
                                        a.role()));
                            }
                        });
                    }
                }
            }
        }
        return found;
    }

    /** The schemas in {@code value} if it is an array, at {@code at}/0, /1 and on. */
    private static void elements(JsonNode value, String at, Applicator a, List<Subschema> found) {
        for (int i = 0; value != null && value.isArray() && i < value.size(); i++) {
            if (value.get(i) instanceof ObjectNode schema) {
                found.add(new Subschema(schema, at + "/" + i, a.keyword(), a.role()));
            }
        }
    }

    /**
     * The keywords that refer to another schema: a {@code $dynamicRef} (2020-12) or {@code $recursiveRef} (2019-09)
     * points at a schema as a {@code $ref} does, so under an {@code allOf} it is refused the same.
     */
    private static final List<String> REFS = List.of("$ref", "$dynamicRef", "$recursiveRef");

    /**
     * Why a reference ({@code ref}: its keyword) under an {@code allOf} is refused, and what to do: the tail both such
     * refusals share. The docs' words are "allOf with $ref not supported"; refusing a {@code $ref} deeper than an entry,
     * and a {@code $dynamicRef} or {@code $recursiveRef} as a {@code $ref}, is Rein's reading of them.
     */
    private static String refUnderAllOf(String ref) {
        return " (the structured outputs docs list \"allOf with $ref\" as not supported; Rein reads that cautiously as"
                + " any $ref under an allOf, deeper ones too" + (ref.equals("$ref") ? "" : ", and a " + ref + " as a $ref")
                + "): write the referenced schema out in place of the " + ref;
    }

    /** The keyword a reference's JSON Pointer (from {@link #firstRef}) ends with: $ref, $dynamicRef or $recursiveRef. */
    private static String refKeyword(String pointer) {
        return pointer.substring(pointer.lastIndexOf('/') + 1);
    }

    /**
     * The output schema as the API's structured outputs take it, a copy: every object schema closed with
     * {@code "additionalProperties": false} (required, as the official SDKs add it), but for a condition's and what is
     * under it ({@link SchemaRole#CONDITION}: closed, it would say another thing), and the numerical, string-length and
     * array-size constraints the docs list as unsupported, a string format outside the supported list, and an empty
     * schema under a keyword whose default it is ({@link #EMPTY_MEANS_NOTHING}), left out, and
     * {@code oneOf} sent as {@code anyOf} (as the SDKs do; the system prompt shows the whole
     * schema and Rein validates the answer against it), or, on a node that has an {@code anyOf} already, as one more
     * {@code allOf} entry. An object that allows other properties (a {@code Map}'s values' schema as
     * {@code additionalProperties}), or lists none (a bare {@code {"type":"object"}}, as a {@code Map<String, Object>}
     * generates), is refused: sending it closed would change what the answer may hold; an empty record (a closed empty
     * object) is sent. A schema that says nothing of its value's kind (none of type, anyOf, oneOf, allOf, $ref,
     * $dynamicRef, $recursiveRef, enum, const: the {@code {}} a JsonNode or Object generates) is refused too: the API answers it with a 400 (its SDKs
     * refuse a schema with none of type, anyOf, oneOf, allOf).
     * An {@code allOf} of the schema's own, and a oneOf that would go as an {@code allOf} entry, that holds a {@code $ref}
     * (an entry's or deeper; a {@code $dynamicRef} or {@code $recursiveRef} as well) is refused too, beneath any keyword
     * that holds schemas ({@link #APPLICATORS}), wherever it is in the schema, in a {@code $defs} (or {@code definitions})
     * entry that no {@code $ref} reaches as well: the docs list "{@code allOf} with {@code $ref}" as not supported, and
     * Rein reads that cautiously as any {@code $ref} under an {@code allOf}, deeper ones too, and does not bet that the
     * API ignores an entry nothing uses. A refusal names the place as a JSON Pointer into the schema as given.
     */
    static ObjectNode of(OutputSchema schema) {
        ObjectNode copy = schema.schema().deepCopy();
        close(copy, "", schema.name());
        return copy;
    }

    /** Keywords of which one a schema the API takes must have (its SDKs ask for type, anyOf, oneOf or allOf). */
    private static final List<String> KIND_KEYWORDS = List.of("type", "anyOf", "oneOf", "allOf", "$ref", "$dynamicRef",
            "$recursiveRef", "enum", "const");

    private static void close(JsonNode node, String pointer, String name) {
        close(node, pointer, name, SchemaRole.VALUE);
    }

    /**
     * {@code role}: what the node is to the value ({@link SchemaRole}); a CONDITION's node, and every one under it, is walked
     * for the allOf check and the constraints only: not closed, not asked to say its kind.
     */
    private static void close(JsonNode node, String pointer, String name, SchemaRole role) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        boolean condition = role == SchemaRole.CONDITION;
        JsonNode ownAllOf = object.get("allOf");
        String ownRef = ownAllOf == null ? null : firstRef(ownAllOf, pointer + "/allOf");
        if (ownRef != null) {
            // The docs' "Supported features": "anyOf and allOf (with limitations - allOf with $ref not supported)".
            throw new ReinException("the output schema " + name + " has an allOf at " + (pointer.isEmpty() ? "its top"
                    : pointer) + " that holds a " + refKeyword(ownRef) + " at " + ownRef + refUnderAllOf(refKeyword(ownRef))
                    + ", or leave"
                    + " AnthropicStructuredOutput off (Rein still validates the answer)");
        }
        if (role == SchemaRole.VALUE && KIND_KEYWORDS.stream().noneMatch(object::has)) {
            throw new ReinException("the output schema " + name + " has a schema at " + (pointer.isEmpty() ? "its top"
                    : pointer) + " that says nothing of the value's kind (" + object + ": none of type, anyOf, oneOf,"
                    + " allOf, $ref, $dynamicRef, $recursiveRef, enum, const), which the API's structured outputs refuse: a JsonNode or Object field"
                    + " takes any value, which structured outputs cannot express: use a record, or leave"
                    + " AnthropicStructuredOutput off (Rein still validates the answer)");
        }
        JsonNode given = object.get("oneOf");
        if (given != null && object.has("anyOf")) {
            // Looked for before the walk renames nested oneOfs, so that the path is the schema's as given.
            String ref = firstRef(given, pointer + "/oneOf");
            if (ref != null) {
                throw new ReinException("the output schema " + name + " has both anyOf and oneOf at " + (pointer.isEmpty()
                        ? "its top" : pointer) + ", so its oneOf would be sent as an allOf entry (the API takes no oneOf,"
                        + " and the name anyOf is taken), and that oneOf holds a " + refKeyword(ref) + " at " + ref
                        + refUnderAllOf(refKeyword(ref))
                        + ", or keep only one of anyOf and oneOf there, or leave AnthropicStructuredOutput off (Rein still"
                        + " validates the answer)");
            }
        }
        JsonNode type = object.get("type");
        boolean isObject = object.has("properties") || (type != null && (type.isTextual() ? "object".equals(type.textValue())
                : type.isArray() && java.util.stream.StreamSupport.stream(type.spliterator(), false)
                        .anyMatch(t -> "object".equals(t.textValue()))));
        JsonNode additional = object.get("additionalProperties");
        if (!condition && additional != null && !(additional.isBoolean() && !additional.booleanValue())) {
            throw new ReinException("the output schema " + name + " lets the object at " + (pointer.isEmpty() ? "its top" : pointer)
                    + " hold other properties (\"additionalProperties\": " + additional + "), and the API's structured"
                    + " outputs take only \"additionalProperties\": false: list the properties it may hold (a record instead"
                    + " of a Map), or leave AnthropicStructuredOutput off (Rein still validates the answer)");
        }
        if (!condition && isObject && additional == null) {
            if (!object.has("properties")) {
                // A bare {"type":"object"} (what a Map<String, Object> field generates, for one; another Map has its
                // values' schema and an empty record is closed) sent closed would let the model answer only {} there:
                // the data would be lost while the answer still validates.
                throw new ReinException("the output schema " + name + " has an object at " + (pointer.isEmpty() ? "its top"
                        : pointer) + " that lists no \"properties\" (a Map<String, Object> field is generated so, for one), and the"
                        + " API's structured outputs close every object, so the model could answer only {} there: list"
                        + " the properties it may hold (a record in place of that field's type; in a schema given as JSON,"
                        + " \"properties\": {} for an object that holds nothing), or leave AnthropicStructuredOutput off"
                        + " (Rein still validates the answer)");
            }
            object.put("additionalProperties", false);
        }
        object.remove(UNSUPPORTED_CONSTRAINTS);
        JsonNode format = object.get("format");
        if (format != null && !(format.isTextual() && SUPPORTED_FORMATS.contains(format.textValue()))) {
            object.remove("format");
        }
        JsonNode minItems = object.get("minItems");
        if (minItems != null && minItems.isNumber() && minItems.asInt() > 1) {
            object.remove("minItems"); // only 0 or 1 is supported
        }
        for (String keyword : EMPTY_MEANS_NOTHING) {
            if (object.get(keyword) instanceof ObjectNode empty && empty.isEmpty()) {
                object.remove(keyword);
            }
        }
        // The unsupported constraints (contains among them) are gone by now: what they held is not sent, nor walked.
        for (Subschema sub : subschemas(object, pointer)) {
            close(sub.schema(), sub.pointer(), name, condition ? SchemaRole.CONDITION : sub.role());
        }
        // Renamed after the walk, so that a refusal's path names the place as the schema given says it (oneOf).
        JsonNode oneOf = object.remove("oneOf");
        if (oneOf != null) {
            // As the SDKs send it: the API takes anyOf, not oneOf (Rein's validation keeps "exactly one").
            if (!object.has("anyOf")) {
                object.set("anyOf", oneOf);
            } else {
                // The name is taken: both must hold, so the oneOf goes as one more allOf entry (the API takes allOf).
                JsonNode allOf = object.get("allOf");
                ArrayNode entries = allOf != null && allOf.isArray()
                        ? (ArrayNode) allOf : object.putArray("allOf");
                entries.addObject().set("anyOf", oneOf);
            }
        }
    }

    /**
     * The JSON Pointer of the first reference ({@link #REFS}: {@code $ref}, {@code $dynamicRef}, {@code $recursiveRef})
     * in {@code node} or the schemas under it (through the keywords that hold schemas, so a property named {@code $ref}
     * is not taken for one), or null. What the sent copy leaves out (a {@code contains}) is not looked in: no reference
     * there is sent.
     */
    private static String firstRef(JsonNode node, String pointer) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String ref = firstRef(node.get(i), pointer + "/" + i);
                if (ref != null) {
                    return ref;
                }
            }
            return null;
        }
        if (!(node instanceof ObjectNode object)) {
            return null;
        }
        for (String ref : REFS) {
            if (object.has(ref)) {
                return pointer + "/" + ref;
            }
        }
        for (Subschema sub : subschemas(object, pointer)) {
            String ref = UNSUPPORTED_CONSTRAINTS.contains(sub.keyword()) ? null : firstRef(sub.schema(), sub.pointer());
            if (ref != null) {
                return ref;
            }
        }
        return null;
    }

    /** A name as one step of a JSON Pointer (RFC 6901): '~' is written ~0 and '/' ~1. */
    private static String pointerStep(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
