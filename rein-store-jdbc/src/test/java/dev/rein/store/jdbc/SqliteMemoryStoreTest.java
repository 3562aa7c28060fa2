package dev.rein.store.jdbc;

import dev.rein.memory.MemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

class SqliteMemoryStoreTest extends MemoryStoreContract {
    @TempDir
    Path dir;
    private JdbcMemoryStore store;

    @BeforeEach
    void open() {
        store = JdbcMemoryStore.sqlite(dir);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected MemoryStore store() {
        return store;
    }

    @Override
    protected int indexedTerms(String id) {
        return store.termCount(id);
    }
}
