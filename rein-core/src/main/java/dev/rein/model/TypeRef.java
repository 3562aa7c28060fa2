package dev.rein.model;

import dev.rein.ReinException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * A generic type written as a type argument, so that it survives erasure: {@code new TypeRef<List<Verdict>>() {}}
 * (an anonymous subclass) holds {@code List<Verdict>}, which {@code List.class} cannot say. Read a typed run's answer
 * with it ({@link dev.rein.agent.RunResult#output(TypeRef)}), and give its {@link #type()} to {@link
 * OutputSchema#of(String, Type)} to type the run. Rein's own token, as Jackson's {@code TypeReference} and Spring's
 * {@code ParameterizedTypeReference} are theirs.
 *
 * @param <T> the type it holds
 */
public abstract class TypeRef<T> {
    private final Type type;

    /**
     * Captures the type argument of the anonymous subclass being created.
     *
     * @throws ReinException when it has none ({@code new TypeRef() {}})
     */
    protected TypeRef() {
        Type superclass = getClass().getGenericSuperclass();
        if (!(superclass instanceof ParameterizedType parameterized) || getClass().getSuperclass() != TypeRef.class) {
            throw new ReinException("a TypeRef was created without its type argument: write the type it holds, as an"
                    + " anonymous subclass, e.g. new TypeRef<List<Verdict>>() {}");
        }
        this.type = parameterized.getActualTypeArguments()[0];
        if (type instanceof java.lang.reflect.TypeVariable<?> variable) {
            // Java erases it: the answer would be read as its bound (Object), not as what the caller meant
            throw new ReinException("a TypeRef holds the type variable " + variable.getName() + ", which is not known at"
                    + " run time: write the concrete type, e.g. new TypeRef<List<Verdict>>() {}");
        }
    }

    /** The type it holds, e.g. {@code List<Verdict>} as a {@link ParameterizedType}. */
    public final Type type() {
        return type;
    }

    /**
     * The type as its source reads, with simple names ({@code Map<String, List<Verdict>>}): the name {@link
     * dev.rein.agent.Agent.Builder#outputType(TypeRef)} gives the schema generated from it, and errors use.
     */
    public final String name() {
        return nameOf(type);
    }

    static String nameOf(Type type) {
        if (type instanceof Class<?> c) {
            return c.getSimpleName();
        }
        if (type instanceof ParameterizedType p) {
            return nameOf(p.getRawType()) + java.util.Arrays.stream(p.getActualTypeArguments()).map(TypeRef::nameOf)
                    .collect(java.util.stream.Collectors.joining(", ", "<", ">"));
        }
        if (type instanceof java.lang.reflect.GenericArrayType a) {
            return nameOf(a.getGenericComponentType()) + "[]";
        }
        return type.getTypeName(); // a wildcard ("? extends Number") reads as it is written
    }

    /** Two references are equal when they hold the same type. */
    @Override
    public final boolean equals(Object o) {
        return o instanceof TypeRef<?> other && type.equals(other.type);
    }

    @Override
    public final int hashCode() {
        return type.hashCode();
    }

    @Override
    public String toString() {
        return "TypeRef<" + type.getTypeName() + ">";
    }
}
