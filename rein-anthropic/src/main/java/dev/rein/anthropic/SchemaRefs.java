package dev.rein.anthropic;

import static dev.rein.anthropic.SchemaTree.APPLICATORS;
import static dev.rein.anthropic.SchemaTree.fromPointerStep;
import static dev.rein.anthropic.SchemaTree.isObject;
import static dev.rein.anthropic.SchemaTree.subschemas;
import static dev.rein.anthropic.SentSchema.EMPTY_MEANS_NOTHING;
import static dev.rein.anthropic.SentSchema.IF_THEN_ELSE;
import static dev.rein.anthropic.SentSchema.LEAVE_IT_OFF;
import static dev.rein.anthropic.SentSchema.UNSUPPORTED_CONSTRAINTS;
import static dev.rein.anthropic.SentSchema.dropsAnEvaluator;
import static dev.rein.anthropic.SentSchema.losesSomething;
import static dev.rein.anthropic.SentSchema.place;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.anthropic.SchemaTree.Applicator;
import dev.rein.internal.schema.SchemaKeywords.Holds;
import dev.rein.anthropic.SchemaTree.Located;
import dev.rein.anthropic.SchemaTree.SchemaRole;
import dev.rein.anthropic.SchemaTree.Subschema;
import java.util.List;

/**
 * The references in an output schema as the sent copy ({@link SentSchema}) takes them: where a "#..." reference is read
 * from, the schema it names, and the refusals of a reference the copy would change the meaning of (under an allOf, in a
 * condition, through a keyword the copy leaves out or renames).
 */
final class SchemaRefs {
    private SchemaRefs() {}

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
     * Refuses a reference ({@link #REFS}) whose local JSON Pointer passes through a keyword the copy leaves out or
     * renames ({@link #leftOut}): once sent, it would name nothing. The pointer is walked step by step against the
     * schema as given ({@code given}), a keyword, then (under a keyword that holds a map or an array of schemas) a name
     * or an index, then a keyword again, so that a property named "properties" or "oneOf" is read as a name. It is
     * resolved from the schema that holds the nearest {@code $id} above the reference (its base), or the top. A step
     * outside the keywords that hold schemas ends the walk: the copy keeps what it does not know.
     */
    static void refuseRefToWhatIsLeftOut(ObjectNode object, String pointer, String name, JsonNode given) {
        for (String keyword : REFS) {
            JsonNode ref = object.get(keyword);
            String decoded = ref != null && ref.isTextual() && ref.textValue().startsWith("#/")
                    ? fragmentPointer(ref.textValue()) : null;
            if (decoded == null) {
                continue;
            }
            String base = base(given, pointer);
            JsonNode node = given.at(base);
            String[] steps = decoded.substring(1).split("/", -1);
            StringBuilder at = new StringBuilder(base);
            for (int i = 0; i < steps.length && node instanceof ObjectNode schema; i++) {
                String step = fromPointerStep(steps[i]);
                at.append('/').append(steps[i]);
                String why = leftOut(schema, step);
                if (why != null) {
                    throw new ReinException("the output schema " + name + " has a " + keyword + " at " + pointer + "/"
                            + keyword + " whose pointer " + ref.textValue() + " passes through the " + step + " at " + at
                            + ", which " + why + ", so once sent the reference would name nothing: move the schema it"
                            + " names into \"$defs\" and name it with a \"$ref\" from both the " + step + " and here"
                            + LEAVE_IT_OFF);
                }
                Applicator applicator = APPLICATORS.stream().filter(a -> a.keyword().equals(step)).findFirst()
                        .orElse(null);
                JsonNode value = schema.get(step);
                if (applicator == null || value == null) {
                    break; // not a keyword that holds schemas (nor one the copy changes): the copy keeps it as it is
                }
                if ((applicator.holds() == Holds.MAP || value.isArray()) && ++i < steps.length) {
                    at.append('/').append(steps[i]); // a name or an index, not a keyword
                    String entry = fromPointerStep(steps[i]);
                    value = value.isArray() ? (entry.matches("\\d{1,9}") ? value.get(Integer.parseInt(entry)) : null)
                            : value.get(entry);
                }
                node = value;
            }
        }
    }

    /**
     * Why the copy leaves out or renames the keyword {@code keyword} of {@code schema} (a schema as given), or null where
     * it keeps it: what {@link SentSchema#close} and the steps before it do, said for a refusal.
     */
    private static String leftOut(ObjectNode schema, String keyword) {
        JsonNode value = schema.get(keyword);
        if (value == null) {
            return null;
        }
        if (keyword.equals("oneOf")) {
            return "the API's structured outputs do not take, so the copy sends it as anyOf (or an allOf entry)";
        }
        if (UNSUPPORTED_CONSTRAINTS.contains(keyword)) {
            return "the API's structured outputs do not support, so the copy leaves it out (Rein still applies it)";
        }
        if (List.of("then", "else").contains(keyword) && !schema.has("if")) {
            return "has no if beside it (JSON Schema ignores it), so the copy leaves it out";
        }
        if (keyword.equals("not") && losesSomething(value)) {
            return "would lose something beneath it, so the copy leaves that condition out whole (Rein still applies it)";
        }
        if (IF_THEN_ELSE.contains(keyword) && IF_THEN_ELSE.stream().anyMatch(k -> losesSomething(schema.get(k)))) {
            return "the copy leaves out with its if, then and else, as one of them would lose something beneath it"
                    + " (Rein still applies them)";
        }
        if (EMPTY_MEANS_NOTHING.contains(keyword) && (value.isObject() && value.isEmpty()
                || value.isBoolean() && value.booleanValue())) {
            return "says nothing (its default), so the copy leaves it out";
        }
        if (List.of("unevaluatedItems", "unevaluatedProperties").contains(keyword) && value.isBoolean()
                && !value.booleanValue() && dropsAnEvaluator(schema)) {
            return "the copy leaves out with what would have evaluated (Rein still applies it)";
        }
        return null;
    }

    /**
     * The JSON Pointer of the schema a "#..." reference at {@code pointer} (in {@code given}) is resolved from: the
     * nearest schema at or above it with an {@code $id} (a text) that gives a new base ({@link #changesBase}: not an
     * anchor such as "#a"), or the top (""). Only a schema's own {@code $id} counts: the walk knows which steps are
     * keywords and which are names or indexes under one ({@link SchemaTree#APPLICATORS}), so a property named "$id" (a key of a
     * properties map) is not taken for one.
     */
    private static String base(JsonNode given, String pointer) {
        String base = "";
        JsonNode node = given;
        StringBuilder at = new StringBuilder();
        String[] steps = pointer.isEmpty() ? new String[0] : pointer.substring(1).split("/", -1);
        boolean schema = true; // whether node is a schema (else a map or array of them, or what no keyword holds)
        boolean entries = false; // whether node is a map or an array of schemas, its next step a name or an index
        for (int i = 0; i <= steps.length && node != null; i++) {
            if (schema && i > 0 && node.path("$id").isTextual() && changesBase(node)) {
                base = at.toString();
            }
            if (i < steps.length) {
                String step = fromPointerStep(steps[i]);
                at.append('/').append(steps[i]);
                JsonNode next = node.isArray() ? (step.matches("\\d{1,9}") ? node.get(Integer.parseInt(step)) : null)
                        : node.get(step);
                if (schema) {
                    Applicator applicator = APPLICATORS.stream().filter(a -> a.keyword().equals(step)).findFirst()
                            .orElse(null);
                    entries = applicator != null && (applicator.holds() == Holds.MAP || next != null && next.isArray());
                    schema = applicator != null && !entries;
                } else {
                    schema = entries;
                    entries = false;
                }
                node = next;
            }
        }
        return base;
    }

    /** Refuses an allOf of the node's own, or a oneOf that would go as an allOf entry, that holds a reference. */
    static void refuseRefUnderAllOf(ObjectNode object, String pointer, String name) {
        JsonNode ownAllOf = object.get("allOf");
        String ownRef = ownAllOf == null ? null : firstRef(ownAllOf, pointer + "/allOf");
        if (ownRef != null) {
            // The docs' "Supported features": "anyOf and allOf (with limitations - allOf with $ref not supported)".
            throw new ReinException("the output schema " + name + " has an allOf at " + place(pointer) + " that holds a "
                    + refKeyword(ownRef) + " at " + ownRef + refUnderAllOf(refKeyword(ownRef))
                    + LEAVE_IT_OFF);
        }
        JsonNode given = object.get("oneOf");
        if (given != null && object.has("anyOf")) {
            // Looked for before the walk renames nested oneOfs, so that the path is the schema's as given.
            String ref = firstRef(given, pointer + "/oneOf");
            if (ref != null) {
                throw new ReinException("the output schema " + name + " has both anyOf and oneOf at " + place(pointer)
                        + ", so its oneOf would be sent as an allOf entry (the API takes no oneOf,"
                        + " and the name anyOf is taken), and that oneOf holds a " + refKeyword(ref) + " at " + ref
                        + refUnderAllOf(refKeyword(ref))
                        + ", or keep only one of anyOf and oneOf there" + LEAVE_IT_OFF);
            }
        }
    }

    /**
     * {@code schema} (at {@code at}) and the schemas its {@code $ref} names in turn, while each names another: only a
     * local one, "#" and a JSON Pointer into the schema as given ({@code given}), is followed. Null where a reference
     * cannot be followed: a {@code $dynamicRef} or {@code $recursiveRef}, a {@code $ref} that is not such a pointer or
     * names no object schema, or references that name each other round (they name no schema; the set of those seen ends
     * the loop).
     */
    static List<Located> referenced(ObjectNode schema, String at, JsonNode given) {
        List<Located> found = new java.util.ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        ObjectNode next = schema;
        String where = at;
        while (true) {
            found.add(new Located(next, where));
            JsonNode ref = next.get("$ref");
            if (next.has("$dynamicRef") || next.has("$recursiveRef")) {
                return null;
            }
            if (ref == null) {
                return found;
            }
            if (!ref.isTextual() || !ref.textValue().startsWith("#") || !seen.add(ref.textValue()) || nestedId(given)) {
                return null; // under a nested $id, "#..." names a schema of that $id's, not one from the top
            }
            String pointer = fragmentPointer(ref.textValue());
            try {
                if (pointer == null || !(given.at(pointer) instanceof ObjectNode target)) {
                    return null;
                }
                next = target;
            } catch (IllegalArgumentException e) {
                return null; // "#name" (an anchor), not a JSON Pointer
            }
            where = pointer;
        }
    }

    /**
     * The JSON Pointer a "#..." reference holds: its fragment percent-decoded (RFC 6901 section 6: in a URI fragment a
     * pointer is percent-encoded, "#/$defs/My%20Y"), or null where an escape is not one.
     */
    private static String fragmentPointer(String ref) {
        try {
            // '+' is itself in a fragment, not a space
            return java.net.URLDecoder.decode(ref.substring(1).replace("+", "%2B"),
                    java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Whether a schema below {@code given}'s top (through the keywords that hold schemas) has an {@code $id}. */
    private static boolean nestedId(JsonNode given) {
        return given instanceof ObjectNode object
                && subschemas(object, "").stream().anyMatch(sub -> changesBase(sub.schema()) || nestedId(sub.schema()));
    }

    /**
     * Whether a schema's {@code $id} gives a new base for the "#..." references in it: a text that is not a bare fragment.
     * An {@code $id} such as {@code "#a"} (draft-06/07's anchor form, a plain-name fragment) names the schema for a
     * {@code "$ref": "#a"}: resolved against the base it keeps the base, so "#/..." below it is still read from there.
     * One that is not a text is kept as a base (the check does not bet on what it means).
     */
    private static boolean changesBase(JsonNode schema) {
        JsonNode id = schema.get("$id");
        return id != null && !(id.isTextual() && id.textValue().startsWith("#"));
    }

    /**
     * Refuses a reference ({@link #REFS}) beneath a condition (not, if, then, else, propertyNames, dependentSchemas,
     * dependencies) to a schema that would not be sent as given ({@link #changesWhenSent}): it is sent as a value's own
     * (closed, its constraints left out), which would change what the condition says. Not looked in: an allOf (its own
     * check refuses any reference beneath it), a contains, and a not or if/then/else left out as lossy (not sent). {@code condition}: the keyword of the condition the node
     * is beneath, or null; {@code conditionAt}: its JSON Pointer.
     */
    static void refuseRefInCondition(ObjectNode root, JsonNode node, String pointer, String name,
            String condition, String conditionAt) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        for (String ref : condition == null ? List.<String>of() : REFS) {
            if (object.has(ref) && changesWhenSent(root, object.get(ref), pointer)) {
                throw new ReinException("the output schema " + name + " has a " + ref + " at " + pointer + "/" + ref
                        + ", inside the " + condition + " at " + conditionAt + ", a condition: the schema a " + ref
                        + " names is sent as a value's own (closed with \"additionalProperties\": false, its unsupported"
                        + " constraints left out, asked to say its kind), which would change what the condition says:"
                        + " write the referenced schema out in place of the " + ref + LEAVE_IT_OFF);
            }
        }
        for (Subschema sub : subschemas(object, pointer)) {
            if (sub.keyword().equals("allOf") || sub.keyword().equals("contains")
                    || (sub.keyword().equals("not") && losesSomething(sub.schema()))
                    || (IF_THEN_ELSE.contains(sub.keyword()) && IF_THEN_ELSE.stream()
                            .anyMatch(k -> losesSomething(object.get(k))))) {
                continue; // refused by the allOf check, or left out of the sent copy
            }
            boolean starts = condition == null && sub.role() == SchemaRole.CONDITION;
            refuseRefInCondition(root, sub.schema(), sub.pointer(), name, starts ? sub.keyword() : condition,
                    starts ? sub.pointer() : conditionAt);
        }
    }

    /**
     * Whether the schema a reference names would be sent other than as given: closed (an object in it), something left
     * out or renamed ({@link SentSchema#losesSomething}), or it cannot be told (not a "#" JSON Pointer into this schema, a
     * reference in it, a boolean schema). The pointer is read, as JSON Schema 2020-12 resolves it, from the schema holding
     * the nearest {@code $id} at or above the reference's schema (at {@code at}; {@link #base}), else the top, as
     * {@link #refuseRefToWhatIsLeftOut} reads it.
     */
    private static boolean changesWhenSent(ObjectNode root, JsonNode ref, String at) {
        if (!ref.isTextual() || !ref.textValue().startsWith("#")) {
            return true;
        }
        JsonNode target;
        String pointer = fragmentPointer(ref.textValue());
        if (pointer == null) {
            return true;
        }
        try {
            target = root.at(base(root, at)).at(pointer);
        } catch (IllegalArgumentException e) {
            return true;
        }
        return !(target instanceof ObjectNode object) || losesSomething(object) || closesAnObject(object)
                || firstRef(object, "") != null;
    }

    /** Whether the node, or a value's or allOf entry's schema beneath it, is an object the sent copy would close. */
    private static boolean closesAnObject(ObjectNode node) {
        return isObject(node) || subschemas(node, "").stream().anyMatch(sub -> sub.role() != SchemaRole.CONDITION
                && sub.schema() instanceof ObjectNode o && closesAnObject(o));
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
}
