package dev.rein.model;

import dev.rein.ReinException;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;

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
        if (getClass().getSuperclass() != TypeRef.class && getClass().getSuperclass() != null) {
            // a subclass of a subclass: its own type argument is one level further up, where it is a type variable
            throw new ReinException("a TypeRef must extend TypeRef directly, as an anonymous subclass: " + getClass().getName()
                    + " extends " + getClass().getSuperclass().getName() + "; extend TypeRef directly, e.g. new"
                    + " TypeRef<List<Verdict>>() {}");
        }
        if (!(superclass instanceof ParameterizedType parameterized)) {
            throw new ReinException("a TypeRef was created without its type argument: write the type it holds, as an"
                    + " anonymous subclass, e.g. new TypeRef<List<Verdict>>() {}");
        }
        this.type = parameterized.getActualTypeArguments()[0];
        String variable = variableIn(type);
        if (variable != null) {
            // Java erases it: the answer would be read as its bound (Object, so maps), not as what the caller meant
            throw new ReinException("a TypeRef holds the type variable " + variable + (type instanceof TypeVariable<?> ? ""
                    : " (in " + nameOf(type) + ")") + ", which is not known at run time: write the concrete type, e.g. new"
                    + " TypeRef<List<Verdict>>() {}");
        }
    }

    /** The name of a type variable anywhere in {@code type} (a type argument, an array's component, a bound), or null. */
    private static String variableIn(Type type) {
        if (type instanceof TypeVariable<?> variable) {
            return variable.getName();
        }
        java.util.List<Type> inner = new java.util.ArrayList<>();
        if (type instanceof ParameterizedType p) {
            inner.addAll(java.util.Arrays.asList(p.getActualTypeArguments()));
            if (p.getOwnerType() != null) {
                inner.add(p.getOwnerType());
            }
        } else if (type instanceof GenericArrayType a) {
            inner.add(a.getGenericComponentType());
        } else if (type instanceof WildcardType w) {
            inner.addAll(java.util.Arrays.asList(w.getUpperBounds()));
            inner.addAll(java.util.Arrays.asList(w.getLowerBounds()));
        }
        for (Type t : inner) {
            String found = variableIn(t);
            if (found != null) {
                return found;
            }
        }
        return null;
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
        if (type instanceof GenericArrayType a) {
            return nameOf(a.getGenericComponentType()) + "[]";
        }
        if (type instanceof WildcardType w) { // with simple names, as the rest: "? extends Verdict"
            return w.getLowerBounds().length > 0 ? "? super " + nameOf(w.getLowerBounds()[0])
                    : w.getUpperBounds().length == 0 || w.getUpperBounds()[0] == Object.class ? "?"
                    : "? extends " + nameOf(w.getUpperBounds()[0]);
        }
        return type.getTypeName(); // a type variable: its name
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
