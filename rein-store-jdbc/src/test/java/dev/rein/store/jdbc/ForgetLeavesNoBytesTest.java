package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryScope;
import dev.rein.memory.MemorySource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MemoryStore.forget: "personal data does not linger", not even in the SQLite file's free pages. */
class ForgetLeavesNoBytesTest {
    @TempDir
    Path dir;

    @Test
    void aForgottenEntrysTextIsNotLeftInTheDatabaseFiles() throws Exception {
        MemoryScope scope = new MemoryScope("acme", "alice");
        String secret = "alice's phone is 090-1234-5678 zqxjv";
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(dir)) {
            store.remember(new MemoryEntry("mem_phone", scope, secret, MemorySource.application("crm"), "alice", Instant.now(), null));
            store.remember(new MemoryEntry("mem_other", scope, "alice prefers email", MemorySource.application("crm"), "alice",
                    Instant.now(), null));
            assertThat(store.forget(scope, "mem_phone")).isTrue();
            assertThat(store.list(scope)).extracting(MemoryEntry::id).containsExactly("mem_other");
            assertNoTrace("while the store is open");
        }
        assertNoTrace("after it is closed");
    }

    /**
     * Before: a forget while another connection was only reading (rein memory list in another terminal, a backup)
     * took the whole 10 s busy timeout: its delete was committed at once (in WAL mode readers do not block
     * writers), but the checkpoint that empties the log waited for the reader to end.
     */
    @Test
    void aForgetWhileAnotherConnectionReadsIsNotHeldUpAndTheLogIsEmptiedOnceItEnds() throws Exception {
        MemoryScope scope = new MemoryScope("acme", "alice");
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(dir)) {
            store.remember(new MemoryEntry("mem_phone", scope, "alice's phone is 090-1234-5678 zqxjv", MemorySource.application("crm"),
                    "alice", Instant.now(), null));
            store.remember(new MemoryEntry("mem_other", scope, "alice prefers email", MemorySource.application("crm"), "alice",
                    Instant.now(), null));
            try (java.sql.Connection reader = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(JdbcRunStore.SQLITE_FILE))) {
                reader.setAutoCommit(false);
                try (var rs = reader.createStatement().executeQuery("SELECT COUNT(*) FROM rein_memory")) {
                    assertThat(rs.next()).isTrue(); // the reader's transaction keeps its snapshot until it ends
                }
                long start = System.nanoTime();
                assertThat(store.forget(scope, "mem_phone")).isTrue();
                assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).as("the forget's time").isLessThan(java.time.Duration.ofSeconds(3));
                assertThat(store.list(scope)).extracting(MemoryEntry::id).containsExactly("mem_other");
                reader.rollback();
            }
            assertThat(store.forget(scope, "mem_other")).isTrue();
            assertNoTrace("once the reader is done and the next forget was made");
        }
        assertNoTrace("after it is closed");
    }

    private void assertNoTrace(String when) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                assertThat(bytes).as(f.getFileName() + " " + when).doesNotContain("090-1234-5678").doesNotContain("zqxjv");
            }
        }
    }
}
