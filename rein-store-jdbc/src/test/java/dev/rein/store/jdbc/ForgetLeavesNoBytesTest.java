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

    private void assertNoTrace(String when) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                assertThat(bytes).as(f.getFileName() + " " + when).doesNotContain("090-1234-5678").doesNotContain("zqxjv");
            }
        }
    }
}
