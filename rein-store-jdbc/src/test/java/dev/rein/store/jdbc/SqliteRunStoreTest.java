package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.state.RunStore;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteRunStoreTest extends RunStoreContract {
    @TempDir
    Path dir;
    private JdbcRunStore store;

    @Override
    protected RunStore store() {
        if (store == null) {
            store = JdbcRunStore.sqlite(dir.resolve("state"));
        }
        return store;
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void theDatabaseFileLivesInTheConfiguredDirectoryAndReopens() {
        store();
        assertThat(dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE)).exists();
        try (JdbcRunStore again = JdbcRunStore.sqlite(dir.resolve("state"))) {
            assertThat(again.list()).isEmpty();
        }
    }
}
