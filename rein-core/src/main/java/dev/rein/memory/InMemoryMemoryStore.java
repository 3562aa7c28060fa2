package dev.rein.memory;

import dev.rein.state.StoreException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A {@link MemoryStore} in this process's memory (tests, short-lived agents). Thread-safe. */
public final class InMemoryMemoryStore implements MemoryStore {
    private final Map<String, MemoryEntry> entries = new LinkedHashMap<>();

    @Override
    public synchronized void remember(MemoryEntry entry) {
        MemoryStore.requireArgument(entry, "remember", "entry");
        if (entries.putIfAbsent(entry.id(), entry) != null) {
            throw new StoreException("cannot remember " + entry.id() + " in the in-memory store: memory entry " + entry.id()
                    + " already exists (an entry's id is unique in the store, whatever its tenant and user); give each new"
                    + " entry a new id, such as MemoryStore.newId()");
        }
    }

    @Override
    public synchronized List<MemoryEntry> recall(MemoryScope scope, String query, int limit, Instant now) {
        MemoryStore.requireArgument(scope, "recall", "scope");
        MemoryStore.requireArgument(now, "recall", "now");
        if (limit < 0) {
            throw new IllegalArgumentException("a recall's limit is the most entries to return, 0 or more; was " + limit);
        }
        Set<String> wanted = MemoryTerms.ofQuery(query);
        record Hit(MemoryEntry entry, long score) {}
        List<Hit> hits = new ArrayList<>();
        for (MemoryEntry e : entries.values()) {
            if (e.scope().equals(scope) && e.liveAt(now)) {
                long score = MemoryTerms.of(e.text()).stream().filter(wanted::contains).count();
                if (wanted.isEmpty() || score > 0) {
                    hits.add(new Hit(e, score));
                }
            }
        }
        return hits.stream().sorted(Comparator.comparingLong(Hit::score).reversed()
                        .thenComparing(h -> h.entry().createdAt(), Comparator.reverseOrder()))
                .limit(limit).map(Hit::entry).toList();
    }

    @Override
    public synchronized List<MemoryEntry> list(MemoryScope scope) {
        MemoryStore.requireArgument(scope, "list", "scope");
        return entries.values().stream().filter(e -> e.scope().equals(scope))
                .sorted(Comparator.comparing(MemoryEntry::createdAt).reversed()).toList();
    }

    @Override
    public synchronized boolean forget(MemoryScope scope, String id) {
        MemoryStore.requireArgument(scope, "forget", "scope");
        MemoryStore.requireArgument(id, "forget", "id");
        MemoryEntry e = entries.get(id);
        if (e == null || !e.scope().equals(scope)) {
            return false;
        }
        entries.remove(id);
        return true;
    }
}
