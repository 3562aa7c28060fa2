package dev.rein.state;

import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.Optional;

/**
 * Where runs are kept between steps and across processes: snapshots, idempotency records of side
 * effects and (optionally) the trace. Implementations must be thread-safe and must make each
 * write durable before returning, because the executor relies on an intent being on disk before
 * a side effect starts.
 *
 * <p>Rein ships {@link InMemoryRunStore} (this process only) and, in {@code rein-store-jdbc}, a
 * JDBC store for SQLite (the CLI default) and PostgreSQL.
 */
public interface RunStore {
    /**
     * Saves a snapshot. Version 1 creates the run; version {@code n > 1} replaces version
     * {@code n - 1} and nothing else.
     *
     * @throws StoreConflictException when the stored version is not the expected predecessor
     * @throws StoreException         when the write fails
     */
    void save(RunSnapshot snapshot);

    Optional<RunSnapshot> load(String runId);

    /** All runs, most recently updated first. */
    List<RunSummary> list();

    Optional<IdempotencyRecord> idempotency(String key);

    /** Inserts or replaces the record with this key. */
    void putIdempotency(IdempotencyRecord record);

    /** Appends a trace event of a run (events arrive redacted). The default keeps nothing. */
    default void appendEvent(String runId, TraceEvent event) {}

    /** The stored trace events of a run in order; empty when this store keeps no trace. */
    default List<StoredEvent> events(String runId) {
        return List.of();
    }
}
