package dev.rein.state;

import dev.rein.ReinException;
import dev.rein.run.RunStatus;
import dev.rein.trace.TraceEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A run store for one process, and the default of an agent that configures none: paused runs can
 * be approved and resumed while the process lives.
 *
 * <p><b>Bounded.</b> A long-lived agent must not grow with the number of runs it has made, so only
 * the {@linkplain #DEFAULT_FINISHED_RUNS_KEPT most recent finished runs} are kept (snapshot, trace
 * and idempotency records); older finished runs are evicted. Runs that are still running or waiting
 * for approval (a finished run continued by a reply among them) are never evicted, so memory is bounded by the runs in progress or paused at the same
 * time plus the finished window. Use a persistent store ({@code rein-store-jdbc}) to keep every run.
 *
 * <p><b>Cheap per step.</b> The snapshot of a running run is kept as the immutable object it is (the
 * loop replaces it every step). A paused run is kept as JSON, exactly as a database store keeps it,
 * so that approving and resuming read back what a real store would give. Trace events are kept as
 * objects and turned into JSON only when they are read.
 */
public final class InMemoryRunStore implements RunStore {
    /** Finished runs kept by {@link #InMemoryRunStore()}. */
    public static final int DEFAULT_FINISHED_RUNS_KEPT = 32;

    private static final int EVICTED_REMEMBERED = 1024;

    private final int finishedRunsKept;
    private final Map<String, Entry> runs = new ConcurrentHashMap<>();
    private final Map<String, String> idempotency = new ConcurrentHashMap<>();
    private final Deque<String> finished = new ArrayDeque<>();
    private final AtomicLong eventSeq = new AtomicLong();
    /** Recently evicted runs, so that a trace event arriving after the end does not bring one back. */
    private final Set<String> evicted = new HashSet<>();
    /**
     * {@link #evicted} in the order they were evicted, oldest first. Not a {@code LinkedHashSet}: its
     * entries reach {@code HashMap.removeNode} as a subclass the JIT's shared profile of that method
     * rarely sees, and the compiled loop was thrown away and rebuilt at each such removal (measured).
     */
    private final Deque<String> evictionOrder = new ArrayDeque<>();

    /** A store that keeps the {@value #DEFAULT_FINISHED_RUNS_KEPT} most recent finished runs. */
    public InMemoryRunStore() {
        this(DEFAULT_FINISHED_RUNS_KEPT);
    }

    /**
     * A store that keeps the {@code finishedRunsKept} most recent finished runs (0: a run is
     * forgotten as soon as it ends).
     *
     * @throws ReinException if {@code finishedRunsKept} is negative, saying what to pass
     */
    public InMemoryRunStore(int finishedRunsKept) {
        if (finishedRunsKept < 0) {
            throw new ReinException("new InMemoryRunStore(finishedRunsKept) was given " + finishedRunsKept + ": pass how many"
                    + " finished runs to keep, 0 or more (0 forgets a run as soon as it ends; new InMemoryRunStore() keeps "
                    + DEFAULT_FINISHED_RUNS_KEPT + ")");
        }
        this.finishedRunsKept = finishedRunsKept;
    }

    /** One run: its latest snapshot (object or JSON), its trace and its idempotency keys. */
    private static final class Entry {
        long version;
        RunSnapshot snapshot;
        String json;
        final List<Object[]> events = new ArrayList<>();
        final Set<String> idempotencyKeys = new HashSet<>();

        /** Whether the latest snapshot has ended the run (a paused run is kept as JSON, and is not). */
        boolean finished() {
            return snapshot != null && snapshot.status().terminal();
        }
    }

    @Override
    public void save(RunSnapshot snapshot) {
        boolean continued;
        while (true) {
            Entry entry = runs.computeIfAbsent(snapshot.runId(), id -> new Entry());
            synchronized (entry) {
                if (runs.get(snapshot.runId()) != entry) {
                    continue; // evicted a moment ago: saved as the store now holds it (not at all)
                }
                if (snapshot.version() != entry.version + 1) {
                    throw new StoreConflictException("run " + snapshot.runId() + " is at version " + entry.version
                            + " in the store, but version " + snapshot.version() + " was about to replace version "
                            + (snapshot.version() - 1) + ": it was changed elsewhere since it was loaded");
                }
                continued = entry.finished() && !snapshot.status().terminal();
                boolean paused = snapshot.status() == RunStatus.WAITING_APPROVAL;
                entry.json = paused ? SnapshotCodec.write(snapshot) : null;
                entry.snapshot = paused ? null : snapshot;
                entry.version = snapshot.version();
                break;
            }
        }
        if (continued) {
            // a finished run continued by a reply runs (or waits) again: no longer among the finished ones to evict
            synchronized (finished) {
                finished.remove(snapshot.runId());
            }
        }
        if (snapshot.status().terminal()) {
            finished(snapshot.runId());
        }
    }

    private void finished(String runId) {
        List<String> gone = new ArrayList<>();
        synchronized (finished) {
            finished.remove(runId);
            finished.addLast(runId);
            while (finished.size() > finishedRunsKept) {
                String id = finished.removeFirst();
                gone.add(id);
                if (evicted.add(id)) {
                    evictionOrder.addLast(id);
                }
                if (evictionOrder.size() > EVICTED_REMEMBERED) {
                    evicted.remove(evictionOrder.removeFirst());
                }
            }
        }
        for (String id : gone) {
            Entry entry = runs.get(id);
            if (entry != null) {
                synchronized (entry) {
                    if (!entry.finished()) {
                        continue; // continued by a reply since it was picked: kept until it ends again
                    }
                    runs.remove(id, entry);
                    entry.idempotencyKeys.forEach(idempotency::remove);
                }
            }
        }
    }

    @Override
    public Optional<RunSnapshot> load(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            return Optional.empty();
        }
        synchronized (entry) {
            if (entry.json != null) {
                return Optional.of(SnapshotCodec.readSnapshot(entry.json));
            }
            return Optional.ofNullable(entry.snapshot);
        }
    }

    @Override
    public List<RunSummary> list() {
        return runs.keySet().stream().map(this::load).flatMap(Optional::stream).map(RunSnapshot::summary)
                .sorted(Comparator.comparing(RunSummary::updatedAt, Comparator.nullsLast(Comparator.reverseOrder())))
                .toList();
    }

    @Override
    public Optional<IdempotencyRecord> idempotency(String key) {
        return Optional.ofNullable(idempotency.get(key)).map(SnapshotCodec::readIdempotency);
    }

    @Override
    public void putIdempotency(IdempotencyRecord record) {
        Entry entry = entry(record.runId());
        if (entry == null) {
            return;
        }
        synchronized (entry) {
            entry.idempotencyKeys.add(record.key());
            idempotency.put(record.key(), SnapshotCodec.write(record));
        }
    }

    @Override
    public void appendEvent(String runId, TraceEvent event) {
        Entry entry = entry(runId);
        if (entry == null) {
            return;
        }
        synchronized (entry) {
            entry.events.add(new Object[] {eventSeq.incrementAndGet(), event});
        }
    }

    /** The run's entry, created on first use; null for a run evicted a moment ago. */
    private Entry entry(String runId) {
        Entry entry = runs.get(runId);
        if (entry != null) {
            return entry;
        }
        synchronized (finished) {
            if (evicted.contains(runId)) {
                return null;
            }
        }
        return runs.computeIfAbsent(runId, id -> new Entry());
    }

    @Override
    public List<StoredEvent> events(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            return new ArrayList<>();
        }
        List<Object[]> copy;
        synchronized (entry) {
            copy = new ArrayList<>(entry.events);
        }
        List<StoredEvent> events = new ArrayList<>(copy.size());
        for (Object[] e : copy) {
            events.add(SnapshotCodec.event((Long) e[0], (TraceEvent) e[1]));
        }
        return events;
    }

    /** Runs currently held (in progress, paused, or among the recent finished ones); for tests and monitoring. */
    public int size() {
        return runs.size();
    }
}
