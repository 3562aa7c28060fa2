package dev.rein.state;

import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.Optional;

/** A store that hands every call to another one: tests override the calls they make fail or watch. */
public class ForwardingRunStore implements RunStore {
    private final RunStore delegate;

    public ForwardingRunStore(RunStore delegate) {
        this.delegate = delegate;
    }

    /** The store the calls go to (to read what was saved, or to resume from it as another process would). */
    public RunStore delegate() {
        return delegate;
    }

    @Override
    public void save(RunSnapshot snapshot) {
        delegate.save(snapshot);
    }

    @Override
    public Optional<RunSnapshot> load(String runId) {
        return delegate.load(runId);
    }

    @Override
    public List<RunSummary> list() {
        return delegate.list();
    }

    @Override
    public Optional<IdempotencyRecord> idempotency(String key) {
        return delegate.idempotency(key);
    }

    @Override
    public void putIdempotency(IdempotencyRecord record) {
        delegate.putIdempotency(record);
    }

    @Override
    public void appendEvent(String runId, TraceEvent event) {
        delegate.appendEvent(runId, event);
    }

    @Override
    public List<StoredEvent> events(String runId) {
        return delegate.events(runId);
    }
}
