package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.CustomDefinitionProviderV2;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.ValidationMessage;
import dev.rein.ReinException;
import dev.rein.internal.json.JavaNames;
import dev.rein.internal.schema.BeanNames;
import dev.rein.internal.schema.GrowingTypes;
import dev.rein.internal.schema.JacksonShapes;
import dev.rein.internal.schema.TypeMemo;
import dev.rein.internal.schema.TypeWalk;
import dev.rein.json.Json;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The required shape of a run's final answer: a JSON Schema (draft 2020-12), generated from a Java
 * type or given as JSON. A {@code JsonNode} or {@code Object} (a field, or the answer itself) is generated as {@code {}},
 * any JSON value, as Jackson binds any value to it. As a neutral {@link ModelOption} on each request, a provider may map it
 * onto its structured-output feature; Rein validates the final answer against it either way.
 */
public final class OutputSchema implements ModelOption {
    private static final SchemaGenerator GENERATOR = generator();
    /** Refuses a type with a class whose schema leaves out a property Jackson reads (a setter or creator named otherwise). */
    private static final BeanNames UNNAMED = new BeanNames(type -> GENERATOR.generateSchema(type));
    private static final JsonSchemaFactory FACTORY = dev.rein.internal.schema.LocalSchemaFactory.get(); // never fetches a $ref
    /**
     * The schema generated from each type whose answers {@link #readAnswer} checks (a record, a list of records, a bean
     * holding one, ...): an answer must have the components it requires, or it would be read as a record full of nulls and
     * zeros. Null for a type that is not checked or no schema can be generated from (it is read as Jackson reads it).
     * Worked out once per type: the walk over a bean's properties ran on every answer read.
     */
    private static final TypeMemo<OutputSchema> CHECKED_SCHEMAS = new TypeMemo<>(256,
            type -> checked(JavaNames.type(type)) ? schemaOrNull(TypeRef.nameOf(type), type) : null);
    /**
     * Why each type's schema never ends ({@link GrowingTypes#growing}), null for one that ends; once per type, as {@link
     * #CHECKED_SCHEMAS}: an unchecked type's answer was walked for it on every read.
     */
    private static final TypeMemo<String> ENDLESS = new TypeMemo<>(256, type -> GrowingTypes.growing(JavaNames.type(type)));

    /** Jackson's message for a key given twice in one object, with strict duplicate detection. */
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'", Pattern.DOTALL);
    /** An answer that is one fenced code block: models often wrap JSON that way. */
    private static final Pattern FENCED = Pattern.compile("\\A```[a-zA-Z]*\\s*\\n(.*)\\n```\\s*\\z", Pattern.DOTALL);

    private final String name;
    private final ObjectNode schema;
    /**
     * The Java type the schema was generated from, null for a schema given as JSON: an answer must
     * also be readable as that type, since a schema cannot say everything Jackson requires (that a
     * "date" string is a date, that an interface cannot be created).
     */
    private final JavaType type;

    /**
     * A record's components are required unless they are {@code Optional} (or OptionalInt, ...): a typed answer has them
     * all. A Map's values have its value type's schema ({@code additionalProperties}), so validation checks them; an
     * empty record is a closed empty object. Each was a bare {@code {"type":"object"}}: a map's values went unchecked, and
     * an empty record could not be told from a map. A JsonNode or Object is {@code {}}, any JSON value, as Jackson binds
     * any to it (a string, a number, a list, null): a bare object schema would refuse what the type takes.
     */
    private static SchemaGenerator generator() {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(Json.mapper(), SchemaVersion.DRAFT_2020_12,
                OptionPreset.PLAIN_JSON);
        config.with(com.github.victools.jsonschema.generator.Option.MAP_VALUES_AS_ADDITIONAL_PROPERTIES);
        config.forFields().withRequiredCheck(field -> field.getRawMember().getDeclaringClass().isRecord()
                && !JacksonShapes.OPTIONALS.contains(field.getRawMember().getType()));
        config.forTypesInGeneral().withTypeAttributeOverride((node, scope, context) -> {
            Class<?> raw = scope.getType().getErasedType();
            if (raw.isRecord() && raw.getRecordComponents().length == 0 && !node.has("properties")) {
                node.putObject("properties");
                node.put("additionalProperties", false);
            }
        });
        // A Map is written where it is used, never as a definition: a definition's $ref got the map's additionalProperties
        // again beside it (each bad value reported twice), and its name ("Map(String,Integer)") reached the model.
        config.forTypesInGeneral().withCustomDefinitionProvider(new CustomDefinitionProviderV2() {
            @Override
            public CustomDefinition provideCustomSchemaDefinition(ResolvedType javaType, SchemaGenerationContext context) {
                if (!java.util.Map.class.isAssignableFrom(javaType.getErasedType())) {
                    return null;
                }
                return new CustomDefinition(context.createStandardDefinition(javaType, this), CustomDefinition.DefinitionType.INLINE,
                        CustomDefinition.AttributeInclusion.NO);
            }
        });
        // Jackson's own annotations (@JsonNaming, @JsonUnwrapped, @JsonTypeInfo subtypes), value types, a Map.Entry, a
        // JsonNode, an Optional item and a bean's field Jackson reads from nothing, as Jackson reads the answer: the
        // configuration annotated tools' input schemas share (JacksonShapes), after the Map's provider above
        JacksonShapes.apply(config);
        return new SchemaGenerator(config.build());
    }

    private final JsonSchema compiled;

    private OutputSchema(String name, ObjectNode schema) {
        this(name, schema, null);
    }

    private OutputSchema(String name, ObjectNode schema, JavaType type) {
        this.name = name;
        this.type = type;
        this.schema = schema.deepCopy();
        String unsupported = dev.rein.internal.schema.LocalSchemaFactory.unsupportedDialect(schema);
        if (unsupported != null) {
            throw new ReinException("the output schema '" + name + "' " + unsupported);
        }
        // Checked against the meta-schema of the dialect its $schema declares (2020-12 when none).
        List<String> problems = dev.rein.internal.schema.LocalSchemaFactory.metaSchemaOf(schema).validate(schema).stream()
                .map(ValidationMessage::getMessage).distinct().sorted().toList();
        if (!problems.isEmpty()) {
            throw new ReinException("the output schema '" + name + "' is not a valid JSON Schema: " + String.join("; ", problems));
        }
        // checking an answer against such a loop never ended: the validator overflowed the stack on the first answer
        String loop = dev.rein.internal.schema.RefLoops.find(this.schema);
        if (loop != null) {
            throw new ReinException(dev.rein.internal.schema.RefLoops.describe("the output schema '" + name + "'", loop, "an answer"));
        }
        try {
            // each anyOf/allOf branch once: the validator compiled a $ref's target again per path, 2^n along a chain
            this.compiled = FACTORY.getSchema(dev.rein.internal.schema.DistinctBranches.of(this.schema));
            compiled.initializeValidators();
        } catch (RuntimeException e) {
            throw new ReinException("the output schema '" + name + "' cannot be used: " + e.getMessage(), e);
        }
    }

    /** The schema generated from {@code type} (a record or bean), named after the type. */
    public static OutputSchema of(Class<?> type) {
        if (type == null) {
            throw new ReinException("OutputSchema.of was given no type (null): give the class of the answer, e.g. a record");
        }
        return of(type.getSimpleName(), (Type) type);
    }

    /** Refuses a type no answer could be read into (an interface, a record that requires itself), before any run. */
    private static void check(Class<?> type) {
        if (!creatable(type)) {
            throw new ReinException("the output type " + type.getSimpleName() + " is " + (type.isInterface() ? "an interface" : "an"
                    + " abstract class") + ", and an answer is read into a value of it: no answer could be read. Use a record or"
                    + " a concrete class (or annotate it with @JsonTypeInfo and its subtypes)");
        }
        String cycle = requiredCycle(type, new java.util.ArrayList<>(), new java.util.HashSet<>());
        if (cycle != null) {
            throw new ReinException("the output type " + type.getSimpleName() + " cannot be answered: " + cycle + " leads back"
                    + " to a record it came from through required components, so an answer would have to nest without end."
                    + " Make one of them Optional or a List (an empty one ends the nesting)");
        }
    }

    /**
     * A path of required record components that leads back to a record on it ("Employee.team → Team.lead →
     * Employee"), or null: a required component may not be null, so no finite answer fits such a type.
     * {@code path} holds the components followed so far, {@code ends} the records known to lead to no cycle.
     */
    private static String requiredCycle(Class<?> type, List<java.lang.reflect.RecordComponent> path, java.util.Set<Class<?>> ends) {
        if (!type.isRecord() || ends.contains(type)) {
            return null;
        }
        for (java.lang.reflect.RecordComponent component : type.getRecordComponents()) {
            Class<?> next = component.getType();
            if (!next.isRecord()) {
                continue;
            }
            path.add(component);
            String cycle = path.stream().anyMatch(c -> c.getDeclaringRecord() == next)
                    ? String.join(" → ", path.stream().map(c -> c.getDeclaringRecord().getSimpleName() + "." + c.getName()).toList())
                            + " → " + next.getSimpleName()
                    : requiredCycle(next, path, ends);
            path.remove(path.size() - 1);
            if (cycle != null) {
                return cycle;
            }
        }
        ends.add(type);
        return null;
    }

    /**
     * Whether Jackson can make a value of {@code type} from JSON alone: not an interface or abstract
     * class, unless one Jackson maps to a concrete type (List, Map, Number, ...) or that names its
     * subtypes. Checked when the agent is built, rather than after every answer has been refused.
     */
    private static boolean creatable(Class<?> type) {
        // an enum whose constants have bodies is abstract for reflection, and Jackson reads it by its names
        if (type.isPrimitive() || type.isArray() || type.isEnum() || !(type.isInterface() || Modifier.isAbstract(type.getModifiers()))) {
            return true;
        }
        // a Map.Entry is read from an object of exactly one key (JacksonShapes gives it that schema), as a tool parameter
        return java.util.Collection.class.isAssignableFrom(type) || java.util.Map.class.isAssignableFrom(type)
                || type == java.util.Map.Entry.class || type == JsonNode.class || type == Iterable.class || type == CharSequence.class || type == Number.class
                || type.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonTypeInfo.class)
                || type.isAnnotationPresent(com.fasterxml.jackson.databind.annotation.JsonDeserialize.class);
    }

    /**
     * The schema generated from a (possibly generic) type; its raw type is checked as {@link #of(Class)}
     * checks a class ({@code Page<String>} as {@code Page}).
     *
     * @throws ReinException when no answer could be read into the type (an interface, a record that requires itself),
     *         or it is an {@code Optional} (an answer is always given: ask for its value's type)
     */
    public static OutputSchema of(String name, Type type) {
        if (type == null) {
            throw new ReinException("OutputSchema.of was given no type (null) for '" + name + "': give the type of the"
                    + " answer, e.g. a record");
        }
        JavaType javaType = refuseOptional(type);
        check(javaType.getRawClass());
        ObjectNode schema = generate(type); // first: a type whose schema never ends is told so, as itself
        refuseUnnamed(type);
        return new OutputSchema(name, schema, javaType);
    }

    /**
     * The schema victools generates from {@code type}. A generic class holding itself at a larger type ({@code Fork<T>}
     * holding a {@code Fork<List<T>>}) is a new type at every level, so its schema never ends: the generator recursed until
     * the stack overflowed (a StackOverflowError after most of a minute). Such a type is found first by {@link
     * GrowingTypes#growing}, and
     * an overflow it misses is told alike: a mistake in the type, not an error with a stack trace.
     */
    private static ObjectNode generate(Type type) {
        String grows = ENDLESS.get(type);
        try {
            if (grows == null) {
                return GENERATOR.generateSchema(type);
            }
        } catch (StackOverflowError e) {
            grows = "a class in it";
        } catch (IllegalStateException e) {
            String what = JacksonShapes.subtypeOfItsOwnHierarchy(e, "the output type " + TypeRef.nameOf(type),
                    JavaNames.type(type).getRawClass());
            if (what == null) {
                throw e;
            }
            throw new ReinException(what, e);
        }
        throw neverEnds(type, grows);
    }

    private static ReinException neverEnds(Type type, String grows) {
        return new ReinException(GrowingTypes.neverEnds("the output type " + TypeRef.nameOf(type), grows));
    }

    /**
     * Refuses, as {@link #generate} does, a type that holds itself at ever larger types when it is read with no schema made
     * first (one made would have refused it): Jackson's read recursed over it until the stack overflowed, after more than
     * ten seconds (core44's note).
     */
    private static void refuseEndless(Type type) {
        String grows = ENDLESS.get(type);
        if (grows != null) {
            throw neverEnds(type, grows);
        }
    }

    /**
     * {@code type} as Jackson sees it, unless it is an {@code Optional} (or OptionalInt, ...) as a whole: its schema would
     * be {@code {"value": ...}} and an answer read as an empty Optional or a record of nulls, while an answer is always
     * given. Refused alike when a schema is generated ({@link #of(String, Type)}) and when an answer is read.
     */
    private static JavaType refuseOptional(Type type) {
        JavaType javaType = Json.mapper().getTypeFactory().constructType(type);
        Class<?> raw = javaType.getRawClass();
        if (JacksonShapes.OPTIONALS.contains(raw)) {
            String inner = type instanceof java.lang.reflect.ParameterizedType p ? TypeRef.nameOf(p.getActualTypeArguments()[0])
                    : raw == java.util.Optional.class ? "the type of the value" : raw.getSimpleName().substring(8).toLowerCase(java.util.Locale.ROOT);
            throw new ReinException("the output type " + TypeRef.nameOf(type)
                    + " is an Optional, but an answer is always given: ask for " + inner + ", or give a record an Optional"
                    + " component");
        }
        return javaType;
    }

    /**
     * Refuses {@code type} when a class in it is read by Jackson under a property its schema does not name (a setter or
     * a {@code @JsonCreator} parameter named otherwise than the field): an answer as the schema says would be read as
     * nulls and zeros, in a run that succeeds. Refused alike when a schema is generated and when an answer is read.
     */
    private static void refuseUnnamed(Type type) {
        String unnamed = UNNAMED.unnamed(type);
        if (unnamed != null) {
            throw new ReinException("the output type " + TypeRef.nameOf(type) + " cannot be answered as its schema says: " + unnamed);
        }
    }

    /**
     * The schema an answer read as {@code type} is checked against, or null when none can be generated or used (the
     * answer is then read as Jackson reads it); as {@link #of(String, Type)}, an {@code Optional} is refused, not
     * swallowed, so it is never read unchecked.
     */
    private static OutputSchema schemaOrNull(String name, Type type) {
        JavaType javaType = refuseOptional(type);
        try {
            check(javaType.getRawClass()); // a record that requires itself: no answer could validate, Jackson reads one
            return new OutputSchema(name, generate(type), javaType);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether an answer read as {@code type} is checked against the schema generated from it: a record (generic or not);
     * an array, collection or map whose elements (a map's values), at any depth, are records ({@code Optional<X>} and
     * {@code ? extends X} count as X); or a plain class (bean) whose Jackson properties, at any depth, reach such a type
     * ({@code Report{List<Verdict> verdicts}}, {@code Box<Verdict>}); or an interface or abstract class read as one of its
     * {@code @JsonSubTypes} when one of them is such a type. Any other type (a {@code @JsonCreator} from one
     * string, an enum, a JDK type, a bean of no records) is read as Jackson reads it, which is more lenient than its
     * schema (a creator from a string, an int from "5", an Instant from a number), and a record's nulls and zeros, which
     * the check is for, cannot arise in it.
     */
    static boolean checked(JavaType type) { // package-private for tests
        return TypeWalk.walk(type, new TypeWalk.Visitor<Boolean>() {
            @Override
            public Boolean enter(JavaType t, List<JavaType> path) {
                return t.getRawClass().isRecord() ? Boolean.TRUE : null;
            }
        }) != null;
    }

    /**
     * A schema given as JSON text (for example read from a file).
     *
     * @throws ReinException when the text is not JSON, not an object or not a valid JSON Schema
     */
    public static OutputSchema fromJson(String name, String schemaJson) {
        JsonNode node;
        try (JsonParser parser = Json.mapper().createParser(schemaJson)) {
            // a keyword given twice would be read as its last value, the other dropped unseen
            parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            node = Json.mapper().readTree(parser);
            // readTree stops after the first value: after a brace closed too early, the rest would be dropped unseen
            JsonLocation end = parser.currentLocation();
            if (node != null && !schemaJson.substring((int) Math.min(schemaJson.length(), end.getCharOffset())).isBlank()) {
                throw new ReinException("the output schema '" + name + "' is not one JSON object: text follows it at line "
                        + end.getLineNr() + ", column " + end.getColumnNr() + "; check its braces");
            }
        } catch (JsonProcessingException e) {
            Matcher twice = DUPLICATE.matcher(e.getOriginalMessage());
            if (twice.matches()) {
                throw new ReinException("the output schema '" + name + "' has the key \"" + twice.group(1) + "\" twice in one object"
                        + at(e) + "; keep one of them");
            }
            throw new ReinException("the output schema '" + name + "' is not JSON: " + problem(e));
        } catch (java.io.IOException e) { // not from reading a String; only close() declares it
            throw new java.io.UncheckedIOException(e);
        }
        if (!(node instanceof ObjectNode object)) {
            throw new ReinException("the output schema '" + name + "' must be a JSON object (a JSON Schema)");
        }
        return new OutputSchema(name, object);
    }

    /** The schema's name (providers that name structured outputs use it). */
    @JsonProperty
    public String name() {
        return name;
    }

    /** The JSON Schema, a copy. */
    @JsonProperty
    public ObjectNode schema() {
        return schema.deepCopy();
    }

    /**
     * The text of a final answer's JSON value as the model wrote it: the answer without the spaces
     * around it, or what its one fenced code block holds (the fence, which models often add, left
     * out). It is not checked to be JSON; {@link #parseAnswer} reads it.
     */
    public static String answerText(String answer) {
        String text = answer == null ? "" : answer.strip();
        Matcher fenced = FENCED.matcher(text);
        return fenced.matches() ? fenced.group(1).strip() : text;
    }

    /**
     * The JSON value of a final answer: the answer's text, or the one fenced code block it consists of.
     *
     * @throws ReinException when it is not JSON
     */
    public static JsonNode parseAnswer(String answer) {
        String text = answerText(answer);
        try (JsonParser parser = Json.mapper().createParser(text)) {
            // A key given twice would be read as its last value, chosen unseen: the model is asked again instead.
            parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonNode node = Json.mapper().readTree(parser);
            if (node == null || node.isMissingNode()) {
                throw new ReinException("the answer is empty, not JSON");
            }
            // readTree stops after the first value: text after it ("That's all!", a second value) would pass unseen
            JsonLocation end = parser.currentLocation();
            if (!text.substring((int) Math.min(text.length(), end.getCharOffset())).isBlank()) {
                throw new ReinException("the answer is not one JSON value: text follows it at line " + end.getLineNr()
                        + ", column " + end.getColumnNr() + "; give the JSON value alone, with no text before or after it");
            }
            return node;
        } catch (JsonProcessingException e) {
            Matcher twice = DUPLICATE.matcher(e.getOriginalMessage());
            if (twice.matches()) {
                throw new ReinException("the answer has the key \"" + twice.group(1) + "\" twice in one object" + at(e)
                        + "; give each key once, with the value you mean");
            }
            throw new ReinException("the answer is not JSON: " + problem(e));
        } catch (java.io.IOException e) { // not from reading a String; only close() declares it
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Where Jackson stopped, as " (line L, column C)"; empty when it does not say. */
    private static String at(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    /** Jackson's reason with its positions as lines and columns, without its "[Source: REDACTED …]" placeholder. */
    private static String problem(JsonProcessingException e) {
        return Json.problem(e);
    }

    /**
     * The final answer as a value of {@code type}, read under the names a schema generated from {@code type}
     * requires: the Java names of its components (so {@code orderId}, not Rein's snake_case wire name),
     * {@code Optional} components empty when left out or null, other properties ignored. For a record, or an array,
     * collection or map of records (at any depth), or a plain class (bean) whose properties reach such a type, the answer
     * must validate against the schema generated from {@code type} (every component that is not {@code Optional}
     * present), so it is never read as a record of nulls and zeros; any other type is read as Jackson reads it (a {@code
     * @JsonCreator} from a string, an int from "5").
     *
     * @throws ReinException when the answer is not JSON or does not fit {@code type}, or {@code type} is an {@code
     *         Optional} (an answer is always given: read its value's type)
     */
    public static <T> T readAnswer(String answer, Class<T> type) {
        if (type == null) {
            throw new ReinException("OutputSchema.readAnswer was given no type (null): give the class to read the answer"
                    + " into, e.g. the record of the agent's outputType");
        }
        refuseOptional(type);
        JsonNode value = parseAnswer(answer);
        OutputSchema required = CHECKED_SCHEMAS.get(type);
        if (required == null) { // first: BeanNames' walk over such a type is long too
            refuseEndless(type);
        }
        refuseUnnamed(type);
        List<String> problems = required == null ? List.of() : required.problems(value);
        if (!problems.isEmpty()) {
            throw new ReinException("the answer is not a valid " + type.getSimpleName() + ": " + String.join("; ", problems));
        }
        try {
            return JavaNames.read(value, type);
        } catch (IllegalArgumentException e) {
            throw new ReinException("the answer is not a valid " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The final answer as a value of a generic {@code type} ({@code List<Verdict>}, say, from {@link TypeRef#type()}), read
     * as {@link #readAnswer(String, Class)} reads a class: under the names the schema generated from {@code type}
     * requires, and, for a (generic) record, a list, array or map of records, or a bean whose properties reach one, only when
     * the answer validates against that schema, so the records inside a list or map are never read full of nulls and zeros. A {@code Class} is read as
     * {@link #readAnswer(String, Class)} reads it.
     *
     * @throws ReinException when the answer is not JSON or does not fit {@code type}, or {@code type} is an {@code
     *         Optional}
     */
    public static Object readAnswer(String answer, Type type) {
        if (type == null) {
            throw new ReinException("OutputSchema.readAnswer was given no type (null): give the type to read the answer"
                    + " into, e.g. new TypeRef<List<Verdict>>() {}.type()");
        }
        if (type instanceof Class<?> raw) {
            return readAnswer(answer, raw);
        }
        JavaType javaType = refuseOptional(type);
        JsonNode value = parseAnswer(answer);
        String name = TypeRef.nameOf(type);
        OutputSchema required = CHECKED_SCHEMAS.get(type);
        if (required == null) { // first: BeanNames' walk over such a type is long too
            refuseEndless(type);
        }
        refuseUnnamed(type);
        List<String> problems = required == null ? List.of() : required.problems(value);
        if (!problems.isEmpty()) {
            throw new ReinException("the answer is not a valid " + name + ": " + String.join("; ", problems));
        }
        try {
            return JavaNames.read(value, javaType);
        } catch (IllegalArgumentException e) {
            throw new ReinException("the answer is not a valid " + name + ": " + e.getMessage(), e);
        }
    }

    /** What is wrong with {@code answer} as output of this schema, each readable; empty when it validates. */
    public List<String> problems(String answer) {
        JsonNode value;
        try {
            value = parseAnswer(answer);
        } catch (ReinException e) {
            return List.of(e.getMessage());
        }
        return problems(value);
    }

    /**
     * What is wrong with {@code value} (already parsed JSON) under this schema, each readable; empty when it validates.
     *
     * A value nested deeper than {@value dev.rein.internal.schema.RefLoops#DEEP_VALUE} levels that the validator runs out of
     * stack checking is a problem of the value ("the answer is nested 900 levels deep, ...").
     *
     * @throws dev.rein.ConfigurationException when the validator runs out of stack on a shallower value (a loop Rein does
     *         not follow, or a nearly full stack): in a run, it ends {@code FAILED configuration_error} with what to do
     */
    public List<String> problems(JsonNode value) {
        List<ValidationMessage> messages;
        try {
            messages = List.copyOf(compiled.validate(value));
        } catch (StackOverflowError e) { // a deep answer, or a loop RefLoops does not follow: said so, not a JVM error
            String tooDeep = dev.rein.internal.schema.RefLoops.tooDeep(value, "the answer", "answer", compiled::validate);
            if (tooDeep != null) { // the answer's fault: invalid output, which the model is asked to fix
                return List.of(tooDeep);
            }
            // the schema (or the stack it is given) cannot check answers: a setting to change, so configuration_error
            throw new dev.rein.ConfigurationException(dev.rein.internal.schema.RefLoops.overflow("the output schema '" + name
                    + "'", "an answer"));
        }
        List<String> problems = messages.stream()
                .filter(m -> !nullBranchBeside(m, messages))
                .sorted(Comparator.comparing(ValidationMessage::getMessage))
                .map(this::toldAsAnEntry)
                .distinct() // each branch of a subtype's anyOf said "$.shape: required property 'kind' not found" again
                .toList();
        if (!problems.isEmpty() || type == null) {
            return problems;
        }
        try {
            JavaNames.read(value, type);
            return problems;
        } catch (IllegalArgumentException e) {
            return List.of(unreadable(e));
        }
    }

    /**
     * A Map.Entry answer's one-key bound ("$: must have at most 1 properties", or at least) as the shape it asks for: the
     * model that sent two keys, or none, was not told an entry is one key (rev132). Matched by the keyword and place,
     * not the message, which networknt translates to the default locale (rev133).
     */
    private String toldAsAnEntry(ValidationMessage message) {
        boolean entry = type != null && java.util.Map.Entry.class.isAssignableFrom(type.getRawClass());
        boolean bound = ("maxProperties".equals(message.getType()) || "minProperties".equals(message.getType()))
                && "$".equals(message.getInstanceLocation().toString());
        return entry && bound ? "$: must be an object of exactly one key (the entry's key), whose value is the entry's value"
                : message.getMessage();
    }

    /**
     * Whether {@code message} is an anyOf's null branch refusing a value that is not null ("$[0]: object found, null
     * expected", from an {@code Optional<Invoice>} item) while another message reports what is wrong at or inside the
     * same place (the Invoice branch's missing "total"): told both, a model answered null and the item was lost (rev101).
     */
    private static boolean nullBranchBeside(ValidationMessage message, List<ValidationMessage> all) {
        Object[] arguments = message.getArguments();
        if (!"type".equals(message.getType()) || arguments == null || arguments.length < 2 || !"null".equals(String.valueOf(arguments[1]))
                || message.getInstanceNode() == null || message.getInstanceNode().isNull()
                || !message.getEvaluationPath().toString().contains("anyOf")) {
            return false;
        }
        String at = message.getInstanceLocation().toString();
        return all.stream().anyMatch(other -> other != message && !nullBranchOf(other) && (other.getInstanceLocation().toString().equals(at)
                || other.getInstanceLocation().toString().startsWith(at + ".") || other.getInstanceLocation().toString().startsWith(at + "[")));
    }

    private static boolean nullBranchOf(ValidationMessage message) {
        Object[] arguments = message.getArguments();
        return "type".equals(message.getType()) && arguments != null && arguments.length >= 2 && "null".equals(String.valueOf(arguments[1]));
    }

    /** Why a value that validates cannot be read as the type: Jackson's first line and where, e.g. "at $.due". */
    private String unreadable(IllegalArgumentException e) {
        String reason = e.getCause() instanceof JsonMappingException m ? m.getOriginalMessage() : e.getMessage();
        StringBuilder at = new StringBuilder("$");
        if (e.getCause() instanceof JsonMappingException m) {
            for (JsonMappingException.Reference r : m.getPath()) {
                at.append(r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]");
            }
        }
        int nl = reason == null ? -1 : reason.indexOf('\n');
        return "at " + at + ": the value does not fit " + type.getRawClass().getSimpleName() + ": "
                + (nl < 0 ? reason : reason.substring(0, nl));
    }

    /** The instruction Rein adds to the system prompt so that any model knows the required shape. */
    public String instruction() {
        return "Your final answer must be a single JSON value, with no other text, that validates against this JSON"
                + " Schema (" + name + "):\n" + Json.write(schema);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutputSchema other && name.equals(other.name) && schema.equals(other.schema);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, schema);
    }

    @Override
    public String toString() {
        return "OutputSchema[" + name + "]";
    }
}
