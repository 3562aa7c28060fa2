package dev.rein.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunStore;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** MemoryTools.of given null (the memory store, the run store or a look-up) is a ReinException saying what to pass (a bare NullPointerException before). */
class MemoryToolsArgumentsTest {
    @Test
    void nullIsRefusedSayingWhatToPass() {
        MemoryStore memory = new InMemoryMemoryStore();
        assertThatThrownBy(() -> MemoryTools.of(null, new InMemoryRunStore())).isInstanceOf(ReinException.class)
                .hasMessageContaining("memory").hasMessageContaining("InMemoryMemoryStore");
        assertThatThrownBy(() -> MemoryTools.of(memory, (RunStore) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("run store");
        assertThatThrownBy(() -> MemoryTools.of(memory, (java.util.function.Function<String, Optional<dev.rein.state.RunSnapshot>>) null))
                .isInstanceOf(ReinException.class).hasMessageContaining("runs");
        assertThatThrownBy(() -> MemoryTools.of(memory, id -> Optional.empty(), null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("idempotency");
        assertThat(MemoryTools.of(memory, new InMemoryRunStore()).all()).hasSize(3);
    }
}
