package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A Principal is made by application code: a missing part is a ReinException saying what to pass (a bare NullPointerException before). */
class PrincipalTest {
    @Test
    void aMissingPartIsRefusedSayingWhatToPass() {
        assertThatThrownBy(() -> new Principal(null, "acme", Set.of())).isInstanceOf(ReinException.class)
                .hasMessageContaining("user").hasMessageContaining("pass");
        assertThatThrownBy(() -> new Principal("alice", null, Set.of())).isInstanceOf(ReinException.class)
                .hasMessageContaining("tenant").hasMessageContaining("pass");
        assertThatThrownBy(() -> new Principal("alice", "acme", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("scopes").hasMessageContaining("Set.of()");
        assertThatThrownBy(() -> new Principal("alice", "acme", new HashSet<>(Arrays.asList("orders:read", null))))
                .isInstanceOf(ReinException.class).hasMessageContaining("scopes").hasMessageContaining("null");
    }

    @Test
    void japaneseNamesAndScopesPassIntact() {
        Principal p = new Principal("山田", "テナント", Set.of("注文:読む"));
        assertThat(p.user()).isEqualTo("山田");
        assertThat(p.hasScope("注文:読む")).isTrue();
    }
}
