package dev.rein.temporal.internal;

import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.RunSummary;
import java.util.List;
import java.util.Optional;

/**
 * The store a worker's activities use: on Temporal the workflow history is the run's record, so
 * checkpoints and events are not kept here; idempotency records go to the agent's own store (share
 * one, e.g. rein-store-jdbc, between workers so a completed call is not delivered again).
 */
public final class HistoryStore implements RunStore {
    private final RunStore idempotency;

    public HistoryStore(RunStore idempotency) {
        this.idempotency = idempotency;
    }

    @Override
    public void save(RunSnapshot snapshot) {
        // the workflow holds the snapshot
    }

    @Override
    public Optional<RunSnapshot> load(String runId) {
        return Optional.empty();
    }

    @Override
    public List<RunSummary> list() {
        return List.of();
    }

    @Override
    public Optional<IdempotencyRecord> idempotency(String key) {
        return idempotency.idempotency(key);
    }

    @Override
    public void putIdempotency(IdempotencyRecord record) {
        idempotency.putIdempotency(record);
    }
}
