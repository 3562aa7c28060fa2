package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.List;

/**
 * Finds a type that holds a class at ever larger types ({@code Fork<T>} holding a {@code Fork<List<T>>}): each level is a
 * new type, so its schema never ends, and the schema generator and Jackson recursed over it until the stack overflowed
 * (most of a minute). Typed output ({@code OutputSchema}) and annotated tools' parameters ({@code AnnotatedTools}) both
 * refuse such a type with {@link #neverEnds}, before any schema is generated.
 */
public final class GrowingTypes {
    /** How many times one class may come back, each time at a larger type, along one path of properties. */
    private static final int MAX_GROWTH = 8;

    private GrowingTypes() {}

    /**
     * The class and property ("Fork, through its property 'a',") by which {@code type} holds a class at ever larger types,
     * or null: a path of Jackson properties (containers followed to their elements) that meets one class {@link #MAX_GROWTH}
     * times, each time at a type longer than before. Walks as {@link TypeWalk} does, within its bounds.
     */
    public static String growing(JavaType type) {
        return TypeWalk.walk(type, new TypeWalk.Visitor<String>() {
            @Override
            public String enter(JavaType t, List<JavaType> path) {
                int length = t.toCanonical().length();
                return path.stream().filter(p -> p.getRawClass() == t.getRawClass() && p.toCanonical().length() < length)
                        .count() >= MAX_GROWTH ? t.getRawClass().getSimpleName() : null;
            }

            @Override
            public String through(JavaType owner, BeanPropertyDefinition property, String grows) {
                return grows.contains(",") ? grows : grows + ", through its property '" + property.getName() + "',";
            }
        });
    }

    /**
     * What Rein tells of {@code what} ("the output type Fork<String>", "tool 't': parameter 'p'") whose type {@link
     * #growing} found to grow by {@code grows} ("a class in it" when only the generator's stack overflow told).
     */
    public static String neverEnds(String what, String grows) {
        return what + " has no JSON Schema that ends: " + grows + " holds itself at a larger type (as a Fork<T> holding a"
                + " Fork<List<T>>), so each level is a new type to describe, without end. Give such a property its class's"
                + " own type (Fork<T>), or a type of its own";
    }
}
