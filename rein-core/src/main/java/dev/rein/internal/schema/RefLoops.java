package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds, in a hand-written JSON Schema, a loop of subschemas that apply to the same value ({@code "a": {"$ref":
 * "#/$defs/b"}}, {@code "b": {"allOf": [{"$ref": "#/$defs/a"}]}}): checking a value against it never ends, and the
 * validator overflowed the stack. A loop that passes through a property or an item (a tree's {@code "items": {"$ref":
 * "#"}}) moves to a smaller value each time, and ends.
 */
public final class RefLoops {
    /** Keywords whose subschemas apply to the value itself, not to a part of it. */
    private static final List<String> IN_PLACE_LISTS = List.of("allOf", "anyOf", "oneOf");
    private static final List<String> IN_PLACE_ONE = List.of("not", "if", "then", "else");

    private RefLoops() {}

    /**
     * The loop in {@code root}, as the JSON pointers of its subschemas ("#/$defs/a → #/$defs/b/allOf/0 → #/$defs/a"), or
     * null when it has none. Only local references ({@code "#/..."}, {@code "#"}) are followed: Rein fetches no other.
     */
    public static String find(JsonNode root) {
        Set<String> done = new HashSet<>();
        List<String> all = new ArrayList<>();
        pointers(root, "#", all);
        for (String start : all) {
            String loop = walk(root, start, new ArrayList<>(), done);
            if (loop != null) {
                return loop;
            }
        }
        return null;
    }

    /** Every object under {@code node} (a subschema, or not: an object that is none has no in-place keyword). */
    private static void pointers(JsonNode node, String at, List<String> all) {
        if (node.isObject()) {
            all.add(at);
            node.properties().forEach(e -> pointers(e.getValue(), at + "/" + escape(e.getKey()), all));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                pointers(node.get(i), at + "/" + i, all);
            }
        }
    }

    /** Follows the in-place keywords from {@code at}; {@code path} holds the pointers on the way, {@code done} those with no loop. */
    private static String walk(JsonNode root, String at, List<String> path, Set<String> done) {
        int seen = path.indexOf(at);
        if (seen >= 0) {
            List<String> loop = new ArrayList<>(path.subList(seen, path.size()));
            loop.add(at);
            return String.join(" → ", loop);
        }
        if (done.contains(at)) {
            return null;
        }
        JsonNode schema;
        try {
            schema = at.equals("#") ? root : root.at(at.substring(1));
        } catch (IllegalArgumentException e) { // a $ref that is no JSON pointer: the validator reports it
            schema = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        if (!schema.isObject()) {
            done.add(at);
            return null;
        }
        path.add(at);
        for (String next : inPlace(schema, at)) {
            String loop = walk(root, next, path, done);
            if (loop != null) {
                return loop;
            }
        }
        path.remove(path.size() - 1);
        done.add(at);
        return null;
    }

    /** The pointers of the subschemas that apply to the same value as the schema at {@code at}. */
    private static List<String> inPlace(JsonNode schema, String at) {
        List<String> next = new ArrayList<>();
        for (String ref : List.of("$ref", "$dynamicRef")) {
            String target = schema.path(ref).asText("");
            if (target.equals("#") || target.startsWith("#/")) {
                next.add(target);
            }
        }
        for (String keyword : IN_PLACE_LISTS) {
            for (int i = 0; i < schema.path(keyword).size() && schema.path(keyword).isArray(); i++) {
                next.add(at + "/" + keyword + "/" + i);
            }
        }
        for (String keyword : IN_PLACE_ONE) {
            if (schema.path(keyword).isObject()) {
                next.add(at + "/" + keyword);
            }
        }
        schema.path("dependentSchemas").properties().forEach(e -> next.add(at + "/dependentSchemas/" + escape(e.getKey())));
        return next;
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
