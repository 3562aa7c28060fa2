package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.internal.schema.SchemaKeywords;
import dev.rein.internal.schema.SchemaKeywords.Holds;
import java.util.List;
import java.util.Map;

/**
 * The keywords that hold schemas ({@link #APPLICATORS}) and the schemas a schema holds through them, as the sent copy's
 * checks walk them ({@link SentSchema}); JSON Pointer steps.
 */
final class SchemaTree {
    private SchemaTree() {}

    /**
     * What a keyword's schemas are to the value. VALUE: a value's own schema (a property's, an item's), closed and saying
     * its kind. ENTRY: an allOf entry, which describes the same value as its node with it, closed but need not say its
     * kind ({"required": [...]}, say). CONDITION: a condition on the value or a schema applied only when one holds (not,
     * if, then, else, contains, propertyNames, dependentSchemas, dependencies), which is not closed, nor anything under it:
     * closed it would say another thing (a dependentSchemas entry does not list its trigger property, so closed it
     * could never hold), and it need not say a kind.
     */
    enum SchemaRole { VALUE, ENTRY, CONDITION }

    /** A keyword whose value holds schemas, how it holds them, and what they are to the value ({@link SchemaRole}). */
    record Applicator(String keyword, Holds holds, SchemaRole role) {}

    /**
     * What each keyword's schemas are to the value, for every keyword that holds schemas. Which keywords those are, and
     * how each holds them, is rein-core's one table ({@link SchemaKeywords#APPLICATORS}: JSON Schema 2020-12's core and
     * applicator vocabularies, its unevaluated ones, and the earlier drafts' additionalItems, dependencies and
     * definitions), so that no schema the API is sent goes unchecked; data keywords (const, enum, default, examples) are
     * not among them.
     */
    private static final Map<String, SchemaRole> ROLES = Map.ofEntries(
            Map.entry("items", SchemaRole.VALUE), Map.entry("not", SchemaRole.CONDITION),
            Map.entry("if", SchemaRole.CONDITION), Map.entry("then", SchemaRole.CONDITION),
            Map.entry("else", SchemaRole.CONDITION), Map.entry("contains", SchemaRole.CONDITION),
            Map.entry("additionalItems", SchemaRole.VALUE), Map.entry("propertyNames", SchemaRole.CONDITION),
            Map.entry("unevaluatedItems", SchemaRole.VALUE), Map.entry("unevaluatedProperties", SchemaRole.VALUE),
            Map.entry("additionalProperties", SchemaRole.VALUE), Map.entry("anyOf", SchemaRole.VALUE),
            Map.entry("allOf", SchemaRole.ENTRY), Map.entry("oneOf", SchemaRole.VALUE), Map.entry("prefixItems", SchemaRole.VALUE),
            Map.entry("properties", SchemaRole.VALUE), Map.entry("$defs", SchemaRole.VALUE),
            Map.entry("definitions", SchemaRole.VALUE), Map.entry("patternProperties", SchemaRole.VALUE),
            Map.entry("dependentSchemas", SchemaRole.CONDITION), Map.entry("dependencies", SchemaRole.CONDITION));

    /** Every keyword that holds schemas, in rein-core's order, with its role here. */
    static final List<Applicator> APPLICATORS = SchemaKeywords.APPLICATORS.entrySet().stream()
            .map(e -> new Applicator(e.getKey(), e.getValue(), role(e.getKey()))).toList();

    /** The role of {@code keyword}: a keyword rein-core's table gains fails here, loudly, until it is given one. */
    private static SchemaRole role(String keyword) {
        SchemaRole role = ROLES.get(keyword);
        if (role == null) {
            throw new IllegalStateException("SchemaTree gives no role to the keyword '" + keyword + "' of SchemaKeywords");
        }
        return role;
    }

    /** A schema held by a keyword of another: the schema, its JSON Pointer, the keyword, what it is to the value. */
    record Subschema(JsonNode schema, String pointer, String keyword, SchemaRole role) {}

    /** Whether {@code node} is a schema: an object, or a boolean schema ({@code true} as {@code {}}, {@code false}). */
    private static boolean isSchema(JsonNode node) {
        return node instanceof ObjectNode || (node != null && node.isBoolean());
    }

    /** The schemas {@code object} holds through its {@link #APPLICATORS}, in their order (boolean schemas too). */
    static List<Subschema> subschemas(ObjectNode object, String pointer) {
        List<Subschema> found = new java.util.ArrayList<>();
        for (Applicator a : APPLICATORS) {
            JsonNode value = object.get(a.keyword());
            String at = pointer + "/" + a.keyword();
            switch (a.holds()) {
                case ONE -> {
                    if (isSchema(value)) {
                        found.add(new Subschema(value, at, a.keyword(), a.role()));
                    } else {
                        elements(value, at, a, found); // the earlier drafts' tuple: an items array
                    }
                }
                case ARRAY -> elements(value, at, a, found);
                case MAP -> {
                    if (value instanceof ObjectNode map) {
                        // a dependencies entry may be an array of names, not a schema
                        map.properties().forEach(e -> {
                            if (isSchema(e.getValue())) {
                                found.add(new Subschema(e.getValue(), at + "/" + pointerStep(e.getKey()), a.keyword(),
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
            if (isSchema(value.get(i))) {
                found.add(new Subschema(value.get(i), at + "/" + i, a.keyword(), a.role()));
            }
        }
    }

    /** Whether the schema is an object's: it lists properties or its type is (or includes) object. */
    static boolean isObject(ObjectNode object) {
        JsonNode type = object.get("type");
        return object.has("properties") || (type != null && (type.isTextual() ? "object".equals(type.textValue())
                : type.isArray() && java.util.stream.StreamSupport.stream(type.spliterator(), false)
                        .anyMatch(t -> "object".equals(t.textValue()))));
    }

    /** A schema and its JSON Pointer. */
    record Located(ObjectNode schema, String at) {}

    /** One step of a JSON Pointer (RFC 6901) as the name it stands for: ~1 is '/' and ~0 '~' (in that order). */
    static String fromPointerStep(String step) {
        return step.replace("~1", "/").replace("~0", "~");
    }

    /** A name as one step of a JSON Pointer (RFC 6901): '~' is written ~0 and '/' ~1. */
    static String pointerStep(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
