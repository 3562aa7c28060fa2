package dev.rein.agent;

import dev.rein.json.Json;
import dev.rein.state.RunSnapshot;
import dev.rein.state.StoredOutputSchema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stored output schemas of the runs a {@link DrivenRun} continues, one instance each, so that each is compiled
 * once: a driven run is rebuilt for every effect from a snapshot read back from the store, each with a
 * {@link StoredOutputSchema} of its own, and an agent with no schema of its own compiled the stored one every time
 * (about 1.5 ms an effect; {@link StoredOutputSchema#outputSchema()} keeps what it compiled). Keyed by the stored
 * text, whatever instance holds it (not by JSON equality, which ignores the order of properties: a run is continued,
 * and written back, with its schema as it stored it), at most {@link #MAX}, the least recently used dropped. A stored
 * schema this Rein cannot use keeps nothing compiled and is refused again, saying why, each time, as before.
 */
final class StoredSchemas {
    /** How many stored schemas a driver keeps: far more than a queue's agent has runs of different shapes. */
    static final int MAX = 64;

    private final Map<String, StoredOutputSchema> kept = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, StoredOutputSchema> eldest) {
            return size() > MAX;
        }
    };

    /** {@code snapshot} holding the instance of its stored schema this driver has seen first (as it is when untyped). */
    RunSnapshot shared(RunSnapshot snapshot) {
        StoredOutputSchema stored = snapshot.outputSchema();
        if (stored == null) {
            return snapshot;
        }
        String text = Json.write(stored.json());
        StoredOutputSchema first;
        synchronized (kept) { // the effects of a worker's runs run on its activity threads at once
            first = kept.putIfAbsent(text, stored);
        }
        if (first == null || first == stored) {
            return snapshot;
        }
        return snapshot.withOutputSchema(first);
    }

    /** How many stored schemas are kept (for tests). */
    int size() {
        synchronized (kept) {
            return kept.size();
        }
    }
}
