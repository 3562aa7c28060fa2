package dev.rein.state;

import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A run store for one process: paused runs can be approved and resumed while the process lives.
 * Snapshots are kept as JSON, exactly as a database store keeps them, so what works here survives
 * a real store too. The default store of an agent that configures none.
 */
public final class InMemoryRunStore implements RunStore {
    private final Map<String, String> snapshots = new ConcurrentHashMap<>();
    private final Map<String, Long> versions = new ConcurrentHashMap<>();
    private final Map<String, String> idempotency = new ConcurrentHashMap<>();
    private final List<StoredEvent> events = new ArrayList<>();

    @Override
    public synchronized void save(RunSnapshot snapshot) {
        long storedVersion = versions.getOrDefault(snapshot.runId(), 0L);
        if (snapshot.version() != storedVersion + 1) {
            throw new StoreConflictException("run " + snapshot.runId() + " is at version " + storedVersion
                    + " in the store, but version " + snapshot.version() + " was about to replace version "
                    + (snapshot.version() - 1) + ": it was changed elsewhere since it was loaded");
        }
        snapshots.put(snapshot.runId(), SnapshotCodec.write(snapshot));
        versions.put(snapshot.runId(), snapshot.version());
    }

    @Override
    public Optional<RunSnapshot> load(String runId) {
        return Optional.ofNullable(snapshots.get(runId)).map(SnapshotCodec::readSnapshot);
    }

    @Override
    public List<RunSummary> list() {
        return snapshots.values().stream().map(SnapshotCodec::readSnapshot).map(RunSnapshot::summary)
                .sorted(Comparator.comparing(RunSummary::updatedAt, Comparator.nullsLast(Comparator.reverseOrder())))
                .toList();
    }

    @Override
    public Optional<IdempotencyRecord> idempotency(String key) {
        return Optional.ofNullable(idempotency.get(key)).map(SnapshotCodec::readIdempotency);
    }

    @Override
    public void putIdempotency(IdempotencyRecord record) {
        idempotency.put(record.key(), SnapshotCodec.write(record));
    }

    @Override
    public synchronized void appendEvent(String runId, TraceEvent event) {
        events.add(SnapshotCodec.event(events.size() + 1L, event));
    }

    @Override
    public synchronized List<StoredEvent> events(String runId) {
        return new ArrayList<>(events.stream().filter(e -> e.runId().equals(runId)).toList());
    }
}
