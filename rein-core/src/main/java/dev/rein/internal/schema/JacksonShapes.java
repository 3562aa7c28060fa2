package dev.rein.internal.schema;

import com.fasterxml.classmate.ResolvedType;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.CustomDefinitionProviderV2;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.SchemaGenerationContext;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import dev.rein.internal.json.JavaNames;
import dev.rein.json.Json;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Makes a generated schema describe values as Jackson writes and reads them, so that a value valid
 * under the schema can be read into the Java type: the typed output's schema and an annotated tool's
 * input schema both come from Java types and are both read back with Jackson.
 */
public final class JacksonShapes {
    /**
     * Value types Jackson writes and reads as one string or number (an OptionalInt as its number) that
     * the generator would describe by their getters, as objects ({@code {"year":..,"month":..}} for a
     * YearMonth, an array of strings for {@code byte[]}) that no value could both validate against and
     * be read from.
     */
    private static final Map<Class<?>, ObjectNode> VALUE_TYPES = Map.ofEntries(
            Map.entry(java.time.YearMonth.class, text("pattern", "^[0-9]{4}-(0[1-9]|1[0-2])$")),
            Map.entry(java.time.MonthDay.class, text("pattern", "^--(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$")),
            Map.entry(java.time.Year.class, Json.object().put("type", "integer")),
            Map.entry(java.time.ZoneOffset.class, text("pattern", "^(Z|[+-][0-9]{2}:[0-9]{2})$")),
            Map.entry(java.net.URL.class, text("format", "uri")),
            Map.entry(byte[].class, text("contentEncoding", "base64")),
            // the generator describes a byte as a string; Jackson writes and reads it as a number
            Map.entry(byte.class, byteRange()),
            Map.entry(Byte.class, byteRange()),
            Map.entry(java.util.Locale.class, text("description", "an IETF BCP 47 language tag, e.g. ja-JP")),
            Map.entry(java.util.Currency.class, text("pattern", "^[A-Z]{3}$")),
            Map.entry(java.util.OptionalInt.class, orNull("integer")),
            Map.entry(java.util.OptionalLong.class, orNull("integer")),
            Map.entry(java.util.OptionalDouble.class, orNull("number")));

    /** Types whose value may be left out: Jackson reads a missing or null one as empty. */
    public static final Set<Class<?>> OPTIONALS = Set.of(java.util.Optional.class, java.util.OptionalInt.class,
            java.util.OptionalLong.class, java.util.OptionalDouble.class);

    private JacksonShapes() {}

    /**
     * What Jackson reads inside {@code type} when it is a container: an array's, collection's or Optional's element, a
     * map's value, and a {@code Map.Entry}'s value (Jackson reads an entry as an object of one key, and its type is no
     * container to Jackson); null for any other type.
     */
    public static JavaType contentOf(JavaType type) {
        if (!container(type)) {
            return null;
        }
        if (type.getRawClass() == Map.Entry.class) {
            return type.containedTypeCount() == 2 ? type.containedType(1) : null;
        }
        return type.getContentType();
    }

    /** Whether {@code type} is a container as {@link #contentOf} reads it. */
    public static boolean isContainer(JavaType type) {
        return container(type);
    }

    /**
     * The one container test of {@link #contentOf} and {@link #isContainer} (each repeated it, so a container added to one
     * would have been walked into by one and not the other): an array, collection, map or Optional, as Jackson reads them,
     * and a {@code Map.Entry}.
     */
    private static boolean container(JavaType type) {
        return type.getRawClass() == Map.Entry.class || type.isArrayType() || type.isCollectionLikeType() || type.isMapLikeType()
                || type.isReferenceType();
    }

    /**
     * Names properties as Jackson reads them ({@code @JsonProperty("order_id")}: a value that validates under
     * the Java name would be read as null) and describes value types and renamed enums by their JSON, and a class
     * Jackson reads from one value, not from an object, as that value ({@link #oneValue}); a {@code Map.Entry}, a
     * {@code JsonNode} and an {@code Optional} inside a list or map as Jackson reads them, and leaves out a bean's field
     * Jackson reads from nothing ({@link ReadShapes}). Follows Jackson's own annotations as well (victools' Jackson
     * module): a property's name from {@code @JsonNaming}, an {@code @JsonUnwrapped} property's properties flat in its
     * owner's, an {@code @JsonTypeInfo} type as anyOf its {@code @JsonSubTypes}, each with its type id, a
     * {@code @JsonPropertyDescription}, and no {@code @JsonIgnore}d field. The one configuration of both the typed output's
     * schema and annotated tools' input schemas: both are read back with Jackson. Register a provider of one's own for a
     * type these describe before calling this (typed output's for a Map).
     */
    public static SchemaGeneratorConfigBuilder apply(SchemaGeneratorConfigBuilder config) {
        ReadShapes.apply(config);
        // Without the module the schema named the Java fields, a subtype was a bare object, and an answer (or a tool's
        // arguments) as the schema said was read as zeros and nulls or not at all (rev101). Enums and value types stay
        // this class's (FLATTENED_ENUMS_FROM_* off), and a type without these annotations is generated as before: the
        // module would also leave out every field Jackson does not see (a private one with no accessor), which changed
        // the schema of a type read by its own creator; a bean whose fields are not what Jackson reads is refused
        // instead (BeanNames), and only a field Jackson reads from nothing at all is left out (ReadShapes).
        config.with(new JacksonModule() {
            @Override
            protected boolean shouldIgnoreField(FieldScope field) {
                return ignoredByAnnotation(field) || ReadShapes.unreadByJackson(field);
            }
        });
        config.forFields().withPropertyNameOverrideResolver(field -> {
            JsonProperty renamed = field.getAnnotationConsideringFieldAndGetter(JsonProperty.class);
            return renamed == null || renamed.value().isEmpty() ? null : renamed.value();
        });
        config.forTypesInGeneral().withCustomDefinitionProvider((javaType, context) -> {
            ObjectNode value = javaType.getErasedType().isEnum() ? enumValues(javaType.getErasedType())
                    : VALUE_TYPES.get(javaType.getErasedType());
            return value == null ? null : new CustomDefinition(value.deepCopy(), CustomDefinition.DefinitionType.INLINE,
                    CustomDefinition.AttributeInclusion.YES);
        });
        config.forTypesInGeneral().withCustomDefinitionProvider(new OneValue());
        return config;
    }

    /**
     * What to do when the generator failed on {@code e} because a class in the type is a subtype of an
     * {@code @JsonTypeInfo} hierarchy that holds its base type ({@code Add(Expr left, Expr right)} declared as an
     * {@code Add}): victools' Jackson module makes two definitions of the subtype under one name and stops with "produced
     * duplicate keys". Null for any other failure. {@code what} names the type as the message does ("parameter 'b'").
     */
    public static String subtypeOfItsOwnHierarchy(IllegalStateException e, String what, Class<?> declared) {
        String message = String.valueOf(e.getMessage());
        int at = message.indexOf("duplicate keys: ");
        if (at < 0) {
            return null;
        }
        String name = message.substring(at + "duplicate keys: ".length()).trim();
        Class<?> base = typeInfoBase(declared);
        String declareAs = base == null || base == declared ? "its @JsonTypeInfo base type (the interface or class with"
                + " @JsonSubTypes)" : base.getSimpleName() + ", its @JsonTypeInfo base type";
        return what + " holds " + name + ", a subtype of a @JsonTypeInfo type that holds the type again, and no JSON Schema"
                + " can be generated for " + name + " declared as itself (two definitions of " + name + " under one name). Declare"
                + " it as " + declareAs + ", or hold it in a record of its own";
    }

    /** The nearest supertype of {@code type} (or itself) annotated @JsonTypeInfo, or null. */
    private static Class<?> typeInfoBase(Class<?> type) {
        if (type == null || type == Object.class) {
            return null;
        }
        if (type.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonTypeInfo.class)) {
            return type;
        }
        Class<?> base = typeInfoBase(type.getSuperclass());
        for (int i = 0; base == null && i < type.getInterfaces().length; i++) {
            base = typeInfoBase(type.getInterfaces()[i]);
        }
        return base;
    }

    /** A field Jackson's annotations leave out of the JSON: @JsonUnwrapped (its properties are its owner's), @JsonIgnore. */
    private static boolean ignoredByAnnotation(FieldScope field) {
        var unwrapped = field.getAnnotationConsideringFieldAndGetterIfSupported(com.fasterxml.jackson.annotation.JsonUnwrapped.class);
        var ignored = field.getAnnotationConsideringFieldAndGetterIfSupported(com.fasterxml.jackson.annotation.JsonIgnore.class);
        return unwrapped != null && unwrapped.enabled() || ignored != null && ignored.value() || ignoredByItsClass(field)
                || field.getAnnotationConsideringFieldAndGetterIfSupported(com.fasterxml.jackson.annotation.JsonBackReference.class) != null;
    }

    /**
     * Whether the field's class names it in a class-level {@code @JsonIgnoreProperties({"drop"})}: Jackson drops the value,
     * so the schema must not ask for it (victools' module leaves that annotation to the field's own ignore rule).
     */
    private static boolean ignoredByItsClass(FieldScope field) {
        var ignore = field.getDeclaringType().getErasedType().getAnnotation(com.fasterxml.jackson.annotation.JsonIgnoreProperties.class);
        return ignore != null && !ignore.allowSetters() && java.util.Arrays.asList(ignore.value()).contains(field.getDeclaredName());
    }

    /**
     * Describes a class read from one value ({@link #oneValue}). Describing its delegate may meet the class again (a
     * {@code Tree} read from a {@code List<Tree>}); asked again then, it would describe the delegate again, without end (a
     * StackOverflowError). So the classes being described (per generation: per context) are kept: met again, a class is
     * given an empty standard definition, which the generator refers to by {@code $ref}; the outer description, made a
     * standard definition of the same class too, then takes its place in {@code $defs}, so the reference reaches it.
     */
    private static final class OneValue implements CustomDefinitionProviderV2 {
        private record Working(SchemaGenerationContext context, ResolvedType type) {}

        /** The classes being described on this thread, each with whether it was met again inside its own description. */
        private static final ThreadLocal<Map<Working, boolean[]>> WORKING = ThreadLocal.withInitial(java.util.HashMap::new);

        @Override
        public CustomDefinition provideCustomSchemaDefinition(ResolvedType javaType, SchemaGenerationContext context) {
            Map<Working, boolean[]> working = WORKING.get();
            Working key = new Working(context, javaType);
            boolean[] metAgain = working.get(key);
            if (metAgain != null) {
                metAgain[0] = true;
                return new CustomDefinition(Json.object(), CustomDefinition.DefinitionType.STANDARD,
                        CustomDefinition.AttributeInclusion.NO);
            }
            metAgain = new boolean[1];
            working.put(key, metAgain);
            ObjectNode value;
            try {
                value = oneValue(javaType, context);
            } finally {
                working.remove(key);
            }
            return value == null ? null : new CustomDefinition(value, metAgain[0] ? CustomDefinition.DefinitionType.STANDARD
                    : CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.YES);
        }
    }

    /**
     * The schema of a class Jackson reads from one JSON value and not from an object, as Jackson reads it: a class whose
     * creator takes one string ({@code @JsonCreator Money(String text)}, a static factory, a public one-string constructor
     * Jackson uses) is a string, one taking an int, long or BigInteger an integer, a double or BigDecimal a number, a
     * boolean a boolean; a delegating creator of another type ({@code List<String>}) that type's schema. Null, leaving the
     * class to the generator, for one Jackson reads from an object (a no-argument or properties creator) or by a
     * deserializer of its own. The generator described such a class by its fields, an object no creator takes, so no
     * answer fitted a record holding one. What Jackson found is asked of Jackson (the value instantiator of the
     * deserializer it reads the class with), not read off the annotations. A class Jackson can make no value of at all
     * is described as it writes it, by its {@code @JsonValue}.
     */
    private static ObjectNode oneValue(ResolvedType resolved, SchemaGenerationContext context) {
        Class<?> raw = resolved.getErasedType();
        if (!readByItsCreators(raw)) {
            return null;
        }
        JavaType type = javaType(resolved);
        ValueInstantiator creators = JavaNames.instantiator(type);
        if (creators == null || creators.canCreateUsingDefault() || creators.canCreateFromObjectWith()) {
            return null;
        }
        List<ObjectNode> ways = new ArrayList<>();
        ObjectNode scalars = kinds(creators);
        if (scalars != null) {
            ways.add(scalars);
        }
        for (JavaType delegate : JavaNames.delegateTypes(creators)) {
            ObjectNode delegated = delegate.getRawClass() == raw ? null : describe(delegate, context);
            if (delegated != null && !ways.contains(delegated)) { // a BigDecimal delegate is the number its creator said
                ways.add(delegated);
            }
        }
        if (!ways.isEmpty()) {
            if (ways.size() == 1) {
                return ways.get(0);
            }
            ObjectNode either = Json.object();
            ways.forEach(either.putArray("anyOf")::add);
            return either;
        }
        JavaType written = JavaNames.writtenAs(type);
        return written == null || written.getRawClass() == raw ? null : describe(written, context);
    }

    /** A class Jackson may read by creators it finds: none of the JDK's or Jackson's own, no container, enum or interface. */
    private static boolean readByItsCreators(Class<?> raw) {
        String name = raw.getName();
        return !(raw.isPrimitive() || raw.isArray() || raw.isEnum() || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())
                || name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("com.fasterxml.jackson.")
                || java.util.Collection.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw));
    }

    /** The JSON types of the one-value creators Jackson found ({@code {"type":"string"}}), or null when it found none. */
    private static ObjectNode kinds(ValueInstantiator creators) {
        List<String> kinds = new ArrayList<>();
        if (creators.canCreateFromString()) {
            kinds.add("string");
        }
        boolean number = creators.canCreateFromDouble() || creators.canCreateFromBigDecimal();
        if (!number && (creators.canCreateFromInt() || creators.canCreateFromLong() || creators.canCreateFromBigInteger())) {
            kinds.add("integer"); // a number covers an integer
        }
        if (number) {
            kinds.add("number");
        }
        if (creators.canCreateFromBoolean()) {
            kinds.add("boolean");
        }
        return kinds.isEmpty() ? null : kinds.size() == 1 ? Json.object().put("type", kinds.get(0)) : typeArray(kinds);
    }

    private static ObjectNode typeArray(List<String> kinds) {
        ObjectNode schema = Json.object();
        kinds.forEach(schema.putArray("type")::add);
        return schema;
    }

    /** The schema of the value a class is read from or written as: a string, number or boolean, or its type's schema. */
    private static ObjectNode describe(JavaType value, SchemaGenerationContext context) {
        Class<?> raw = value.getRawClass();
        String kind = raw == String.class || raw == CharSequence.class ? "string"
                : raw == boolean.class || raw == Boolean.class ? "boolean"
                : List.of(int.class, long.class, short.class, Integer.class, Long.class, Short.class, java.math.BigInteger.class)
                        .contains(raw) ? "integer"
                : List.of(double.class, float.class, Double.class, Float.class, java.math.BigDecimal.class).contains(raw) ? "number"
                : null;
        return kind != null ? Json.object().put("type", kind) : context.createDefinition(resolved(value, context));
    }

    /** A generator's type as Jackson sees it, its type arguments too ({@code Box<Money>}); the raw class if they do not fit. */
    private static JavaType javaType(ResolvedType resolved) {
        try {
            return JavaNames.type(resolved.getErasedType(), resolved.getTypeParameters().stream().map(JacksonShapes::javaType)
                    .toArray(JavaType[]::new));
        } catch (IllegalArgumentException e) {
            return JavaNames.type(resolved.getErasedType());
        }
    }

    /** Jackson's type as the generator's. */
    private static ResolvedType resolved(JavaType type, SchemaGenerationContext context) {
        java.lang.reflect.Type[] arguments = type.getBindings().getTypeParameters().stream().map(t -> resolved(t, context))
                .toArray(java.lang.reflect.Type[]::new);
        return context.getTypeContext().resolve(type.getRawClass(), arguments);
    }

    private static ObjectNode byteRange() {
        return Json.object().put("type", "integer").put("minimum", Byte.MIN_VALUE).put("maximum", Byte.MAX_VALUE);
    }

    private static ObjectNode text(String keyword, String value) {
        return Json.object().put("type", "string").put(keyword, value);
    }

    /** A number or null, as the generator describes an Optional's value. */
    private static ObjectNode orNull(String type) {
        ObjectNode schema = Json.object();
        schema.putArray("type").add(type).add("null");
        return schema;
    }

    /**
     * The values of an enum whose JSON is not its constants' names ({@code @JsonValue}, {@code @JsonProperty}
     * on a constant), as Jackson writes and reads them; null for an enum read by its names, which the
     * generator lists itself.
     */
    private static ObjectNode enumValues(Class<?> type) {
        ObjectNode schema = Json.object();
        ArrayNode values = schema.putArray("enum");
        boolean renamed = false;
        boolean text = true;
        try {
            for (Object constant : type.getEnumConstants()) {
                JsonNode json = JavaNames.tree(constant);
                values.add(json);
                renamed |= !json.isTextual() || !json.asText().equals(((Enum<?>) constant).name());
                text &= json.isTextual();
            }
        } catch (IllegalArgumentException e) { // a @JsonValue that fails: leave the enum to the generator
            return null;
        }
        if (!renamed) {
            return null;
        }
        if (text) {
            schema.put("type", "string");
        }
        return schema;
    }
}
