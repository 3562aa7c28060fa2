package dev.rein.cli;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryScope;
import dev.rein.memory.MemoryStore;
import dev.rein.state.RunSnapshot;
import dev.rein.store.jdbc.JdbcMemoryStore;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.tool.Principal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The CLI's long-term memory: {@link JdbcMemoryStore} in the SQLite database of the CLI home, opened
 * for each operation so that no connection outlives a tool call. CLI runs act as
 * {@link Principal#ANONYMOUS} (tenant {@code default}, user {@code anonymous}) unless told otherwise.
 */
final class CliMemory implements MemoryStore {
    static final MemoryScope DEFAULT_SCOPE = MemoryScope.of(Principal.ANONYMOUS);
    private final Path directory;

    CliMemory(Path directory) {
        this.directory = directory;
    }

    /** A stored run, for the provenance {@code remember} records. */
    Optional<RunSnapshot> run(String runId) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(directory)) {
            return store.load(runId);
        }
    }

    /** The idempotency record of a call's key, where {@code forget} finds that it was delivered again after a crash. */
    Optional<dev.rein.state.IdempotencyRecord> idempotency(String key) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(directory)) {
            return store.idempotency(key);
        }
    }

    @Override
    public void remember(MemoryEntry entry) {
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(directory)) {
            store.remember(entry);
        }
    }

    @Override
    public List<MemoryEntry> recall(MemoryScope scope, String query, int limit, Instant now) {
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(directory)) {
            return store.recall(scope, query, limit, now);
        }
    }

    @Override
    public List<MemoryEntry> list(MemoryScope scope) {
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(directory)) {
            return store.list(scope);
        }
    }

    /** The entries, each row that cannot be read (edited outside Rein) left out and said to {@code unlisted}. */
    List<MemoryEntry> list(MemoryScope scope, java.util.function.Consumer<String> unlisted) {
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(directory)) {
            return store.list(scope, unlisted);
        }
    }

    @Override
    public boolean forget(MemoryScope scope, String id) {
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(directory)) {
            return store.forget(scope, id);
        }
    }
}
