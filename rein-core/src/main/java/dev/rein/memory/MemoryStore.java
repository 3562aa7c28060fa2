package dev.rein.memory;

import java.time.Instant;
import java.util.List;

/**
 * Long-term memory per tenant and user, kept apart from runs and from retrieved documents. Written
 * only by application code or the explicit {@code remember} tool (see {@link MemoryTools}), never
 * from chat on its own. Every method takes a {@link MemoryScope}; no method reads or changes
 * another scope's entries. Implementations: {@link InMemoryMemoryStore}, and {@code JdbcMemoryStore}
 * (SQLite, PostgreSQL) in {@code rein-store-jdbc}.
 */
public interface MemoryStore {
    /** Stores a new entry (its id must be new). */
    void remember(MemoryEntry entry);

    /**
     * The live entries of {@code scope} that share words with {@code query}, best match first, at
     * most {@code limit}; a blank query recalls the newest entries.
     *
     * @throws IllegalArgumentException when {@code limit} is negative
     */
    List<MemoryEntry> recall(MemoryScope scope, String query, int limit, Instant now);

    /** Every entry of {@code scope} (expired ones too), newest first. */
    List<MemoryEntry> list(MemoryScope scope);

    /**
     * Deletes the entry for real (the row and its search terms): personal data does not linger.
     *
     * @return whether {@code scope} had an entry with this id
     */
    boolean forget(MemoryScope scope, String id);

    /** A new entry id. */
    static String newId() {
        return "mem_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }
}
