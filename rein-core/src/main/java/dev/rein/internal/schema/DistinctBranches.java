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
 * written ({@code oneOf [A, A]} fits no value), and so is an array a {@code $ref} points into ({@code "#/$defs/a/anyOf/1"}),
 * whose indices must not move.
 */
public final class DistinctBranches {
    private static final Set<String> DEDUPLICATED = Set.of("anyOf", "allOf");

    private DistinctBranches() {}

    /** {@code schema} itself when no {@code anyOf} or {@code allOf} in it lists a subschema twice, else a copy without. */
    public static ObjectNode of(ObjectNode schema) {
        List<String> refs = new ArrayList<>();
        refs(schema, refs);
        ObjectNode copy = schema.deepCopy();
        return distinct(copy, "", refs) ? copy : schema;
    }

    /** Whether a branch was dropped under {@code node} (at JSON pointer {@code at}, without the leading '#'). */
    private static boolean distinct(JsonNode node, String at, List<String> refs) {
        boolean dropped = false;
        if (node instanceof ObjectNode object) {
            for (var e : object.properties()) {
                String key = e.getKey();
                String below = at + "/" + escape(key);
                if (SchemaKeywords.DATA.contains(key)) {
                    continue;
                }
                if (SchemaKeywords.holdsNamedSchemas(key) && e.getValue().isObject()) {
                    for (var named : e.getValue().properties()) {
                        dropped |= distinct(named.getValue(), below + "/" + escape(named.getKey()), refs);
                    }
                    continue;
                }
                if (DEDUPLICATED.contains(key) && e.getValue() instanceof ArrayNode branches
                        && refs.stream().noneMatch(ref -> ref.contains(below + "/"))) {
                    Set<JsonNode> kept = new LinkedHashSet<>();
                    branches.forEach(kept::add);
                    if (kept.size() < branches.size()) {
                        branches.removeAll();
                        kept.forEach(branches::add);
                        dropped = true;
                    }
                }
                dropped |= distinct(e.getValue(), below, refs);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                dropped |= distinct(array.get(i), at + "/" + i, refs);
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

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
