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
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a memory entry's text cannot hold the NUL character (U+0000), at character 1;"
                        + " remember the statement without it");
        assertThatThrownBy(() -> new MemoryEntry("🚚\u0000", SCOPE, "大阪", MemorySource.application("crm"), "alice", Instant.EPOCH, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a memory entry's id cannot hold the NUL character (U+0000), at character 1;"
                        + " give it an id without it, such as MemoryStore.newId()");
    }
}
