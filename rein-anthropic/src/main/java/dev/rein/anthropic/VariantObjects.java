package dev.rein.anthropic;

import static dev.rein.anthropic.SchemaRefs.referenced;
import static dev.rein.anthropic.SchemaTree.isObject;
import static dev.rein.anthropic.SchemaTree.subschemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.anthropic.SchemaTree.Located;
import dev.rein.anthropic.SchemaTree.Subschema;
import java.util.List;

/**
 * What a property's schema is, for what a condition says of its properties ({@link ClosedObjects}): the objects among
 * its variants, or never an object, each schema read once per check.
 */
final class VariantObjects {
    private VariantObjects() {}

    /**
     * Whether {@code schema} (at {@code at}) takes no object: its "type" names none, or each entry of its anyOf or oneOf
     * (or a schema the entry's local references name) takes none. False where that cannot be told: a reference that
     * cannot be followed, or one leading back to a schema being read ({@link Reads}, as in {@link #variantObjects}).
     */
    static boolean neverAnObject(ObjectNode schema, String at, JsonNode given, Reads reads) {
        Boolean known = reads.never.get(at);
        if (known != null) {
            return known;
        }
        if (schema.has("properties") || !reads.open(at)) {
            return false;
        }
        int loops = reads.loops;
        boolean never = neverAnObjectOf(schema, at, given, reads);
        reads.close(at);
        if (reads.loops == loops) {
            reads.never.put(at, never);
        }
        return never;
    }

    private static boolean neverAnObjectOf(ObjectNode schema, String at, JsonNode given, Reads reads) {
        JsonNode type = schema.get("type");
        if (type != null && (type.isTextual() || type.isArray() && !type.isEmpty()) && !isObject(schema)) {
            return true;
        }
        for (String keyword : List.of("anyOf", "oneOf")) {
            if (schema.get(keyword) instanceof com.fasterxml.jackson.databind.node.ArrayNode entries && !entries.isEmpty()
                    && java.util.stream.IntStream.range(0, entries.size()).allMatch(i -> neverAnObjectEntry(
                            entries.get(i), at + "/" + keyword + "/" + i, given, reads))) {
                return true;
            }
        }
        return false;
    }

    private static boolean neverAnObjectEntry(JsonNode entry, String at, JsonNode given, Reads reads) {
        if (!(entry instanceof ObjectNode object)) {
            return entry.isBoolean() && !entry.booleanValue(); // false takes nothing; true anything
        }
        List<Located> chain = referenced(object, at, given);
        return chain != null && chain.stream().anyMatch(s -> neverAnObject(s.schema(), s.at(), given, reads));
    }

    /**
     * What {@link #variantObjects} and {@link #neverAnObject} have read in one check: the schemas being read (their
     * pointers; a reference back to one is a loop), and each schema's answer once read, so that a schema reached again by
     * another way (an anyOf of two references to the same schema, level after level) is not read again: read each time,
     * a chain of 30 such levels was read 2^30 times. An answer is kept only where its reading met no loop, so that it
     * does not depend on the way the schema was reached.
     */
    static final class Reads {
        private final java.util.Set<String> open = new java.util.HashSet<>();
        private final java.util.Map<String, List<Located>> variants = new java.util.HashMap<>(); // null values kept
        private final java.util.Map<String, Boolean> never = new java.util.HashMap<>();
        /** How many times a reading met a schema being read (a loop). */
        private int loops;

        /** Marks the schema at {@code at} as being read; false (a loop, counted) where it is already. */
        boolean open(String at) {
            if (open.add(at)) {
                return true;
            }
            loops++;
            return false;
        }

        void close(String at) {
            open.remove(at);
        }
    }

    /**
     * The objects that list properties among {@code schema}'s anyOf, oneOf and allOf entries, through their local
     * references ({@link SchemaRefs#referenced}) and their own entries, at any depth; an entry of another kind ({"type": "null"},
     * a string) is passed over: properties and required say nothing of it. Null where an entry cannot be told: a
     * reference that cannot be followed, an object that lists no properties, a boolean schema true, or entries whose
     * references lead back to a schema whose entries are being read ({@link Reads}, their pointers: they name each other
     * round, U = anyOf[$ref V, null] and V = anyOf[$ref U, string], and say no object).
     */
    static List<Located> variantObjects(ObjectNode schema, String at, JsonNode given, Reads reads) {
        if (reads.variants.containsKey(at)) {
            return reads.variants.get(at); // only a way back is a loop: a schema reached again by another way is read once
        }
        if (!reads.open(at)) {
            return null;
        }
        int loops = reads.loops;
        List<Located> found = variantObjectsOf(schema, at, given, reads);
        reads.close(at);
        if (reads.loops == loops) {
            reads.variants.put(at, found);
        }
        return found;
    }

    private static List<Located> variantObjectsOf(ObjectNode schema, String at, JsonNode given, Reads reads) {
        List<Located> found = new java.util.ArrayList<>();
        for (Subschema sub : subschemas(schema, at)) {
            if (!List.of("anyOf", "oneOf", "allOf").contains(sub.keyword())) {
                continue;
            }
            if (!(sub.schema() instanceof ObjectNode entry)) {
                if (sub.schema().booleanValue()) {
                    return null; // true: any value, an object with any properties among them
                }
                continue;
            }
            List<Located> chain = referenced(entry, sub.pointer(), given);
            if (chain == null) {
                return null;
            }
            Located last = chain.getLast();
            if (last.schema().has("properties")) {
                addNew(found, last);
                continue;
            }
            if (isObject(last.schema())) {
                return null;
            }
            List<Located> deeper = variantObjects(last.schema(), last.at(), given, reads);
            if (deeper == null) {
                return null;
            }
            deeper.forEach(variant -> addNew(found, variant));
        }
        return found;
    }

    /** Adds {@code variant} unless {@code found} has it (its place) already: one reached by two ways is listed once. */
    private static void addNew(List<Located> found, Located variant) {
        if (found.stream().noneMatch(f -> f.at().equals(variant.at()))) {
            found.add(variant);
        }
    }
}
