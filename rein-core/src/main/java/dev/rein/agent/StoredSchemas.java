package dev.rein.agent;

import dev.rein.state.RunSnapshot;
import dev.rein.state.StoredOutputSchema;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stored output schemas of the runs a {@link DrivenRun} continues, one instance each, so that each is compiled
 * once: a driven run is rebuilt for every effect from a snapshot read back from the store, each with a
 * {@link StoredOutputSchema} of its own, and an agent with no schema of its own compiled the stored one every time
 * (about 1.5 ms an effect; {@link StoredOutputSchema#outputSchema()} keeps what it compiled). Keyed by the stored form
 * (its JSON, whatever instance holds it), at most {@link #MAX}, the least recently used dropped. A stored schema this
 * Rein cannot use keeps nothing compiled and is refused again, saying why, each time, as before.
 */
final class StoredSchemas {
    /** How many stored schemas a driver keeps: far more than a queue's agent has runs of different shapes. */
    static final int MAX = 64;

    private final Map<StoredOutputSchema, StoredOutputSchema> kept = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<StoredOutputSchema, StoredOutputSchema> eldest) {
            return size() > MAX;
        }
    };

    /** {@code snapshot} holding the instance of its stored schema this driver has seen first (as it is when untyped). */
    RunSnapshot shared(RunSnapshot snapshot) {
        StoredOutputSchema stored = snapshot.outputSchema();
        if (stored == null) {
            return snapshot;
        }
        StoredOutputSchema first;
        synchronized (kept) { // the effects of a worker's runs run on its activity threads at once
            first = kept.putIfAbsent(stored, stored);
        }
        if (first == null || first == stored) {
            return snapshot;
        }
        RunSnapshot s = snapshot;
        return new RunSnapshot(s.format(), s.runId(), s.version(), s.goal(), s.model(), s.status(), s.reason(), s.message(),
                s.answer(), s.createdAt(), s.updatedAt(), s.activeMillis(), s.principal(), s.history(), s.steps(), s.usage(),
                s.costUsd(), s.verificationFailures(), s.toolCallCounts(), s.state(), s.approvals(), s.finish(),
                s.conversation(), s.secretsHandedOut(), s.criticRounds(), first);
    }
}
