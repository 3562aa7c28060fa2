package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What the stores say of a configuration that cannot work, before any database is asked. */
class StoreConfigurationTest {
    /**
     * Before: a JDBC URL or a directory left unset (an environment variable the deployment lacks, read as null) was a
     * bare NullPointerException ('Cannot invoke "String.startsWith(String)" because "jdbcUrl" is null'), naming neither
     * the store nor what to pass.
     */
    @Test
    void aMissingUrlOrDirectorySaysWhichAndWhatToPass() {
        assertThatThrownBy(() -> JdbcRunStore.connect(null, "rein", "pw")).isInstanceOf(ReinException.class)
                .hasMessageContaining("JdbcRunStore.connect")
                .hasMessageContaining("no JDBC URL (null)")
                .hasMessageContaining("jdbc:postgresql://");
        assertThatThrownBy(() -> JdbcMemoryStore.connect(null, "rein", "pw")).isInstanceOf(ReinException.class)
                .hasMessageContaining("JdbcMemoryStore.connect")
                .hasMessageContaining("no JDBC URL (null)");
        assertThatThrownBy(() -> JdbcRunStore.sqlite((Path) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("JdbcRunStore.sqlite")
                .hasMessageContaining("no directory (null)")
                .hasMessageContaining("JdbcRunStore.defaultDirectory()");
        assertThatThrownBy(() -> JdbcMemoryStore.sqlite((Path) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("JdbcMemoryStore.sqlite")
                .hasMessageContaining("no directory (null)");
    }
}
