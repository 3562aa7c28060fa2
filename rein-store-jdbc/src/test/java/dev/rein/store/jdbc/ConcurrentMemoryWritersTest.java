package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryScope;
import dev.rein.memory.MemorySource;
import dev.rein.memory.MemoryStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several writers on one SQLite file at once, each with a store of its own (as the CLI's parallel
 * tool calls and a second process are): a new file is created once, and no remember or forget is lost.
 */
class ConcurrentMemoryWritersTest {
    @RepeatedTest(10) // the race of opening a new file failed about one repetition in six
    void writersWithAStoreEachLoseNothingOnANewFile(@TempDir Path dir) throws Exception {
        MemoryScope scope = new MemoryScope("acme", "alice");
        int writers = 6;
        int each = 20;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < each; i++) {
                    try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(dir)) {
                        String id = MemoryStore.newId();
                        store.remember(new MemoryEntry(id, scope, "note " + writer + " " + i + " 配送は大阪",
                                MemorySource.application("test"), "alice", Instant.now(), null));
                        if (i % 2 == 1) {
                            assertThat(store.forget(scope, id)).isTrue();
                        }
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        try (JdbcMemoryStore store = JdbcMemoryStore.sqlite(dir)) {
            assertThat(store.list(scope)).hasSize(writers * each / 2);
            assertThat(store.recall(scope, "大阪", 20, Instant.now())).hasSize(20);
        }
    }
}
