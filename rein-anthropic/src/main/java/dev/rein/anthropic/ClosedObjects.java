package dev.rein.anthropic;

import static dev.rein.anthropic.SchemaRefs.referenced;
import static dev.rein.anthropic.SchemaTree.isObject;
import static dev.rein.anthropic.SchemaTree.pointerStep;
import static dev.rein.anthropic.SchemaTree.subschemas;
import static dev.rein.anthropic.SentSchema.IF_THEN_ELSE;
import static dev.rein.anthropic.SentSchema.LEAVE_IT_OFF;
import static dev.rein.anthropic.SentSchema.OBJECT_WORDS;
import static dev.rein.anthropic.SentSchema.place;
import static dev.rein.anthropic.VariantObjects.neverAnObject;
import static dev.rein.anthropic.VariantObjects.variantObjects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.anthropic.SchemaTree.Located;
import dev.rein.anthropic.SchemaTree.Subschema;
import dev.rein.anthropic.VariantObjects.Reads;
import java.util.List;

/**
 * Closing an object schema for the sent copy ({@link SentSchema}) with {@code "additionalProperties": false}, and the
 * refusals of one that, closed, would not list what something applying to the same value names.
 */
final class ClosedObjects {
    private ClosedObjects() {}

    /**
     * Refuses an allOf, anyOf or oneOf entry that is an object to be closed where it does not list a property its node
     * or what applies with it names (an allOf sibling's, a then's; not its own anyOf or oneOf siblings', alternatives to
     * it): zod's {@code .and()} gives an allOf of two objects, each closed alone, that no answer could meet.
     */
    static void refuseEntryUnlisted(ObjectNode node, String pointer, Subschema sub, ObjectNode entry,
            String name, JsonNode given) {
        boolean alternative = !sub.keyword().equals("allOf");
        List<Part> parts = new java.util.ArrayList<>(parts(node, null, pointer, alternative ? sub.keyword() : null));
        if (alternative) {
            parts.addAll(parts(entry, sub.keyword(), sub.pointer(), null));
        }
        parts.removeIf(part -> part.schema() == entry);
        parts.addFirst(new Part(entry, null, sub.pointer()));
        refuseUnlisted(entry, sub.pointer(), parts, name, given);
    }

    /**
     * Refuses a {@code $ref} beside keywords that say what the object holds where an object the reference names (or
     * an allOf/anyOf/oneOf entry of it, closed alone) does not list what its node names: it applies to the same value
     * as an allOf entry does, and the copy closes it on its own. A reference the check cannot follow is refused.
     */
    static void refuseUnlistedByRef(ObjectNode object, String pointer, String name, JsonNode given) {
        if (!object.has("$ref") || java.util.stream.Stream.concat(OBJECT_WORDS.stream(), SAME_VALUE.stream())
                .noneMatch(object::has)) {
            return;
        }
        List<Located> chain = referenced(object, pointer, given);
        if (chain == null) {
            throw new ReinException("the output schema " + name + " has a $ref at " + pointer + "/$ref beside keywords"
                    + " that say what the object holds, and the copy closes the schema it names on its own, so it must"
                    + " list what they name, which Rein cannot check (it follows only a \"$ref\" that is \"#\" and a"
                    + " JSON Pointer, percent-encoded or not, to a schema in this one, where no schema below the top"
                    + " has an \"$id\" other than an anchor such as \"#a\"): write the referenced schema out in place"
                    + " of the $ref, merged with what is beside it" + LEAVE_IT_OFF);
        }
        List<Part> parts = parts(object, null, pointer, null);
        for (Located target : chain.subList(1, chain.size())) {
            for (Located closed : closedObjects(target.schema(), target.at())) {
                refuseUnlisted(closed.schema(), closed.at(), parts, name, given, "the \"properties\" of the object at "
                        + closed.at() + " (the $ref at " + pointer + "/$ref names it)");
            }
        }
    }

    /** {@code schema} if it is an object with properties, and its allOf/anyOf/oneOf entries that are, at any depth. */
    private static List<Located> closedObjects(ObjectNode schema, String at) {
        List<Located> found = new java.util.ArrayList<>();
        if (isObject(schema) && schema.has("properties")) {
            found.add(new Located(schema, at));
        }
        for (Subschema sub : subschemas(schema, at)) {
            if (List.of("allOf", "anyOf", "oneOf").contains(sub.keyword()) && sub.schema() instanceof ObjectNode entry) {
                found.addAll(closedObjects(entry, sub.pointer()));
            }
        }
        return found;
    }

    /**
     * Closes an object schema (a value's or an allOf entry's) with {@code "additionalProperties": false}, or refuses it
     * where closed it would forbid what the schema allows: other properties (additionalProperties or
     * unevaluatedProperties other than false), any property (none listed), or a property a condition names. One given
     * closed is checked only for what a condition says of its nested objects' properties.
     */
    static void closeObject(ObjectNode object, String pointer, String name, JsonNode given) {
        String at = place(pointer);
        JsonNode additional = object.get("additionalProperties");
        if (additional != null && !(additional.isBoolean() && !additional.booleanValue())) {
            throw otherProperties(name, at, "additionalProperties", additional);
        }
        if (!isObject(object)) {
            return;
        }
        if (additional != null) {
            // Given closed, it says at its own level what the copy says; but the objects in it the copy closes must
            // list what a part applying to it says of their properties, as for any object.
            for (Part part : parts(object, null, pointer, null)) {
                if (part.schema() != object) {
                    refuseUnlistedNested(object, pointer, part, name, given);
                }
            }
            return;
        }
        JsonNode unevaluated = object.get("unevaluatedProperties");
        if (unevaluated != null && !(unevaluated.isBoolean() && !unevaluated.booleanValue())) {
            // Closed, the object could hold none of the other properties this schema lets it hold.
            throw otherProperties(name, at, "unevaluatedProperties", unevaluated);
        }
        if (!object.has("properties")) {
            // A bare {"type":"object"} (what a Map<String, Object> field generates, for one; another Map has its
            // values' schema and an empty record is closed) sent closed would let the model answer only {} there:
            // the data would be lost while the answer still validates.
            throw new ReinException("the output schema " + name + " has an object at " + at + " that lists no"
                    + " \"properties\" (a Map<String, Object> field is generated so, for one), and the"
                    + " API's structured outputs close every object, so the model could answer only {} there: list"
                    + " the properties it may hold (a record in place of that field's type; in a schema given as JSON,"
                    + " \"properties\": {} for an object that holds nothing)" + LEAVE_IT_OFF);
        }
        refuseUnlisted(object, pointer, parts(object, null, pointer, null), name, given);
        object.put("additionalProperties", false);
    }

    /** The refusal of an object that may hold other properties ({@code keyword}'s {@code value} says which). */
    private static ReinException otherProperties(String name, String at, String keyword, JsonNode value) {
        return new ReinException("the output schema " + name + " lets the object at " + at + " hold other properties (\""
                + keyword + "\": " + value + "), and the API's structured outputs take only \"additionalProperties\": false:"
                + " list the properties it may hold (a record instead of a Map)" + LEAVE_IT_OFF);
    }

    /** Where a schema names properties: its keyword (null: the closed object's own) and JSON Pointer, and the names. */
    private record Named(String keyword, String pointer, List<String> names) {}

    /** A schema that applies to the same value as the object being closed: the schema, its keyword (or null), pointer. */
    record Part(ObjectNode schema, String keyword, String pointer) {}

    /**
     * The keywords whose schemas apply to the same value as their node, so that what they name the closed object must
     * list: the entries of allOf, anyOf and oneOf, then and else (with an if), dependentSchemas and (schema) dependencies
     * entries. Not if or not: a condition that cannot hold on a closed object only holds less often there.
     */
    private static final List<String> SAME_VALUE = List.of("allOf", "anyOf", "oneOf", "then", "else", "dependentSchemas",
            "dependencies");

    /**
     * {@code node} and the schemas under it that apply to the same value ({@link #SAME_VALUE}), through any depth of
     * them, but for a then and else with no if beside them (which JSON Schema ignores) and {@code skip}'s entries at the
     * top (an anyOf variant's siblings: alternatives to it). A then or else the sent copy leaves out (with a lossy if,
     * {@link SentSchema#leaveOutLossyConditions}) counts too: what it names, the closed object must still list, or the copy would
     * forbid what the condition allowed.
     */
    static List<Part> parts(ObjectNode node, String keyword, String pointer, String skip) {
        List<Part> found = new java.util.ArrayList<>();
        found.add(new Part(node, keyword, pointer));
        boolean withIf = node.has("if");
        for (Subschema sub : subschemas(node, pointer)) {
            if (SAME_VALUE.contains(sub.keyword()) && !sub.keyword().equals(skip) && sub.schema() instanceof ObjectNode o
                    && (withIf || !IF_THEN_ELSE.contains(sub.keyword()))) {
                found.addAll(parts(o, sub.keyword(), sub.pointer(), null));
            }
        }
        return found;
    }

    /** The properties a part names: its properties and required, its dependentRequired and (names) dependencies. */
    private static List<Named> names(Part part) {
        List<Named> found = new java.util.ArrayList<>();
        List<String> own = new java.util.ArrayList<>();
        if (part.schema().get("properties") instanceof ObjectNode properties) {
            for (var entry : properties.properties()) {
                if (!entry.getValue().equals(com.fasterxml.jackson.databind.node.BooleanNode.FALSE)) {
                    own.add(entry.getKey()); // "x": false forbids x: it asks nothing of the closed object
                }
            }
        }
        part.schema().path("required").forEach(r -> own.add(r.asText()));
        found.add(new Named(part.keyword(), part.pointer(), own));
        for (String keyword : List.of("dependentRequired", "dependencies")) {
            if (part.schema().get(keyword) instanceof ObjectNode map) {
                for (var entry : map.properties()) {
                    if (entry.getValue().isArray()) { // a dependencies entry may be a schema instead (a part)
                        List<String> names = new java.util.ArrayList<>();
                        entry.getValue().forEach(r -> names.add(r.asText()));
                        found.add(new Named(keyword, part.pointer() + "/" + keyword + "/" + pointerStep(entry.getKey()),
                                names));
                    }
                }
            }
        }
        return found;
    }

    /**
     * Refuses an object to be closed ({@code target}) that does not list (nor match with a patternProperties pattern)
     * a property one of {@code parts} names, or that cannot be shown to take what a part lets the value hold: other
     * properties (an additionalProperties schema, a pattern of its own) or, for a property, a nested object's properties
     * (then the target's own schema of it, or the object its local $ref names, must list them, checked the same way).
     * Once closed, no answer could hold such a property where the part applies. {@code at}: the target's JSON Pointer.
     */
    private static void refuseUnlisted(ObjectNode target, String at, List<Part> parts, String name, JsonNode given) {
        refuseUnlisted(target, at, parts, name, given, "the object's own \"properties\"");
    }

    /** {@code where}: the properties to list a missing name in, as the advice says it. */
    private static void refuseUnlisted(ObjectNode target, String at, List<Part> parts, String name, JsonNode given,
            String where) {
        JsonNode listed = target.path("properties");
        JsonNode patterns = target.get("patternProperties");
        for (Part part : parts) {
            for (Named named : names(part)) {
                for (String property : named.names()) {
                    if (!listed.has(property) && !matchesAPattern(patterns, property, name)) {
                        throw unlisted(name, named.keyword(), named.pointer(), "the property \"" + property + "\"", at,
                                "list \"" + property + "\" in " + where + " too");
                    }
                }
            }
            if (part.schema() != target) {
                refuseOtherProperties(target, at, part, name);
                refuseUnlistedNested(target, at, part, name, given);
            }
        }
    }

    /** Refuses a part's additionalProperties schema or a pattern the target does not have too. */
    private static void refuseOtherProperties(ObjectNode target, String at, Part part, String name) {
        JsonNode additional = part.schema().get("additionalProperties");
        if (additional != null && !(additional.isBoolean() && !additional.booleanValue())) {
            throw unlisted(name, part.keyword(), part.pointer(), "other properties (\"additionalProperties\": "
                    + additional + ")", at, "remove that \"additionalProperties\" from the "
                    + keywordAt(part.keyword(), part.pointer()) + ", so the object holds no other properties");
        }
        if (part.schema().get("patternProperties") instanceof ObjectNode own) {
            for (String pattern : (Iterable<String>) own::fieldNames) {
                if (!target.path("patternProperties").has(pattern)) {
                    throw unlisted(name, part.keyword(), part.pointer(), "the properties the patternProperties pattern \""
                            + pattern + "\" matches", at, "give the object's own schema the same pattern in its \"patternProperties\"");
                }
            }
        }
    }

    /**
     * Refuses a part's property schema that names properties of a nested object the target's own does not list. The
     * target's own schema of the property may be given by a local reference ({@link SchemaRefs#referenced}): the object it names
     * is closed on its own, so it must list them. Each step goes one level into the part's property schema, so a
     * recursive reference (a list's "next") is followed only as deep as the part speaks.
     */
    private static void refuseUnlistedNested(ObjectNode target, String at, Part part, String name, JsonNode given) {
        if (!(part.schema().get("properties") instanceof ObjectNode properties)) {
            return;
        }
        String says = keywordAt(part.keyword(), part.pointer());
        for (var entry : properties.properties()) {
            String pointer = part.pointer() + "/properties/" + pointerStep(entry.getKey());
            if (!(entry.getValue() instanceof ObjectNode child) || !namesAny(child, pointer)) {
                continue;
            }
            List<Part> childParts = parts(child, part.keyword(), pointer, null);
            // The target's schemas of the property: its own, and those of the patterns it matches; none (the target is
            // given closed and cannot hold it): nothing to check, the property can never be there.
            for (Located own : ownSchemas(target, at, entry.getKey(), name)) {
                List<Located> schemas = referenced(own.schema(), own.at(), given);
                if (schemas == null) {
                    throw unlisted(name, part.keyword(), part.pointer(), "properties of the value of \"" + entry.getKey()
                            + "\"", own.at(), "write the schema the reference at " + own.at() + " names out in its place"
                            + " (Rein follows only a \"$ref\" that is \"#\" and a JSON Pointer, percent-encoded or"
                            + " not, to a schema in this one, where no schema below the top has an \"$id\" other than"
                            + " an anchor such as \"#a\"), so that it lists the properties the " + says + " names");
                }
                refuseUnlistedChild(schemas, childParts, entry.getKey(), part, says, name, given);
            }
        }
    }

    /**
     * The target's schemas of {@code property}: its own (at /properties/...) and each of its patternProperties whose
     * pattern matches the name (at /patternProperties/...), each a value's own schema that the copy closes.
     */
    private static List<Located> ownSchemas(ObjectNode target, String at, String property, String name) {
        List<Located> found = new java.util.ArrayList<>();
        if (target.path("properties").get(property) instanceof ObjectNode own) {
            found.add(new Located(own, at + "/properties/" + pointerStep(property)));
        }
        if (target.get("patternProperties") instanceof ObjectNode patterns) {
            for (var entry : patterns.properties()) {
                if (entry.getValue() instanceof ObjectNode schema
                        && matches(entry.getKey(), property, name)) {
                    found.add(new Located(schema, at + "/patternProperties/" + pointerStep(entry.getKey())));
                }
            }
        }
        return found;
    }

    /**
     * Whether a patternProperties pattern matches {@code property}, as JSON Schema reads it (found anywhere in the name).
     * A pattern Java cannot compile is refused, the one fallback for every use: neither "no" (a pattern's schema left
     * unchecked) nor "yes" (a property taken as allowed) is safe for all of them. OutputSchema refuses such a pattern
     * first (its validator compiles each with Java), so this is a guard, not a path a schema Rein takes reaches.
     */
    private static boolean matches(String pattern, String property, String name) {
        try {
            return java.util.regex.Pattern.compile(pattern).matcher(property).find();
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new ReinException("the output schema " + name + " has the patternProperties pattern \"" + pattern
                    + "\", which Java cannot read (" + e.getDescription() + "), so Rein cannot tell whether it matches \""
                    + property + "\": write the pattern in a form Java reads" + LEAVE_IT_OFF);
        }
    }

    /**
     * Refuses a property's schema (and what its references name, {@code schemas}) where none of them lists properties,
     * or one that does not list what {@code childParts} (a part's schema of the property) name.
     */
    private static void refuseUnlistedChild(List<Located> schemas, List<Part> childParts, String property, Part part,
            String says, String name, JsonNode given) {
        boolean listing = false;
        for (Located schema : schemas) {
            if (schema.schema().has("properties")) {
                refuseUnlisted(schema.schema(), schema.at(), childParts, name, given);
                listing = true;
            }
        }
        Reads reads = new Reads();
        List<Located> variants = listing ? null : variantObjects(schemas.getLast().schema(), schemas.getLast().at(), given,
                reads);
        if (variants != null && !variants.isEmpty()) {
            // a value of one of them: each object variant is closed alone, so each must list what the part names
            for (Located variant : variants) {
                refuseUnlisted(variant.schema(), variant.at(), childParts, name, given);
            }
            listing = true;
        }
        if (!listing && schemas.stream().anyMatch(s -> neverAnObject(s.schema(), s.at(), given, reads))) {
            return; // properties and required say nothing of a string or a null, and the copy keeps the part as it is
        }
        if (!listing) {
            String childAt = schemas.getFirst().at();
            String where = schemas.size() > 1 ? "the schema at " + place(schemas.getLast().at())
                    + " (the reference at " + childAt + " names it)," : "the object's own schema of it,";
            throw unlisted(name, part.keyword(), part.pointer(), "properties of the value of \"" + property
                    + "\"", childAt, "write what the " + says + " says of \"" + property + "\" into " + where
                    + " which must list its \"properties\"");
        }
    }

    /** Whether a schema names a property or lets other properties be (so that a closed object could forbid them). */
    private static boolean namesAny(ObjectNode schema, String pointer) {
        for (Part part : parts(schema, null, pointer, null)) {
            ObjectNode s = part.schema();
            if (names(part).stream().anyMatch(n -> !n.names().isEmpty()) || s.has("patternProperties")
                    || (s.has("additionalProperties") && !s.get("additionalProperties").equals(
                            com.fasterxml.jackson.databind.node.BooleanNode.FALSE))) {
                return true;
            }
        }
        return false;
    }

    /** The refusal of a closed object (at the JSON Pointer {@code at}) that does not list {@code what} a part names. */
    private static ReinException unlisted(String name, String keyword, String pointer, String what, String at,
            String fix) {
        return new ReinException("the output schema " + name + " cannot be sent as it says: the "
                + keywordAt(keyword, pointer) + " names " + what + ", which the object at " + place(at) + " does not list,"
                + " and the API's structured outputs"
                + " close every object (\"additionalProperties\": false), so no answer could hold them where the "
                + word(keyword) + " applies: " + fix + LEAVE_IT_OFF);
    }

    /** A part's keyword as a refusal names it: "schema" for the object itself (no keyword). */
    private static String word(String keyword) {
        return keyword == null ? "schema" : keyword;
    }

    /** A part as a refusal names it: "then at /then", "schema at its top". */
    private static String keywordAt(String keyword, String pointer) {
        return word(keyword) + " at " + place(pointer);
    }

    /** Whether {@code property} matches one of the patternProperties' patterns ({@link #matches}). */
    private static boolean matchesAPattern(JsonNode patterns, String property, String name) {
        if (!(patterns instanceof ObjectNode map)) {
            return false;
        }
        for (var entry : map.properties()) {
            if (matches(entry.getKey(), property, name)) {
                return true;
            }
        }
        return false;
    }
}
