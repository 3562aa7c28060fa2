package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
     * null when it has none. Local references are followed: a JSON pointer ({@code "#/..."}, {@code "#"},
     * percent-encoded or not), an anchor ({@code "#A"}, {@code $anchor} or {@code $dynamicAnchor}), and either behind the
     * root's own {@code $id}; Rein fetches no other. Each is looked up in its own schema resource (the nearest subschema
     * with its own {@code $id}), as the validator (networknt 1.5.9) reads it, with or without a root {@code $id} (rev132:
     * pointers were looked up in the root, refusing a valid schema). Except a reference beside the {@code $id} itself: the
     * validator looks it up in the enclosing resource first, and in its own only when that has no such pointer or anchor,
     * so rev126's {@code "a": {"$id": "urn:a", "$ref": "#/$defs/b", "$defs": {"b": ...}}}, {@code "b": {"$ref":
     * "#/$defs/a"}} loops (it overflowed its stack). A loop found only by the validator is {@link #overflow}.
     */
    public static String find(JsonNode root) {
        Set<String> done = new HashSet<>();
        List<String> all = new ArrayList<>();
        Map<String, String> anchors = new HashMap<>();
        Map<String, String> resources = new HashMap<>();
        Map<String, String> outer = new HashMap<>();
        pointers(root, "#", "#", all, anchors, resources, outer);
        String base = root.path("$id").asText("");
        int hash = base.indexOf('#');
        Walk walk = new Walk(root, hash >= 0 ? base.substring(0, hash) : base, anchors, resources, outer, done);
        for (String start : all) {
            String loop = walk.from(start, new ArrayList<>());
            if (loop != null) {
                return loop;
            }
        }
        return null;
    }

    /**
     * What Rein tells of a loop {@link #find} found, for {@code what} ("the output schema 'X'", "tool 't' has an input
     * schema that") and {@code checking} ("an answer", "arguments").
     */
    public static String describe(String what, String loop, String checking) {
        return what + " loops without reaching a property or item: " + loop + ", each applied to the same value, so checking "
                + checking + " would never end. Make one of them describe the value (a type, its properties) instead of"
                + " referring on";
    }

    /**
     * A value nested deeper than this, when the validator runs out of stack checking it, is told as too deep ({@link
     * #tooDeep}), not as the schema's fault: at such depths the value alone takes the stack (rev132: a model's answer of
     * 900 levels ended the run configuration_error). Shallower, the overflow is the schema's ({@link #overflow}).
     */
    public static final int DEEP_VALUE = 200;

    /**
     * What is wrong with {@code value} ({@code what}: "the answer", "the arguments") when the validator ran out of stack
     * checking it, told to the model that sent it ({@code fix}: "answer", "send"); null when it is nested no deeper than
     * {@link #DEEP_VALUE} levels, or when {@code check} (the validator) overflows on the value cut at {@link #STAND_IN}
     * levels too, so the overflow is the schema's.
     */
    public static String tooDeep(JsonNode value, String what, String fix, java.util.function.Consumer<JsonNode> check) {
        int depth = dev.rein.json.Json.depth(value);
        if (depth <= DEEP_VALUE) {
            return null;
        }
        try { // a loop Rein does not follow overflows on a shallow stand-in too: then it is the schema's (rev133)
            check.accept(cut(value, STAND_IN));
        } catch (StackOverflowError e) {
            return null;
        }
        return what + " " + (what.endsWith("s") ? "are" : "is") + " nested " + depth
                + " levels deep, more than the validator can check (it ran out of stack): " + fix
                + " with fewer levels of nesting";
    }

    /** The levels of the stand-in {@link #tooDeep} checks: shallow enough for any stack, deep enough to reach most loops. */
    static final int STAND_IN = 20;

    /** {@code value} with its containers below {@code levels} levels emptied (a copy; depth-bounded recursion). */
    static JsonNode cut(JsonNode value, int levels) {
        if (!value.isContainerNode()) {
            return value;
        }
        com.fasterxml.jackson.databind.node.ContainerNode<?> copy = value.isObject()
                ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        if (levels > 1) {
            if (copy instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
                value.properties().forEach(e -> object.set(e.getKey(), cut(e.getValue(), levels - 1)));
            } else {
                value.forEach(item -> ((com.fasterxml.jackson.databind.node.ArrayNode) copy).add(cut(item, levels - 1)));
            }
        }
        return copy;
    }

    /**
     * What Rein tells when the validator overflowed the stack checking {@code checking} ("an answer", "arguments") against
     * {@code schema} ("the output schema 'X'", "tool 't''s input schema"), {@link #find} having found no loop and
     * {@link #tooDeep} not blaming the value: either a loop Rein does not follow, or a thread stack nearly full before the
     * check began (a larger one, -Xss, or fewer levels of nesting helps), as the README and docs/replay.md say.
     */
    public static String overflow(String schema, String checking) {
        return "checking " + checking + " against " + schema + " ran out of stack: the schema may loop through a form Rein"
                + " does not follow (such as a subschema with its own $id) with no property or item between, or the "
                + (checking.equals("an answer") ? "answer is" : checking + " are") + " nested too deeply for the validator."
                + " If the schema loops, make one of its subschemas describe the value (a type, its properties) instead of"
                + " referring on; if not, give the value fewer levels of nesting, or the JVM a larger thread stack (-Xss)";
    }

    /**
     * Every subschema under {@code node}, the schema resource each is in ({@code resources}: the pointer of the nearest
     * subschema with its own {@code $id} that is not fragment-only, "#" for the root's), and the anchors (also a
     * draft-06/07 {@code "$id": "#foo"}), by resource and name ({@link #anchor}); the
     * values of data keywords are left out; {@code outer} maps a subschema with its own {@code $id} to the resource around
     * it. An anchor is scoped to its resource (JSON Schema 2020-12, 8.2.2), as the
     * validator reads it: "#a" in the root is the root's "a", not a subschema with its own $id's. One resource defining
     * a name twice is no valid schema; the first in document order is followed.
     */
    private static void pointers(JsonNode node, String at, String resource, List<String> all, Map<String, String> anchors,
            Map<String, String> resources, Map<String, String> outer) {
        if (node.isObject()) {
            all.add(at);
            // draft-06/07's fragment-only "$id": "#foo" names an anchor, not a new base (rev133)
            String id = node.path("$id").isTextual() ? node.path("$id").asText() : null;
            String in = !at.equals("#") && id != null && !id.startsWith("#") ? at : resource;
            resources.put(at, in);
            if (!in.equals(resource)) {
                outer.put(at, resource);
            }
            if (id != null && id.startsWith("#") && id.length() > 1) {
                anchors.putIfAbsent(anchor(in, id.substring(1)), at);
            }
            for (String anchor : List.of("$anchor", "$dynamicAnchor")) {
                if (node.path(anchor).isTextual()) {
                    anchors.putIfAbsent(anchor(in, node.path(anchor).asText()), at);
                }
            }
            node.properties().forEach(e -> {
                String key = e.getKey();
                String below = at + "/" + escape(key);
                if (SchemaKeywords.holdsNamedSchemas(key) && e.getValue().isObject()) {
                    e.getValue().properties().forEach(n -> pointers(n.getValue(), below + "/" + escape(n.getKey()), in, all,
                            anchors, resources, outer));
                } else if (!SchemaKeywords.DATA.contains(key)) {
                    pointers(e.getValue(), below, in, all, anchors, resources, outer);
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                pointers(node.get(i), at + "/" + i, resource, all, anchors, resources, outer);
            }
        }
    }

    /** The key of anchor {@code name} of the schema resource at {@code resource} in the anchors' map. */
    private static String anchor(String resource, String name) {
        return resource + " " + name;
    }

    /**
     * One search: the root, its $id without fragment, its anchors, the resource of each subschema (and the one around
     * each subschema with its own $id), and the pointers found to lead to no loop.
     */
    private record Walk(JsonNode root, String base, Map<String, String> anchors, Map<String, String> resources,
            Map<String, String> outer, Set<String> done) {
        /** Follows the in-place keywords from {@code at}; {@code path} holds the pointers on the way. */
        String from(String at, List<String> path) {
            int seen = path.indexOf(at);
            if (seen >= 0) {
                List<String> loop = new ArrayList<>(path.subList(seen, path.size()));
                loop.add(at);
                return String.join(" → ", loop);
            }
            if (done.contains(at)) {
                return null;
            }
            JsonNode schema = node(at);
            if (!schema.isObject()) {
                done.add(at);
                return null;
            }
            path.add(at);
            for (String next : inPlace(schema, at)) {
                String loop = from(next, path);
                if (loop != null) {
                    return loop;
                }
            }
            path.remove(path.size() - 1);
            done.add(at);
            return null;
        }

        /** The pointers of the subschemas that apply to the same value as the schema at {@code at}. */
        private List<String> inPlace(JsonNode schema, String at) {
            List<String> next = new ArrayList<>();
            for (String ref : List.of("$ref", "$dynamicRef")) {
                String written = schema.path(ref).asText("");
                // beside its own $id, the validator looks in the enclosing resource first
                String target = outer.containsKey(at) ? target(written, outer.get(at)) : null;
                if (target == null || node(target).isMissingNode()) {
                    target = target(written, resources.getOrDefault(at, "#"));
                }
                if (target != null) {
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

        /**
         * The local pointer {@code ref} leads to, decoded ("#/$defs/a b" for "#/$defs/a%20b"), or null when not local; a
         * pointer or anchor is looked up in {@code resource} (the pointer of a subschema with its own $id, or "#"), or the
         * root's when behind its $id.
         */
        private String target(String ref, String resource) {
            if (!base.isEmpty() && ref.startsWith(base) && (ref.length() == base.length() || ref.charAt(base.length()) == '#')) {
                ref = ref.length() == base.length() ? "#" : ref.substring(base.length());
                resource = "#";
            }
            if (!ref.startsWith("#")) {
                return null;
            }
            String fragment;
            try {
                fragment = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) { // a malformed escape: the validator reports it
                return null;
            }
            if (fragment.isEmpty()) {
                return resource;
            }
            return fragment.startsWith("/") ? resource + fragment
                    : anchors.get(anchor(resource, fragment));
        }

        /** The subschema at pointer {@code at}, or a missing node. */
        private JsonNode node(String at) {
            try {
                return at.equals("#") ? root : root.at(at.substring(1));
            } catch (IllegalArgumentException e) { // a $ref that is no JSON pointer: the validator reports it
                return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
            }
        }
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
