package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.state.StoreException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /**
     * Before: a SQLite URL in a directory that does not exist (connect does not create it, where sqlite(dir) does) said
     * "the path is a directory, or this user may not read or write it or its directory", none of which was the case.
     */
    @Test
    void aSqliteUrlInADirectoryThatDoesNotExistSaysSoAndWhatToDo(@TempDir Path dir) {
        Path missing = dir.resolve("missing");
        String url = "jdbc:sqlite:" + missing.resolve(JdbcRunStore.SQLITE_FILE);
        assertThatThrownBy(() -> JdbcRunStore.connect(url, null, null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("the directory " + missing + " does not exist")
                .hasMessageContaining("JdbcRunStore.sqlite(directory)")
                .hasMessageNotContaining("the path is a directory");
        assertThatThrownBy(() -> JdbcMemoryStore.connect(url, null, null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("the directory " + missing + " does not exist");
        assertThatThrownBy(() -> JdbcRunStore.connect("jdbc:sqlite:file:" + missing.resolve(JdbcRunStore.SQLITE_FILE)
                + "?mode=rwc", null, null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("the directory " + missing + " does not exist");
    }

    /**
     * Before: a PostgreSQL URL with a host name that does not resolve (a typo, a service name of another network) said
     * only the driver's "The connection attempt failed.", whose cause (java.net.UnknownHostException) named the host.
     */
    @Test
    void aPostgresHostThatIsNotKnownIsNamed() {
        String url = "jdbc:postgresql://rein-db.invalid:5432/rein?connectTimeout=5";
        assertThatThrownBy(() -> JdbcRunStore.connect(url, "rein", null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("The connection attempt failed")
                .hasMessageContaining("the host rein-db.invalid is not known")
                .hasMessageContaining("check the host name in the URL");
        assertThatThrownBy(() -> JdbcMemoryStore.connect(url, "rein", null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("the host rein-db.invalid is not known");
    }
    /**
     * Before: a SQLite database that lives only in its connection (jdbc:sqlite::memory:, jdbc:sqlite: with no file, a
     * mode=memory URI) was taken, but the stores close their connection on a failure and open a new one for the next
     * call: one refused remember (an id the store held) lost every entry, and every later call said the table "was dropped
     * or renamed". Now such a URL is refused when the store is opened, saying to use the in-memory store or a file.
     */
    @Test
    void aSqliteDatabaseThatLivesOnlyInItsConnectionIsRefusedSayingWhatToUse() {
        for (String url : java.util.List.of("jdbc:sqlite::memory:", "jdbc:sqlite:", "jdbc:sqlite:file::memory:?cache=shared",
                "jdbc:sqlite:file:rein?mode=memory&cache=shared")) {
            assertThatThrownBy(() -> JdbcMemoryStore.connect(url, null, null)).as(url).isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("JdbcMemoryStore.connect was given " + url + ", a SQLite database that lives only in"
                            + " its connection")
                    .hasMessageContaining("InMemoryMemoryStore")
                    .hasMessageContaining("JdbcMemoryStore.sqlite(directory)");
            assertThatThrownBy(() -> JdbcRunStore.connect(url, null, null)).as(url).isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("JdbcRunStore.connect was given " + url + ", a SQLite database that lives only in"
                            + " its connection")
                    .hasMessageContaining("InMemoryRunStore");
        }
    }
}
