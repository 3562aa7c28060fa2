package dev.rein.internal.schema;

import java.lang.reflect.Type;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a function gives for each type, remembered per type: a class's in a {@link ClassValue} (tied to the class, so
 * it is dropped with it; threads asking for a class first at the same moment may each compute it, and one value is
 * kept, so the function must give the same for the same type), any other type's (a {@code List<Verdict>} built at run
 * time) in a map of at most {@code capacity} types, computed once per key while it is held, one of them dropped to make
 * room. Each type is computed under its own key only, never under one lock for all: a schema generated for one type no
 * longer held up every other reader. The function must not ask this memo again (a recursive update of the map).
 */
public final class TypeMemo<V> {
    private final Function<Type, V> compute;
    private final int capacity;
    private final ClassValue<Optional<V>> byClass = new ClassValue<>() {
        @Override
        protected Optional<V> computeValue(Class<?> type) {
            return Optional.ofNullable(compute.apply(type));
        }
    };
    private final ConcurrentHashMap<Type, Optional<V>> byType = new ConcurrentHashMap<>();

    /** @param compute the value for a type, or null for none (remembered too) */
    public TypeMemo(int capacity, Function<Type, V> compute) {
        this.capacity = capacity;
        this.compute = compute;
    }

    /** The function's value for {@code type}, computed when it is first asked for (see above for a race on a class). */
    public V get(Type type) {
        if (type instanceof Class<?> raw) {
            return byClass.get(raw).orElse(null);
        }
        Optional<V> known = byType.get(type);
        if (known == null) {
            if (byType.size() >= capacity) { // any one: a type asked for again is computed again, no more
                Iterator<Type> some = byType.keySet().iterator();
                if (some.hasNext()) {
                    byType.remove(some.next());
                }
            }
            known = byType.computeIfAbsent(type, t -> Optional.ofNullable(compute.apply(t)));
        }
        return known.orElse(null);
    }
}
