package dev.rein.provider;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The wire form of immutable values (history messages, tool definitions), computed once per
 * object and reused by every later request that contains it. Keys are held weakly and compared
 * by identity: identity, because a record's {@code equals}/{@code hashCode} would walk the whole
 * message on every lookup; weakly, so that a message dropped from every history (a finished run,
 * a compacted turn) takes its wire form with it.
 *
 * <p>For provider modules: a {@code Model} converts each history message and tool definition to
 * its wire form through one of these, so a request costs work for what is new since the last one,
 * not for the whole history. Thread-safe; a value may be computed twice under a race, never wrong.
 *
 * @param <K> the immutable value (held weakly, compared by identity)
 * @param <V> its wire form
 */
public final class WireCache<K, V> {
    private final Map<Object, V> entries = new ConcurrentHashMap<>();
    private final ReferenceQueue<K> collected = new ReferenceQueue<>();

    /** Creates an empty cache. */
    public WireCache() {}

    /** The wire form of {@code key}: the one computed before for this very object, else {@code compute}'s. */
    public V get(K key, Function<K, V> compute) {
        V value = entries.get(new Probe(key));
        if (value == null) {
            expunge();
            value = compute.apply(key);
            entries.put(new Ref<>(key, collected), value);
        }
        return value;
    }

    /** How many objects have a wire form here now (collected keys are dropped first). */
    public int size() {
        expunge();
        return entries.size();
    }

    private void expunge() {
        for (Object ref; (ref = collected.poll()) != null; ) {
            entries.remove(ref);
        }
    }

    /** The stored key: weak, identity hash kept so it can be removed after collection. */
    private static final class Ref<K> extends WeakReference<K> {
        private final int hash;

        Ref(K key, ReferenceQueue<K> queue) {
            super(key, queue);
            this.hash = System.identityHashCode(key);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            if (this == other) {
                return true;
            }
            Object mine = get();
            return mine != null && (other instanceof Ref<?> r ? r.get() == mine : other instanceof Probe p && p.key == mine);
        }
    }

    /** A lookup key that allocates no reference. */
    private record Probe(Object key) {
        @Override
        public int hashCode() {
            return System.identityHashCode(key);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Ref<?> r ? r.get() == key : other instanceof Probe p && p.key == key;
        }
    }
}
