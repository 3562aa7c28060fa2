package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.internal.json.JavaNames;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Finds a class, inside an output type, whose generated schema does not name a property Jackson reads: a bean with a
 * setter named otherwise than its field ({@code setInvoice} on a field {@code held}), a {@code @JsonCreator} whose
 * parameters are named otherwise than its fields. The schema is generated from fields, Jackson reads properties; the
 * model, told the fields, answers them, and the property is read as null or zero, in a run that succeeds. The JSON Schema
 * generator's Jackson module names what annotations say (@JsonProperty, @JsonNaming) but not these, so such a type is
 * refused, when the agent is built and when an answer is read; so is an annotated tool's parameter type, when the tool is
 * made (its arguments are read with Jackson as well).
 */
public final class BeanNames {
    private final Function<Class<?>, ObjectNode> schemaOf;
    /** The names each class's generated schema gives its properties. */
    private final ClassValue<Set<String>> schemaNames = new ClassValue<>() {
        @Override
        protected Set<String> computeValue(Class<?> type) {
            return namesOf(type);
        }
    };
    /** The refusal for each type walked (null: nothing unnamed). */
    private final TypeMemo<String> byType = new TypeMemo<>(256, type -> TypeWalk.walk(JavaNames.type(type),
            new TypeWalk.Visitor<String>() {
                @Override
                public String properties(JavaType t, List<BeanPropertyDefinition> properties) {
                    return unnamed(t, properties);
                }
            }));

    /** What the model gives as the schema says, in a refusal: "an answer", "the tool's arguments". */
    private final String given;

    /** @param schemaOf the schema generated from a class, as the output schema's generator makes it */
    public BeanNames(Function<Class<?>, ObjectNode> schemaOf) {
        this(schemaOf, "an answer");
    }

    /**
     * @param schemaOf the schema generated from a class, as the generator whose schemas are checked makes it
     * @param given    what the model gives as the schema says, as a refusal names it ("the tool's arguments")
     */
    public BeanNames(Function<Class<?>, ObjectNode> schemaOf, String given) {
        this.schemaOf = schemaOf;
        this.given = given;
    }

    /**
     * Why an answer to {@code type} cannot be read as its schema says (a class in it whose schema leaves out a property
     * Jackson reads), with what to do; null when every class in it names what Jackson reads. Walked as {@link TypeWalk}
     * walks, once per type.
     */
    public String unnamed(Type type) {
        return byType.get(type);
    }

    /** The refusal for one class whose {@code properties} (as Jackson reads them) its schema does not all name, or null. */
    private String unnamed(JavaType type, List<BeanPropertyDefinition> properties) {
        Class<?> raw = type.getRawClass();
        if (wrapperIncluded(raw)) {
            // its type id wraps its properties ({"circle":{"radius":2}}, ["circle",{"radius":2}]): the schema generated
            // from the class names the wrapper, the properties are inside it, where victools' module describes them as read
            return null;
        }
        Set<String> named = schemaNames.get(raw);
        List<BeanPropertyDefinition> unnamed = new ArrayList<>();
        java.lang.reflect.Field unread = fieldUnread(raw, properties);
        boolean fieldUnread = unread != null;
        for (BeanPropertyDefinition property : properties) {
            // a setter that is no property of its own (setCreatedAtMillis beside a createdAt the schema names) is harmless
            // while every field is read: the model is not asked for it. With a field Jackson reads from no property (held,
            // left out of the schema), the setter is taken for the one that sets it under another name (setInvoice).
            if (!fieldUnread && property.hasSetter() && !property.hasField() && !property.hasConstructorParameter()) {
                continue;
            }
            // an @JsonUnwrapped property's own properties are its owner's (the schema lists them there); one Jackson keeps
            // though it is ignored (a record's @JsonIgnore component, as a creator parameter) reads nothing the model gives
            if (named != null && property.couldDeserialize() && !unwrapped(property) && !ignored(property, ignoredNames(type))
                    && !named.contains(property.getName())) {
                unnamed.add(property);
            }
        }
        return unnamed.isEmpty() ? null : refusal(raw, unnamed, named, unread);
    }

    /** Whether {@code raw} is read inside a wrapper of its type id: a WRAPPER_OBJECT or WRAPPER_ARRAY @JsonTypeInfo on it or a supertype. */
    private static boolean wrapperIncluded(Class<?> raw) {
        if (raw == null || raw == Object.class) {
            return false;
        }
        var info = raw.getAnnotation(com.fasterxml.jackson.annotation.JsonTypeInfo.class);
        if (info != null) {
            return info.include() == com.fasterxml.jackson.annotation.JsonTypeInfo.As.WRAPPER_OBJECT
                    || info.include() == com.fasterxml.jackson.annotation.JsonTypeInfo.As.WRAPPER_ARRAY;
        }
        if (wrapperIncluded(raw.getSuperclass())) {
            return true;
        }
        for (Class<?> i : raw.getInterfaces()) {
            if (wrapperIncluded(i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether Jackson reads {@code field} of {@code owner} through one of {@code properties} (its field, or a setter or
     * creator parameter of its name): a private field with no getter, setter or creator parameter is read from nothing.
     */
    public static boolean readByJackson(java.lang.reflect.Field field, List<BeanPropertyDefinition> properties) {
        String name = field.getName();
        return properties.stream().anyMatch(p -> p.getField() != null && name.equals(p.getField().getName())
                || p.couldDeserialize() && name.equals(p.getInternalName())); // a field with a getter only is set as a field
    }

    /** An instance field of data (not transient or ignored) of {@code raw} (or a superclass) Jackson reads from nothing, or null. */
    private static java.lang.reflect.Field fieldUnread(Class<?> raw, List<BeanPropertyDefinition> properties) {
        for (Class<?> c = raw; c != null && c != Object.class && !c.isRecord(); c = c.getSuperclass()) {
            for (java.lang.reflect.Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!java.lang.reflect.Modifier.isStatic(modifiers) && !java.lang.reflect.Modifier.isTransient(modifiers)
                        && !field.isSynthetic() && !field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonIgnore.class)
                        && !readByJackson(field, properties)) {
                    return field;
                }
            }
        }
        return null;
    }

    /** The names Jackson found ignored in {@code type} (a record's {@code @JsonIgnore} component among them). */
    private static Set<String> ignoredNames(JavaType type) {
        try {
            var config = dev.rein.json.Json.mapper().getDeserializationConfig();
            var description = config.introspect(type);
            Set<String> names = new HashSet<>(description.getIgnoredPropertyNames());
            // a class-level @JsonIgnoreProperties({"drop"}): Jackson drops the value, the schema leaves it out (JacksonShapes)
            var byClass = config.getAnnotationIntrospector().findPropertyIgnoralByName(config, description.getClassInfo());
            if (byClass != null) {
                names.addAll(byClass.findIgnoredForDeserialization());
            }
            return names;
        } catch (RuntimeException e) {
            return Set.of();
        }
    }

    /** Whether {@code property} is one Jackson ignores: named so by {@code type}, or a member marked {@code @JsonIgnore}. */
    private static boolean ignored(BeanPropertyDefinition property, Set<String> ignoredNames) {
        if (ignoredNames.contains(property.getName()) || ignoredNames.contains(property.getInternalName())) {
            return true;
        }
        // a record's @JsonIgnore component: the annotation reaches its field and accessor, not the canonical constructor's
        // parameter, which Jackson keeps as a creator property
        var parameter = property.getConstructorParameter();
        Class<?> owner = parameter == null ? null : parameter.getDeclaringClass();
        if (owner != null && owner.isRecord()) {
            for (var component : owner.getRecordComponents()) {
                if (component.getName().equals(property.getInternalName())) {
                    var onAccessor = component.getAccessor().getAnnotation(com.fasterxml.jackson.annotation.JsonIgnore.class);
                    if (onAccessor != null && onAccessor.value()) {
                        return true;
                    }
                }
            }
        }
        var introspector = dev.rein.json.Json.mapper().getDeserializationConfig().getAnnotationIntrospector();
        for (var member : new com.fasterxml.jackson.databind.introspect.AnnotatedMember[] {property.getField(), property.getSetter(),
                property.getGetter(), property.getConstructorParameter()}) {
            if (member != null && introspector.hasIgnoreMarker(member)) {
                return true;
            }
        }
        return false;
    }

    private static boolean unwrapped(BeanPropertyDefinition property) {
        for (var member : new com.fasterxml.jackson.databind.introspect.AnnotatedMember[] {property.getField(), property.getSetter(),
                property.getGetter(), property.getConstructorParameter()}) {
            var annotation = member == null ? null : member.getAnnotation(com.fasterxml.jackson.annotation.JsonUnwrapped.class);
            if (annotation != null && annotation.enabled()) {
                return true;
            }
        }
        return false;
    }

    private String refusal(Class<?> raw, List<BeanPropertyDefinition> unnamed, Set<String> named,
            java.lang.reflect.Field unread) {
        // a setter of no property of its own is refused only beside a field read from nothing, which may be a mere cache
        boolean setterOnly = unread != null && unnamed.stream()
                .allMatch(p -> p.hasSetter() && !p.hasField() && !p.hasConstructorParameter());
        BeanPropertyDefinition first = unnamed.get(0);
        String how = first.hasConstructorParameter() ? "a @JsonCreator parameter" : first.hasSetter() ? "the setter "
                + first.getSetter().getName() : "a field";
        String names = String.join(", ", unnamed.stream().map(p -> "\"" + p.getName() + "\"").toList());
        return raw.getSimpleName() + " is read by Jackson under the propert" + (unnamed.size() == 1 ? "y " : "ies ") + names
                + " (" + how + (unnamed.size() == 1 ? "" : ", ...") + "), which the schema generated from its fields does not name"
                + (named.isEmpty() ? "" : " (it names " + String.join(", ", named.stream().map(n -> "\"" + n + "\"").toList()) + ")")
                + ", so " + given + " as the schema says would be read as nulls and zeros. Name each field as its property (a field "
                + first.getName() + " for \"" + first.getName() + "\", or @JsonProperty(\"" + first.getName() + "\") on the field)"
                + (first.hasSetter() ? ", mark a setter that sets no property of its own @JsonIgnore" : "")
                + (setterOnly ? ", mark the field " + unread.getName() + " transient or @JsonIgnore if it holds no data of the"
                        + " answer (Jackson reads it from nothing, so the setter is taken for its own)" : "")
                + (raw.isRecord() ? "" : ", or make " + raw.getSimpleName() + " a record");
    }

    /**
     * The property names of a class's generated schema: its own, those of allOf parts, and of the definitions they refer
     * to; null when the schema describes no object (a class Jackson reads from one value, described as that value, whose
     * public fields are no answer's properties) or cannot be generated: then nothing is compared.
     */
    private Set<String> namesOf(Class<?> type) {
        ObjectNode schema;
        try {
            schema = schemaOf.apply(type);
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
        if (!describesAnObject(schema)) {
            return null;
        }
        Set<String> names = new TreeSet<>();
        collect(schema, schema, names, new HashSet<>());
        return Collections.unmodifiableSet(names);
    }

    /** Whether {@code schema} is an object's: its type is or includes "object", or it has none and lists properties. */
    private static boolean describesAnObject(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isTextual()) {
            return type.asText().equals("object");
        }
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (t.asText().equals("object")) {
                    return true;
                }
            }
            return false;
        }
        return schema.has("properties") || schema.has("allOf") || schema.has("$ref");
    }

    private static void collect(JsonNode root, JsonNode node, Set<String> names, Set<String> refs) {
        if (node == null || !node.isObject()) {
            return;
        }
        node.path("properties").fieldNames().forEachRemaining(names::add);
        node.path("allOf").forEach(part -> collect(root, part, names, refs));
        String ref = node.path("$ref").asText("");
        if (ref.startsWith("#/$defs/") && refs.add(ref)) {
            collect(root, root.path("$defs").path(ref.substring("#/$defs/".length())), names, refs);
        } else if (ref.equals("#") && refs.add(ref)) {
            collect(root, root, names, refs);
        }
    }
}
