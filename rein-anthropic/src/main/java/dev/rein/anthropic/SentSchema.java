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

    /** How every refusal ends: the other way out. */
    private static final String LEAVE_IT_OFF = ", or leave AnthropicStructuredOutput off (Rein still validates the answer)";

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
    private record Subschema(JsonNode schema, String pointer, String keyword, SchemaRole role) {}

    /** Whether {@code node} is a schema: an object, or a boolean schema ({@code true} as {@code {}}, {@code false}). */
    private static boolean isSchema(JsonNode node) {
        return node instanceof ObjectNode || (node != null && node.isBoolean());
    }

    /** The schemas {@code object} holds through its {@link #APPLICATORS}, in their order (boolean schemas too). */
    private static List<Subschema> subschemas(ObjectNode object, String pointer) {
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
     * allOf/anyOf/oneOf entry closed alone that does not list what its node names ({@link #refuseUnlisted}); an empty
     * record (a closed empty object) is sent. A $ref beneath a condition is refused where its target would not be sent as
     * given ({@link #refuseRefInCondition}).
     * A schema that says nothing of its value's kind (none of type, anyOf, oneOf, allOf, $ref, $dynamicRef,
     * $recursiveRef, enum, const: the {@code {}} a JsonNode or Object generates; {@code true}) is refused too: the API
     * answers it with a 400 (its SDKs refuse a schema with none of type, anyOf, oneOf, allOf).
     * An {@code allOf} of the schema's own, and a oneOf that would go as an {@code allOf} entry, that holds a {@code $ref}
     * (an entry's or deeper; a {@code $dynamicRef} or {@code $recursiveRef} as well) is refused too, beneath any keyword
     * that holds schemas ({@link #APPLICATORS}), wherever it is in the schema, in a {@code $defs} (or {@code definitions})
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
    private static final List<String> OBJECT_WORDS = List.of("required", "properties", "patternProperties",
            "dependentRequired", "dependentSchemas", "minProperties", "maxProperties");

    /** The condition keywords left out of the sent copy together, as one, when any would lose something. */
    private static final List<String> IF_THEN_ELSE = List.of("if", "then", "else");

    /** {@code given}: the schema as given, whose JSON Pointers a local reference follows ({@link #referenced}). */
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
     * Refuses an allOf, anyOf or oneOf entry that is an object to be closed where it does not list a property its node
     * or what applies with it names (an allOf sibling's, a then's; not its own anyOf or oneOf siblings', alternatives to
     * it): zod's {@code .and()} gives an allOf of two objects, each closed alone, that no answer could meet.
     */
    private static void refuseEntryUnlisted(ObjectNode node, String pointer, Subschema sub, ObjectNode entry,
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

    private static boolean dropsAnEvaluator(ObjectNode object) {
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

    /**
     * Refuses a reference ({@link #REFS}) whose local JSON Pointer passes through a keyword the copy leaves out or
     * renames ({@link #leftOut}): once sent, it would name nothing. The pointer is walked step by step against the
     * schema as given ({@code given}), a keyword, then (under a keyword that holds a map or an array of schemas) a name
     * or an index, then a keyword again, so that a property named "properties" or "oneOf" is read as a name. It is
     * resolved from the schema that holds the nearest {@code $id} above the reference (its base), or the top. A step
     * outside the keywords that hold schemas ends the walk: the copy keeps what it does not know.
     */
    private static void refuseRefToWhatIsLeftOut(ObjectNode object, String pointer, String name, JsonNode given) {
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
     * it keeps it: what {@link #close} and the steps before it do, said for a refusal.
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
     * keywords and which are names or indexes under one ({@link #APPLICATORS}), so a property named "$id" (a key of a
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

    /** The keywords that hold a map of names to schemas. */
    private static final List<String> MAP_KEYWORDS = APPLICATORS.stream().filter(a -> a.holds() == Holds.MAP)
            .map(Applicator::keyword).toList();

    /**
     * Refuses a {@code $ref} beside keywords that say what the object holds where an object the reference names (or
     * an allOf/anyOf/oneOf entry of it, closed alone) does not list what its node names: it applies to the same value
     * as an allOf entry does, and the copy closes it on its own. A reference the check cannot follow is refused.
     */
    private static void refuseUnlistedByRef(ObjectNode object, String pointer, String name, JsonNode given) {
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
                    + " has an \"$id\"): write"
                    + " the referenced schema out in place of the $ref, merged with what is beside it" + LEAVE_IT_OFF);
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

    /** Refuses an allOf of the node's own, or a oneOf that would go as an allOf entry, that holds a reference. */
    private static void refuseRefUnderAllOf(ObjectNode object, String pointer, String name) {
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
     * Closes an object schema (a value's or an allOf entry's) with {@code "additionalProperties": false}, or refuses it
     * where closed it would forbid what the schema allows: other properties (additionalProperties or
     * unevaluatedProperties other than false), any property (none listed), or a property a condition names. One given
     * closed is checked only for what a condition says of its nested objects' properties.
     */
    private static void closeObject(ObjectNode object, String pointer, String name, JsonNode given) {
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

    /** Whether the schema is an object's: it lists properties or its type is (or includes) object. */
    private static boolean isObject(ObjectNode object) {
        JsonNode type = object.get("type");
        return object.has("properties") || (type != null && (type.isTextual() ? "object".equals(type.textValue())
                : type.isArray() && java.util.stream.StreamSupport.stream(type.spliterator(), false)
                        .anyMatch(t -> "object".equals(t.textValue()))));
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
    private record Part(ObjectNode schema, String keyword, String pointer) {}

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
     * {@link #leaveOutLossyConditions}) counts too: what it names, the closed object must still list, or the copy would
     * forbid what the condition allowed.
     */
    private static List<Part> parts(ObjectNode node, String keyword, String pointer, String skip) {
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
     * target's own schema of the property may be given by a local reference ({@link #referenced}): the object it names
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
                            + " not, to a schema in this one, where no schema below the top has an \"$id\"), so that it"
                            + " lists the properties the " + says + " names");
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

    /**
     * Whether {@code schema} (at {@code at}) takes no object: its "type" names none, or each entry of its anyOf or oneOf
     * (or a schema the entry's local references name) takes none. False where that cannot be told: a reference that
     * cannot be followed, or one leading back to a schema being read ({@link Reads}, as in {@link #variantObjects}).
     */
    private static boolean neverAnObject(ObjectNode schema, String at, JsonNode given, Reads reads) {
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
    private static final class Reads {
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

    /** A schema and its JSON Pointer. */
    private record Located(ObjectNode schema, String at) {}

    /**
     * The objects that list properties among {@code schema}'s anyOf, oneOf and allOf entries, through their local
     * references ({@link #referenced}) and their own entries, at any depth; an entry of another kind ({"type": "null"},
     * a string) is passed over: properties and required say nothing of it. Null where an entry cannot be told: a
     * reference that cannot be followed, an object that lists no properties, a boolean schema true, or entries whose
     * references lead back to a schema whose entries are being read ({@link Reads}, their pointers: they name each other
     * round, U = anyOf[$ref V, null] and V = anyOf[$ref U, string], and say no object).
     */
    private static List<Located> variantObjects(ObjectNode schema, String at, JsonNode given, Reads reads) {
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

    /**
     * {@code schema} (at {@code at}) and the schemas its {@code $ref} names in turn, while each names another: only a
     * local one, "#" and a JSON Pointer into the schema as given ({@code given}), is followed. Null where a reference
     * cannot be followed: a {@code $dynamicRef} or {@code $recursiveRef}, a {@code $ref} that is not such a pointer or
     * names no object schema, or references that name each other round (they name no schema; the set of those seen ends
     * the loop).
     */
    private static List<Located> referenced(ObjectNode schema, String at, JsonNode given) {
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

    /** A place as a refusal names it: its JSON Pointer, or "its top" for the schema's top (the empty pointer). */
    private static String place(String pointer) {
        return pointer.isEmpty() ? "its top" : pointer;
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
    private static boolean losesSomething(JsonNode node) {
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
     * Refuses a reference ({@link #REFS}) beneath a condition (not, if, then, else, propertyNames, dependentSchemas,
     * dependencies) to a schema that would not be sent as given ({@link #changesWhenSent}): it is sent as a value's own
     * (closed, its constraints left out), which would change what the condition says. Not looked in: an allOf (its own
     * check refuses any reference beneath it), a contains, and a not or if/then/else left out as lossy (not sent). {@code condition}: the keyword of the condition the node
     * is beneath, or null; {@code conditionAt}: its JSON Pointer.
     */
    private static void refuseRefInCondition(ObjectNode root, JsonNode node, String pointer, String name,
            String condition, String conditionAt) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        for (String ref : condition == null ? List.<String>of() : REFS) {
            if (object.has(ref) && changesWhenSent(root, object.get(ref))) {
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
     * out or renamed ({@link #losesSomething}), or it cannot be told (not a "#" JSON Pointer into this schema, a
     * reference in it, a boolean schema).
     */
    private static boolean changesWhenSent(ObjectNode root, JsonNode ref) {
        if (!ref.isTextual() || !ref.textValue().startsWith("#")) {
            return true;
        }
        JsonNode target;
        String pointer = fragmentPointer(ref.textValue());
        if (pointer == null) {
            return true;
        }
        try {
            target = root.at(pointer);
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

    /** One step of a JSON Pointer (RFC 6901) as the name it stands for: ~1 is '/' and ~0 '~' (in that order). */
    private static String fromPointerStep(String step) {
        return step.replace("~1", "/").replace("~0", "~");
    }

    /** A name as one step of a JSON Pointer (RFC 6901): '~' is written ~0 and '/' ~1. */
    private static String pointerStep(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
