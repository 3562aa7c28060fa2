package dev.rein.internal.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * Reads a model's JSON into a user's Java type under the names of the schema generated from that
 * type: its Java names ({@code orderId}), not the snake_case names of Rein's own documents
 * ({@link dev.rein.json.Json#mapper()}). {@code Optional} components are empty when left out or
 * null, and properties the schema did not forbid are ignored, so every value that validates can be
 * read. Used for typed final answers and for the parameters of annotated tools.
 */
public final class JavaNames {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new Jdk8Module())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private JavaNames() {}

    /** @throws IllegalArgumentException when {@code value} does not fit {@code type} */
    public static <T> T read(JsonNode value, Class<T> type) {
        return MAPPER.convertValue(value, type);
    }

    /** {@code value} as JSON, as {@link #read} reads it back (an enum constant by its {@code @JsonValue}, say). */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    /** {@code type} as this reader sees it. */
    public static JavaType type(java.lang.reflect.Type type) {
        return MAPPER.getTypeFactory().constructType(type);
    }

    /** The properties of {@code type} as this reader finds them (its names, its setters and creator parameters). */
    public static java.util.List<com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition> readProperties(JavaType type) {
        return MAPPER.getDeserializationConfig().introspect(type).findProperties();
    }

    /** @throws IllegalArgumentException when {@code value} does not fit {@code type} */
    public static Object read(JsonNode value, JavaType type) {
        return MAPPER.convertValue(value, type);
    }

    /** {@code type} with the given type arguments, as {@link #read} sees it ({@code Box<Money>}). */
    public static JavaType type(Class<?> raw, JavaType... arguments) {
        return arguments.length == 0 ? MAPPER.constructType(raw) : MAPPER.getTypeFactory().constructParametricType(raw, arguments);
    }

    /**
     * How {@link #read} makes a value of {@code type}: the value instantiator of the deserializer Jackson reads it with
     * (which creators it found: no-argument, from properties, from one string or number, delegating), or null when that
     * deserializer has none (a JDK type, {@code @JsonDeserialize(using = …)}) or Jackson cannot read the type at all.
     */
    public static ValueInstantiator instantiator(JavaType type) {
        try {
            var context = ((DefaultDeserializationContext) MAPPER.getDeserializationContext())
                    .createInstance(MAPPER.getDeserializationConfig(), null, null);
            return context.findRootValueDeserializer(type) instanceof ValueInstantiator.Gettable made
                    ? made.getValueInstantiator() : null;
        } catch (JsonMappingException | RuntimeException e) { // a type Jackson cannot read: left as it is described
            return null;
        }
    }

    /**
     * The types the delegating creators of {@code instantiator} take ({@code Map<String, Integer>}, {@code List<String>}),
     * empty when it has none. Jackson files a delegating creator taking a list or array apart, as an array delegate, and
     * reads a JSON array with it; asked only for the other, a class read from a list was taken for one read from an object.
     */
    public static java.util.List<JavaType> delegateTypes(ValueInstantiator instantiator) {
        var config = MAPPER.getDeserializationConfig();
        var types = new java.util.ArrayList<JavaType>(2);
        if (instantiator.canCreateUsingDelegate()) {
            types.add(instantiator.getDelegateType(config));
        }
        if (instantiator.canCreateUsingArrayDelegate()) {
            types.add(instantiator.getArrayDelegateType(config));
        }
        types.removeIf(java.util.Objects::isNull);
        return types;
    }

    /** The type a value of {@code type} is written as by its {@code @JsonValue} accessor, or null when it has none. */
    public static JavaType writtenAs(JavaType type) {
        try {
            AnnotatedMember value = MAPPER.getSerializationConfig().introspect(type).findJsonValueAccessor();
            return value == null ? null : value.getType();
        } catch (RuntimeException e) { // two @JsonValue accessors, say: Jackson cannot write it either
            return null;
        }
    }
}
