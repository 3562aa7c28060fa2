package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The copy of a schema the validator compiles, with each {@code anyOf} and {@code allOf} listing a subschema once: a
 * value fits {@code anyOf [A, A]} and {@code allOf [A, A]} exactly when it fits A, so what is valid is unchanged. The
 * networknt validator (1.5.9) makes a new compiled schema for a {@code $ref}'s target at each evaluation path that
 * reaches it ({@code JsonSchema.fromRef}), preloads them to a nesting depth of 40, and tries every {@code anyOf} branch
 * of a value that fits none: levels each {@code {"anyOf": [{"$ref": "#/$defs/next"}, {"$ref": "#/$defs/next"}]}} were 2^n
 * paths, about 13 s to compile at 30 levels and never ending to check a value that fits no level. {@code oneOf} is kept as
 * written ({@code oneOf [A, A]} fits no value). A schema with any {@code $ref} or {@code $dynamicRef} whose fragment names
 * an {@code anyOf} or {@code allOf} index ({@code "#/$defs/a/anyOf/1"}, {@code "inner#/anyOf/1"}) is kept whole: which
 * array it points into depends on the base it is resolved against (a subschema's own {@code $id}), and its indices must
 * not move (rev132: matching the pointer against the root only, "inner#/anyOf/1" was moved onto another branch).
 */
public final class DistinctBranches {
    private static final Set<String> DEDUPLICATED = Set.of("anyOf", "allOf");

    private DistinctBranches() {}

    /**
     * {@code schema} itself when no {@code anyOf} or {@code allOf} in it lists a subschema twice, or a reference points
     * into one; else a copy without.
     */
    public static ObjectNode of(ObjectNode schema) {
        List<String> refs = new ArrayList<>();
        refs(schema, refs);
        if (refs.stream().anyMatch(DistinctBranches::intoAnArray)) {
            return schema;
        }
        ObjectNode copy = schema.deepCopy();
        return distinct(copy) ? copy : schema;
    }

    /** Whether {@code ref}'s fragment names an index of an anyOf or allOf, against whatever base. */
    private static boolean intoAnArray(String ref) {
        int hash = ref.indexOf('#');
        String fragment = hash < 0 ? "" : ref.substring(hash);
        return DEDUPLICATED.stream().anyMatch(keyword -> fragment.contains(keyword + "/"));
    }

    /** Whether a branch was dropped under {@code node}. */
    private static boolean distinct(JsonNode node) {
        boolean dropped = false;
        if (node instanceof ObjectNode object) {
            for (var e : object.properties()) {
                String key = e.getKey();
                if (SchemaKeywords.DATA.contains(key)) {
                    continue;
                }
                if (SchemaKeywords.holdsNamedSchemas(key) && e.getValue().isObject()) {
                    for (var named : e.getValue().properties()) {
                        dropped |= distinct(named.getValue());
                    }
                    continue;
                }
                if (DEDUPLICATED.contains(key) && e.getValue() instanceof ArrayNode branches) {
                    Set<JsonNode> kept = new LinkedHashSet<>();
                    branches.forEach(kept::add);
                    if (kept.size() < branches.size()) {
                        branches.removeAll();
                        kept.forEach(branches::add);
                        dropped = true;
                    }
                }
                dropped |= distinct(e.getValue());
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode item : array) {
                dropped |= distinct(item);
            }
        }
        return dropped;
    }

    /** Every {@code $ref} and {@code $dynamicRef} under {@code node}, percent-decoded where it can be. */
    private static void refs(JsonNode node, List<String> refs) {
        if (node instanceof ObjectNode object) {
            for (String ref : List.of("$ref", "$dynamicRef")) {
                if (object.path(ref).isTextual()) {
                    String text = object.path(ref).asText();
                    refs.add(text);
                    try {
                        refs.add(URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException e) { // a malformed escape: the validator reports it
                        // the text as written is kept above
                    }
                }
            }
        }
        node.forEach(child -> refs(child, refs));
    }
}
