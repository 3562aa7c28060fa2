package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemorySource;
import dev.rein.memory.MemoryStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The memory store contract against a real PostgreSQL server (the same JDBC code as SQLite), when one is available: the URL in
 * {@code REIN_TEST_POSTGRES_URL} (with {@code REIN_TEST_POSTGRES_USER} / {@code _PASSWORD}), or else
 * a server on localhost:5432 that accepts user {@code $PGUSER} (default {@code postgres}) without a
 * password. Tables are created in a throwaway schema that is dropped afterwards. Without a server
 * they are skipped, except under {@code CI=true} ({@code .ci/run} installs and starts one): there a
 * skip would hide that the store was never tested, so it fails.
 */
class PostgresMemoryStoreTest extends JdbcMemoryStoreContract {
    private static String url;
    private static String user;
    private static String password;
    private static String schema;
    private static JdbcMemoryStore store;

    @BeforeAll
    static void connect() {
        String configured = System.getenv("REIN_TEST_POSTGRES_URL");
        url = configured != null ? configured : "jdbc:postgresql://localhost:5432/postgres";
        user = configured != null ? System.getenv("REIN_TEST_POSTGRES_USER") : System.getenv().getOrDefault("PGUSER", "postgres");
        password = configured != null ? System.getenv("REIN_TEST_POSTGRES_PASSWORD") : null;
        schema = "rein_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            String why = "no PostgreSQL server at " + url + " (" + e.getMessage().lines().findFirst().orElse("")
                    + "). Set REIN_TEST_POSTGRES_URL to run them (.ci/run starts a server itself).";
            if (PostgresRunStoreTest.mustRun(System.getenv("CI"))) {
                fail("PostgreSQL memory store tests cannot run under CI=true: " + why);
            }
            abort("PostgreSQL memory store tests skipped: " + why);
        }
        String withSchema = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
        store = JdbcMemoryStore.connect(withSchema, user, password);
    }


    @AfterAll
    static void dropSchema() throws SQLException {
        if (store == null) {
            return;
        }
        store.close();
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }

    /**
     * Before: a schema holding another program's table named rein_memory failed the store's opening with PostgreSQL's
     * words alone, 'column "tenant" does not exist'; it now says the table is not Rein's and what to do, as on SQLite,
     * and so does the run store for its tables.
     */
    @Test
    void aTableOfAnotherProgramWithTheNameOfReinsIsNamedWithWhatToDo() throws SQLException {
        String foreign = schema + "_foreign";
        String foreignUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + foreign;
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + foreign);
            st.execute("CREATE TABLE " + foreign + ".rein_memory (id SERIAL PRIMARY KEY, title TEXT)");
            st.execute("CREATE TABLE " + foreign + ".rein_events (id SERIAL PRIMARY KEY, payload TEXT)");
        }
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcMemoryStore.connect(foreignUrl, user, password))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("the table rein_memory there is not Rein's (it has no column tenant, principal, text,")
                    .hasMessageContaining("rename that table, or keep Rein's tables in a database of their own");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcRunStore.connect(foreignUrl, user, password))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("the table rein_events there is not Rein's (it has no column run_id, step, type, time_ms,"
                            + " event): another program's table has the name Rein's run store uses");
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + foreign + " CASCADE");
            }
        }
    }

    /**
     * Before: a memory store an earlier Rein made in a SQL_ASCII database (which counts a VARCHAR's length in bytes)
     * opens, but an id of 64 Japanese characters, which Rein lets through, failed in PostgreSQL's words alone ('value too
     * long for type character varying(64)'), and so did a word of 150 Cyrillic letters in an entry's text. Each is now
     * refused before anything is written, saying how many bytes it has, why the database cannot hold them and what to
     * do, as the run store says of a run id too long for it.
     */
    @Test
    void anIdOrWordTooLongInBytesForASqlAsciiStoreIsRefusedSayingWhyAndWhatToDo() throws SQLException {
        String database = "rein_memascii_" + schema.substring("rein_test_".length());
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database + " ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
        }
        String ascii = url.replaceFirst("/[^/?]*(\\?|$)", "/" + database + "$1");
        try {
            try (Connection c = open(ascii); Statement st = c.createStatement()) {
                // a store an earlier Rein made there
                st.execute("CREATE TABLE rein_schema (version INTEGER NOT NULL)");
                st.execute("INSERT INTO rein_schema (version) VALUES (1)");
            }
            String advice = " (the database " + database + " keeps its text in SQL_ASCII, which counts a text's length in bytes);"
                    + " move this store to a database whose encoding is UTF8 (CREATE DATABASE rein ENCODING 'UTF8' LC_COLLATE"
                    + " 'C' LC_CTYPE 'C' TEMPLATE template0) with pg_dump and pg_restore, which convert its text, and open it there";
            try (JdbcMemoryStore old = JdbcMemoryStore.connect(ascii, user, password)) {
                String japanese = "顧".repeat(MemoryEntry.MAX_ID_CHARS);
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> old.remember(entry(japanese, ACME, "配送先は大阪", null)))
                        .isInstanceOf(dev.rein.state.StoreException.class)
                        .hasMessageStartingWith("cannot remember " + japanese + " in the memory store at " + ascii + ": ")
                        .hasMessageEndingWith(": the id has " + MemoryEntry.MAX_ID_CHARS + " characters but 192 bytes of UTF-8,"
                                + " more than the " + MemoryEntry.MAX_ID_CHARS + " this database holds" + advice
                                + ", or give the entry a shorter id")
                        .hasMessageNotContaining("character varying");
                String word = "я".repeat(150);
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> old.remember(entry("mem_ru", ACME, "адрес " + word, null)))
                        .isInstanceOf(dev.rein.state.StoreException.class)
                        .hasMessageEndingWith(": the text has a word of 150 characters but 300 bytes of UTF-8, more than the"
                                + " 200 this database holds" + advice)
                        .hasMessageNotContaining("character varying");
                org.assertj.core.api.Assertions.assertThat(old.list(ACME)).as("nothing was written").isEmpty();
                old.remember(entry("mem_ok", ACME, "адрес " + "я".repeat(100), null));
                org.assertj.core.api.Assertions.assertThat(old.list(ACME)).extracting(MemoryEntry::id).containsExactly("mem_ok");
            }
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP DATABASE " + database + " WITH (FORCE)");
            }
        }
    }

    private static Connection open(String jdbcUrl) throws SQLException {
        Properties props = new Properties();
        if (user != null) {
            props.setProperty("user", user);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("connectTimeout", "3");
        return DriverManager.getConnection(jdbcUrl, props);
    }

    /**
     * Before: a role that may read and write the memory tables but does not own them (a deployment's migration role
     * created them) could not open the store at all: 'must be owner of table rein_memory' from CREATE INDEX IF NOT
     * EXISTS of an index that is there. It uses what it may not change as it is.
     */
    @Test
    void aRoleThatMayNotAlterTheTablesOpensTheStore() throws SQLException {
        String old = schema + "_role", role = "rein_mem_" + schema.substring("rein_test_".length());
        String oldUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + old;
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + old);
        }
        try {
            JdbcMemoryStore.connect(oldUrl, user, password).close();
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE " + old + ".rein_memory ALTER COLUMN tenant TYPE VARCHAR(200)"); // as an earlier Rein made it
                st.execute("CREATE ROLE " + role + " LOGIN");
                st.execute("GRANT USAGE, CREATE ON SCHEMA " + old + " TO " + role);
                st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + old + " TO " + role);
            }
            try (JdbcMemoryStore app = JdbcMemoryStore.connect(oldUrl, role, null)) {
                app.remember(entry("mem_role", ACME, "返品は30日以内", null));
                assertThat(app.recall(ACME, "返品", 5, NOW)).extracting(MemoryEntry::id).containsExactly("mem_role");
            }
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + old + " CASCADE");
                st.execute("DROP OWNED BY " + role);
                st.execute("DROP ROLE " + role);
            } catch (SQLException e) {
                // the role was never made: nothing of it to drop
            }
        }
    }

    /** A store created when the source column was VARCHAR(1000) takes a long source once opened by this version. */
    @Test
    void aStoreCreatedWithTheOldSourceColumnTakesALongSource() throws SQLException {
        String old = schema + "_old";
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + old);
            st.execute("CREATE TABLE " + old + ".rein_memory (id VARCHAR(64) PRIMARY KEY, tenant VARCHAR(200) NOT NULL,"
                    + " principal VARCHAR(200) NOT NULL, text TEXT NOT NULL, source_run VARCHAR(200), source_observation VARCHAR(200),"
                    + " source VARCHAR(1000) NOT NULL, created_by VARCHAR(200) NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT)");
        }
        try (JdbcMemoryStore opened = JdbcMemoryStore.connect(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + old, user, password)) {
            String source = "https://docs.example.com/" + "a".repeat(3_000);
            opened.remember(new MemoryEntry("mem_old", ACME, "returns within 30 days", new MemorySource("run_1", "toolu_1", source),
                    "alice", NOW, null));
            assertThat(opened.list(ACME)).singleElement().satisfies(e -> assertThat(e.source().source()).isEqualTo(source));
            // its VARCHAR(200) tenant and user columns became TEXT as well
            dev.rein.memory.MemoryScope longUser = new dev.rein.memory.MemoryScope(ACME.tenant(), "auth0|" + "u".repeat(250));
            opened.remember(new MemoryEntry("mem_long", longUser, "配送先は大阪", new MemorySource("run_1", "toolu_1", "orders-db"),
                    longUser.user(), NOW, null));
            assertThat(opened.list(longUser)).extracting(MemoryEntry::id).containsExactly("mem_long");
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + old + " CASCADE");
            }
        }
    }

    /**
     * Before: the first call after the server ended the store's connection (a restart, a failover, an idle
     * connection cut) failed with 'FATAL: terminating connection due to administrator command' or 'An I/O
     * error occurred while sending to the backend', as the run store's did before e7229b3b, so a remember
     * or a recall failed though the server was back.
     */
    @Test
    void aConnectionTheServerEndedIsOpenedAgainWithoutFailingTheCall() throws Exception {
        String first = MemoryStore.newId();
        String second = MemoryStore.newId();
        store.remember(entry(first, ACME, "返品は30日以内", null));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                () -> store.remember(entry(second, ACME, "deliveries go to Osaka", null)), () -> store.recall(ACME, "返品", 5, NOW),
                () -> store.recall(ACME, "", 5, NOW), () -> store.list(ACME), () -> store.termCount(first),
                () -> assertThat(store.forget(ACME, second)).isTrue())) {
            try (Connection other = open(url); Statement st = other.createStatement()) {
                // ends every other session of this database: the store's own among them
                st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                        + " AND datname = current_database() AND backend_type = 'client backend'").close();
            }
            org.assertj.core.api.Assertions.assertThatCode(call).doesNotThrowAnyException();
        }
        assertThat(store.list(ACME)).extracting(MemoryEntry::id).containsExactly(first);
    }

    /**
     * Before: a forget whose first attempt was committed just before the connection broke was made again on a
     * new connection, found the row gone and answered false, so the user was told 'there is no memory entry'
     * though it had just been forgotten (a remember in the same spot is taken as stored since 6ab948bd).
     */
    @Test
    void aForgetCommittedJustBeforeTheConnectionBrokeAnswersThatItForgot() throws Exception {
        try (CommitCuttingProxy proxy = new CommitCuttingProxy(url);
             JdbcMemoryStore cut = JdbcMemoryStore.connect(proxy.url() + "&currentSchema=" + schema,
                     user, password)) {
            String id = MemoryStore.newId();
            proxy.cutAfterNextCommit();
            cut.remember(entry(id, ACME, "配送先は大阪", null));
            assertThat(proxy.didCut()).as("the remember's commit was cut off").isTrue();
            assertThat(cut.list(ACME)).extracting(MemoryEntry::id).containsExactly(id);

            proxy.cutAfterNextCommit();
            assertThat(cut.forget(ACME, id)).as("the entry was forgotten, by the attempt before the connection broke").isTrue();
            assertThat(proxy.didCut()).as("the forget's commit was cut off").isTrue();
            assertThat(cut.list(ACME)).isEmpty();
            assertThat(cut.termCount(id)).isZero();
            assertThat(cut.forget(ACME, id)).as("a forget of an entry that is gone still says so").isFalse();
        }
    }

    /**
     * Before: processes starting together against a new database (replicas of one service deployed at once)
     * raced to create the tables, and all but one failed 'cannot prepare the run store in jdbc:postgresql://...:
     * ERROR: duplicate key value violates unique constraint "pg_type_typname_nsp_index"', as PostgreSQL's
     * CREATE TABLE IF NOT EXISTS does not wait for another session creating the same table.
     */
    @Test
    void storesOpenedTogetherOnANewDatabaseAllPrepareIt() throws Exception {
        for (int round = 0; round < 3; round++) {
            String fresh = schema + "_new" + round;
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("CREATE SCHEMA " + fresh);
            }
            String freshUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + fresh;
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
            try {
                java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
                java.util.List<java.util.concurrent.Future<?>> opened = new java.util.ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    boolean memory = i % 2 == 0;
                    opened.add(pool.submit(() -> {
                        start.await();
                        if (memory) {
                            JdbcMemoryStore.connect(freshUrl, user, password).close();
                        } else {
                            JdbcRunStore.connect(freshUrl, user, password).close();
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (java.util.concurrent.Future<?> f : opened) {
                    org.assertj.core.api.Assertions.assertThatCode(f::get).as("round " + round).doesNotThrowAnyException();
                }
                try (Connection c = open(freshUrl); Statement st = c.createStatement();
                     java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM rein_schema")) {
                    assertThat(rs.next() && rs.getInt(1) == 1).as("the schema version is recorded once").isTrue();
                }
            } finally {
                pool.shutdownNow();
                try (Connection c = open(url); Statement st = c.createStatement()) {
                    st.execute("DROP SCHEMA " + fresh + " CASCADE");
                }
            }
        }
    }

    @Override
    protected Connection otherConnection() throws SQLException {
        return open(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
    }

    @Override
    protected MemoryStore store() {
        return store;
    }

    @Override
    protected int indexedTerms(String id) {
        return store.termCount(id);
    }
}
