package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.memory.MemoryStore;
import dev.rein.state.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteMemoryStoreTest extends JdbcMemoryStoreContract {
    @TempDir
    Path dir;
    private JdbcMemoryStore store;

    @BeforeEach
    void open() {
        store = JdbcMemoryStore.sqlite(dir);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected MemoryStore store() {
        return store;
    }

    @Override
    protected int indexedTerms(String id) {
        return store.termCount(id);
    }

    @Override
    protected java.sql.Connection otherConnection() throws java.sql.SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(JdbcRunStore.SQLITE_FILE));
    }

    /**
     * Before: a database holding a table of its own named rein_memory (another program's, other columns) failed the
     * store's opening with SQLite's words alone, "no such column: tenant", which says nothing of whose table it is or
     * what to do. It now says a table of that name is there and is not Rein's, and what to do; the table is left as it was.
     */
    @Test
    void aTableOfAnotherProgramWithTheNameOfReinsIsNamedWithWhatToDoAndLeftAsItWas() throws Exception {
        Path other = dir.resolve("other");
        Files.createDirectories(other);
        String url = "jdbc:sqlite:" + other.resolve(JdbcRunStore.SQLITE_FILE).toAbsolutePath();
        try (var c = DriverManager.getConnection(url); var st = c.createStatement()) {
            st.execute("CREATE TABLE rein_memory (id INTEGER PRIMARY KEY, title TEXT)");
            st.execute("INSERT INTO rein_memory (title) VALUES ('買い物リスト')");
        }
        assertThatThrownBy(() -> JdbcMemoryStore.sqlite(other)).isInstanceOf(StoreException.class)
                .hasMessage("cannot prepare its tables in the memory store at " + url + ": the table rein_memory there is not"
                        + " Rein's (it has no column tenant, principal, text, source_run, source_observation, source, created_by,"
                        + " created_at, expires_at): another program's table has the name Rein's memory store uses; rename that"
                        + " table, or keep Rein's tables in a database of their own (on PostgreSQL, a schema of their own:"
                        + " currentSchema=rein in the URL)");
        try (var c = DriverManager.getConnection(url); var st = c.createStatement();
             var rs = st.executeQuery("SELECT title FROM rein_memory")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).as("the other program's row is as it was").isEqualTo("買い物リスト");
            assertThat(rs.next()).isFalse();
        }
    }

    /**
     * Before: a store used after its close() opened a new connection for the call, which nothing then closed. It now
     * refuses every call saying the store was closed and what to do; a connection the store itself closed after a
     * failure (a duplicate id) is not such a close.
     */
    @Test
    void aStoreUsedAfterItsCloseSaysSoAndOpensNoConnection() throws Exception {
        String id = MemoryStore.newId();
        store.remember(entry(id, ACME, "配送先は大阪", null));
        assertThatThrownBy(() -> store.remember(entry(id, ACME, "配送先は東京", null))).hasMessageContaining("already exists");
        assertThat(store.list(ACME)).as("a connection the store closed after a failure is opened again").hasSize(1);

        store.close();
        store.close(); // a second close is no failure
        String closed = "the store was closed (its close() was called); open it again (JdbcMemoryStore.sqlite(directory) or"
                + " JdbcMemoryStore.connect(url, user, password)) to use it";
        assertThatThrownBy(() -> store.list(ACME)).isInstanceOf(StoreException.class)
                .hasMessage("cannot list the memory of alice in the memory store at jdbc:sqlite:"
                        + dir.resolve(JdbcRunStore.SQLITE_FILE).toAbsolutePath() + ": " + closed);
        assertThatThrownBy(() -> store.recall(ACME, "大阪", 5, NOW)).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.remember(entry(MemoryStore.newId(), ACME, "配送先は名古屋", null)))
                .isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.forget(ACME, id)).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.termCount(id)).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        java.lang.reflect.Field connection = JdbcMemoryStore.class.getDeclaredField("connection");
        connection.setAccessible(true);
        assertThat(connection.get(store)).as("no connection was opened after the close").isNull();
    }

    /**
     * Before: a closed store asked for a scope no row can hold (half a surrogate pair) answered as an open one: list and
     * recall found nothing and forget forgot nothing, and remember under a tenant over the length limit was refused for
     * its length, though no call can succeed on a closed store. Every call now says first that the store was closed.
     */
    @Test
    void aClosedStoreSaysSoFirstWhateverTheScopeItIsGiven() {
        store.close();
        String closed = "the store was closed (its close() was called)";
        var half = new dev.rein.memory.MemoryScope(ACME.tenant(), "ali\ud83d");
        assertThatThrownBy(() -> store.list(half)).isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot list the memory of ali\\ud83d in the memory store at ").hasMessageContaining(closed);
        assertThatThrownBy(() -> store.recall(half, "大阪", 5, NOW)).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.forget(half, MemoryStore.newId())).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.remember(entry(MemoryStore.newId(), new dev.rein.memory.MemoryScope("組".repeat(300), "alice"),
                        "配送先は大阪", null)))
                .isInstanceOf(StoreException.class).hasMessageContaining(closed);
    }

    /**
     * Before: a row an earlier Rein stored on SQLite (an id longer than 64 characters, which entries now refuse) was left out
     * with a warning saying it "was edited outside Rein", which it was not.
     */
    @Test
    void aRowAnEarlierReinStoredIsNotSaidToBeEditedOutsideRein() throws Exception {
        String ok = MemoryStore.newId();
        store().remember(entry(ok, ACME, "配送先は大阪", null));
        String longId = "x".repeat(70);
        try (var c = otherConnection(); var st = c.createStatement()) {
            st.executeUpdate("UPDATE rein_memory SET id = '" + longId + "' WHERE id = '" + ok + "'");
        }
        List<String> problems = new ArrayList<>();
        assertThat(store.list(ACME, problems::add)).isEmpty();
        assertThat(problems).singleElement().asString()
                .contains("memory entry " + longId + " ")
                .contains("at most 64 characters")
                .contains("an earlier Rein stored it before such entries were refused, or it was edited outside Rein")
                .contains("rein memory forget --tenant " + ACME.tenant() + " --user alice " + longId);
    }

    /**
     * Before (rev118): a row with no id (SQLite takes NULL in a primary key that is not an INTEGER one; a row edited outside
     * Rein) made list and recall throw NullPointerException while the hint for it was built, so no entry of that user could
     * be listed or recalled. It is now left out saying it has no id, with no 'rein memory forget' command (none can name it)
     * but how to delete it.
     */
    @Test
    void aRowWithNoIdIsReportedAndTheOthersAreListedAndRecalled() throws Exception {
        String ok = MemoryStore.newId();
        store().remember(entry(ok, ACME, "配送先は大阪", null));
        try (var c = otherConnection(); var st = c.prepareStatement("INSERT INTO rein_memory (id, tenant, principal, text, source,"
                + " created_by, created_at) VALUES (NULL, ?, ?, '配送先は京都', 'conversation', ?, ?)")) {
            st.setString(1, ACME.tenant());
            st.setString(2, ACME.user());
            st.setString(3, ACME.user());
            st.setLong(4, NOW.toEpochMilli());
            st.executeUpdate();
        }
        List<String> problems = new ArrayList<>();
        assertThat(store.list(ACME, problems::add)).extracting(dev.rein.memory.MemoryEntry::id).containsExactly(ok);
        assertThat(problems).singleElement().asString()
                .contains("a memory entry with no id of user alice in tenant " + ACME.tenant() + " in ")
                .contains("cannot be read (it has no id)")
                .contains("DELETE FROM rein_memory WHERE id IS NULL")
                .doesNotContain("rein memory forget --").doesNotContain("null");
        assertThat(store.recall(ACME, "", 5, NOW)).extracting(dev.rein.memory.MemoryEntry::id).containsExactly(ok);
        assertThat(store.recall(ACME, "大阪", 5, NOW)).extracting(dev.rein.memory.MemoryEntry::id).containsExactly(ok);
    }

    /**
     * Before: the sentence for a row that cannot be read gave its id as the row held it, to a library caller's log (only
     * rein-cli escaped it): an id edited outside Rein to hold a line feed or an escape forged a second log line or a
     * terminal sequence. The id (and the names) are shown as every other message of the store shows them, escaped.
     */
    @Test
    void anUnreadableRowsIdWithControlCharactersIsShownEscaped() throws Exception {
        String ok = MemoryStore.newId();
        store().remember(entry(ok, ACME, "配送先は大阪", null));
        try (var c = otherConnection(); var st = c.prepareStatement("UPDATE rein_memory SET id = ?, text = '' WHERE id = ?")) {
            st.setString(1, "m1\nWARN forged\u001b[2J");
            st.setString(2, ok);
            st.executeUpdate();
        }
        List<String> problems = new ArrayList<>();
        assertThat(store.list(ACME, problems::add)).isEmpty();
        assertThat(problems).singleElement().asString()
                .contains("memory entry m1\\x0aWARN forged\\x1b[2J of user alice in tenant " + ACME.tenant() + " in ")
                .contains("cannot be read (its text is empty)")
                .doesNotContain("\n").doesNotContain("\u001b");
    }

    @Test
    void aDatabaseOfANewerSchemaIsRefusedAndGetsNoMemoryTables() throws Exception {
        Path newer = Files.createDirectories(dir.resolve("newer"));
        String url = "jdbc:sqlite:" + newer.resolve(JdbcRunStore.SQLITE_FILE);
        try (var connection = DriverManager.getConnection(url)) {
            connection.createStatement().executeUpdate("CREATE TABLE rein_schema (version INTEGER NOT NULL)");
            connection.createStatement().executeUpdate("INSERT INTO rein_schema (version) VALUES (2)");
        }
        // JdbcMemoryStore.connect (a PostgreSQL URL in practice) is not preceded by the run store's check, as sqlite(dir) is
        assertThatThrownBy(() -> JdbcMemoryStore.connect(url, null, null)).isInstanceOf(StoreException.class)
                .hasMessageContaining("schema version 2").hasMessageContaining("upgrade Rein");
        List<String> tables = new ArrayList<>();
        try (var connection = DriverManager.getConnection(url);
             var rs = connection.createStatement().executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        assertThat(tables).as("a store this Rein refuses gets none of its tables").containsExactly("rein_schema");
    }

    /**
     * Before: a database holding only memory (JdbcMemoryStore.connect, no run store) recorded no schema version, so it
     * could not be told from a store made by a Rein that records none.
     */
    @Test
    void aDatabaseHoldingOnlyMemoryRecordsItsSchemaVersion() throws Exception {
        Path only = dir.resolve("memory-only.db");
        try (JdbcMemoryStore memory = JdbcMemoryStore.connect("jdbc:sqlite:" + only, null, null)) {
            memory.remember(MemoryStoreContract.entry(MemoryStore.newId(), ACME, "メール希望", null));
        }
        try (JdbcMemoryStore again = JdbcMemoryStore.connect("jdbc:sqlite:" + only, null, null)) {
            assertThat(again.list(ACME)).hasSize(1);
        }
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + only); var st = c.createStatement();
             var rs = st.executeQuery("SELECT version FROM rein_schema")) {
            List<Integer> versions = new ArrayList<>();
            while (rs.next()) {
                versions.add(rs.getInt(1));
            }
            assertThat(versions).containsExactly(JdbcRunStore.SCHEMA_VERSION);
        }
    }
}
