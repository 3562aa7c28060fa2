package dev.rein.internal.schema;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.rein.internal.json.JavaNames;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The one walk over the classes of a type as Jackson reads an answer into it: a container to what it holds ({@link
 * JacksonShapes#contentOf}), a class with {@code @JsonSubTypes} to each subtype, a concrete class to the type of each
 * property Jackson reads; JDK types, enums, primitives and {@code JsonNode}s are read as Jackson reads them and not
 * entered. Each type is entered once, at most {@link #MAX_DEPTH} classes deep and {@link #MAX_TYPES} types in all, so the
 * walk ends whatever the type: a generic class holding itself at ever larger types ({@code Fork<T>} with a {@code
 * Fork<List<T>>} and a {@code Fork<Set<T>>}) has 2^32 types within the depth. The three walks this replaces (whether an
 * answer is checked, whether a schema never ends, whether a class's schema names what Jackson reads) had these rules
 * each, in three copies that drifted apart.
 */
public final class TypeWalk {
    /** How many classes deep a walk looks. */
    public static final int MAX_DEPTH = 32;
    /** How many types a walk enters in all. */
    public static final int MAX_TYPES = 256;

    private TypeWalk() {}

    /** What a walk looks for: each method returns what it found, which ends the walk, or null to go on. */
    public interface Visitor<R> {
        /** A class met for the first time, before its subtypes and properties; {@code path} the classes that led to it. */
        default R enter(JavaType type, List<JavaType> path) {
            return null;
        }

        /** The properties Jackson reads of a concrete class, before their types are walked. */
        default R properties(JavaType type, List<BeanPropertyDefinition> properties) {
            return null;
        }

        /** What is returned for {@code found}, found through {@code owner}'s {@code property}. */
        default R through(JavaType owner, BeanPropertyDefinition property, R found) {
            return found;
        }
    }

    /** The first thing {@code visitor} finds in {@code type}, or null. */
    public static <R> R walk(JavaType type, Visitor<R> visitor) {
        return walk(type, visitor, new ArrayList<>(), new HashSet<>());
    }

    private static <R> R walk(JavaType type, Visitor<R> visitor, List<JavaType> path, Set<JavaType> visited) {
        if (JacksonShapes.isContainer(type)) {
            JavaType content = JacksonShapes.contentOf(type);
            return content == null ? null : walk(content, visitor, path, visited);
        }
        Class<?> raw = type.getRawClass();
        if (raw.isPrimitive() || raw.isEnum() || raw == Object.class || raw.getName().startsWith("java.")
                || JsonNode.class.isAssignableFrom(raw) || path.size() >= MAX_DEPTH || visited.size() >= MAX_TYPES
                || !visited.add(type)) {
            return null;
        }
        R found = visitor.enter(type, path);
        if (found != null) {
            return found;
        }
        path.add(type);
        try {
            JsonSubTypes subtypes = raw.getAnnotation(JsonSubTypes.class);
            if (subtypes != null) { // read as one of its subtypes: each is walked
                for (JsonSubTypes.Type subtype : subtypes.value()) {
                    found = subtype.value() == raw ? null : walk(JavaNames.type(subtype.value()), visitor, path, visited);
                    if (found != null) {
                        return found;
                    }
                }
            }
            if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
                return null;
            }
            return properties(type, visitor, path, visited);
        } finally {
            path.remove(path.size() - 1);
        }
    }

    private static <R> R properties(JavaType type, Visitor<R> visitor, List<JavaType> path, Set<JavaType> visited) {
        List<BeanPropertyDefinition> properties;
        try {
            properties = JavaNames.readProperties(type);
        } catch (RuntimeException e) {
            return null; // a type Jackson cannot introspect: it is read (and refused) as Jackson reads it
        }
        R found = visitor.properties(type, properties);
        if (found != null) {
            return found;
        }
        for (BeanPropertyDefinition property : properties) {
            JavaType next = property.getPrimaryType();
            found = next == null ? null : walk(next, visitor, path, visited);
            if (found != null) {
                return visitor.through(type, property, found);
            }
        }
        return null;
    }
}
