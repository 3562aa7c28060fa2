package dev.rein.memory;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What a memory entry refuses when it is made, so that every store takes the same entries. */
class MemoryEntryTest {
    private static final MemoryScope SCOPE = new MemoryScope("acme", "alice");

    @Test
    void aNulCharacterIsPlacedAsTheLimitsCountCharactersAfterAnEmojiToo() {
        // an emoji is two UTF-16 units and one character as the entry's limits count them
        assertThatThrownBy(() -> new MemoryEntry(MemoryStore.newId(), SCOPE, "🚚\u0000大阪", MemorySource.application("crm"), "alice",
                Instant.EPOCH, null))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("a memory entry's text cannot hold the NUL character (U+0000), at character 1;"
                        + " remember the statement without it");
        assertThatThrownBy(() -> new MemoryEntry("🚚\u0000", SCOPE, "大阪", MemorySource.application("crm"), "alice", Instant.EPOCH, null))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("a memory entry's id cannot hold the NUL character (U+0000), at character 1;"
                        + " give it an id without it, such as MemoryStore.newId()");
    }

    /**
     * Before: an entry, a scope or an injection policy made with a missing or bad part threw a bare NullPointerException
     * ('id') or an IllegalArgumentException, not Rein's ReinException, and some said nothing of what to give.
     */
    @Test
    void everyRefusalIsAReinExceptionSayingWhatToGive() {
        MemorySource src = MemorySource.application("crm");
        Instant at = Instant.EPOCH;
        assertRefused(() -> new MemoryScope(null, "alice"), "a memory scope was given no tenant (null)", "MemoryScope.of(principal)");
        assertRefused(() -> new MemoryScope("acme", null), "a memory scope was given no user (null)", "MemoryScope.of(principal)");
        assertRefused(() -> new MemoryScope(" ", "alice"), "a memory scope's tenant is blank", "MemoryScope.of(principal)");
        assertRefused(() -> new MemoryScope("acme", ""), "a memory scope's user is blank", "MemoryScope.of(principal)");
        assertRefused(() -> new MemoryEntry(null, SCOPE, "大阪", src, "alice", at, null), "a memory entry was given no id (null)",
                "MemoryStore.newId()");
        assertRefused(() -> new MemoryEntry(" ", SCOPE, "大阪", src, "alice", at, null), "a memory entry needs an id", "MemoryStore.newId()");
        assertRefused(() -> new MemoryEntry("mem_1", null, "大阪", src, "alice", at, null), "a memory entry was given no scope (null)",
                "MemoryScope.of(principal)");
        assertRefused(() -> new MemoryEntry("mem_1", SCOPE, null, src, "alice", at, null), "a memory entry was given no text (null)",
                "the statement");
        assertRefused(() -> new MemoryEntry("mem_1", SCOPE, " ", src, "alice", at, null), "a memory entry needs text", "the statement");
        assertRefused(() -> new MemoryEntry("mem_1", SCOPE, "大".repeat(4_001), src, "alice", at, null), "at most 4000 characters",
                "shorter");
        assertRefused(() -> new MemoryEntry("mem_1", SCOPE, "大阪", null, "alice", at, null), "a memory entry was given no source (null)",
                "MemorySource.application");
        assertRefused(() -> new MemoryEntry("mem_1", SCOPE, "大阪", src, null, at, null), "a memory entry was given no createdBy (null)",
                "who wrote it");
        assertRefused(() -> new MemoryEntry("mem_1", SCOPE, "大阪", src, "alice", null, null), "a memory entry was given no createdAt (null)",
                "when it was written");
        assertRefused(() -> new MemoryInjection(null, 5), "MemoryInjection was given no store (null)", "MemoryStore");
        assertRefused(() -> new MemoryInjection(new InMemoryMemoryStore(), 0), "the memory injection limit must be 1 to 20, was 0",
                "most entries");
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable made, String what, String advice) {
        assertThatThrownBy(made).isExactlyInstanceOf(dev.rein.ReinException.class).hasMessageContaining(what).hasMessageContaining(advice);
    }
}
