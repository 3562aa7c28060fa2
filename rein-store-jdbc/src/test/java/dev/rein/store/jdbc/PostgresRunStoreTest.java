package dev.rein.store.jdbc;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import dev.rein.state.RunStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract against a real PostgreSQL server, when one is available: the URL in
 * {@code REIN_TEST_POSTGRES_URL} (with {@code REIN_TEST_POSTGRES_USER} / {@code _PASSWORD}), or else
 * a server on localhost:5432 that accepts user {@code $PGUSER} (default {@code postgres}) without a
 * password. Tables are created in a throwaway schema that is dropped afterwards. Without a server
 * they are skipped, except under {@code CI=true} ({@code .ci/run} installs and starts one): there a
 * skip would hide that the store was never tested, so it fails.
 */
class PostgresRunStoreTest extends JdbcRunStoreContract {
    private static String url;
    private static String user;
    private static String password;
    private static String schema;
    private static JdbcRunStore store;

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
            if (mustRun(System.getenv("CI"))) {
                fail("PostgreSQL store tests cannot run under CI=true: " + why);
            }
            abort("PostgreSQL tests skipped: " + why);
        }
        store = JdbcRunStore.connect(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, user, password);
    }

    /** Under CI ({@code CI=true}) these tests must run: a skip is a failure. */
    static boolean mustRun(String ci) {
        return "true".equalsIgnoreCase(ci);
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

    @Override
    protected Connection otherConnection() throws SQLException {
        return open(url());
    }

    @Override
    protected String url() {
        return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    /**
     * Before: a URL whose currentSchema names a schema the database lacks said only PostgreSQL's "ERROR: no schema has
     * been selected to create in" and "Position: 28" (of Rein's own SQL), and a role that may not create tables in its
     * schema (PostgreSQL 15 grants no one CREATE on public) "permission denied for schema public", neither saying what to
     * do. Both now say it, for the run store and the memory store alike.
     */
    @org.junit.jupiter.api.Test
    void aSchemaThatIsMissingOrThatTheRoleMayNotCreateInSaysWhatToDo() throws Exception {
        String missing = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema + "_missing";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcRunStore.connect(missing, user, password))
                .isInstanceOf(dev.rein.state.StoreException.class)
                .hasMessageContaining("no schema has been selected to create in")
                .hasMessageContaining("does not exist in this database")
                .hasMessageContaining("CREATE SCHEMA")
                .hasMessageNotContaining("Position:");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcMemoryStore.connect(missing, user, password))
                .hasMessageContaining("CREATE SCHEMA");
        String locked = schema + "_locked", role = "rein_nocreate_" + schema.substring("rein_test_".length());
        String lockedUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + locked;
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + locked);
            st.execute("CREATE ROLE " + role + " LOGIN");
            st.execute("GRANT USAGE ON SCHEMA " + locked + " TO " + role);
        }
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcRunStore.connect(lockedUrl, role, null))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("permission denied for schema " + locked)
                    .hasMessageContaining("may not create Rein's tables")
                    .hasMessageContaining("GRANT USAGE, CREATE ON SCHEMA " + locked)
                    .hasMessageNotContaining("Position:");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcMemoryStore.connect(lockedUrl, role, null))
                    .hasMessageContaining("GRANT USAGE, CREATE ON SCHEMA " + locked);
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + locked + " CASCADE");
                st.execute("DROP OWNED BY " + role);
                st.execute("DROP ROLE " + role);
            }
        }
    }

    /**
     * Before: a store opened in a PostgreSQL database whose text is not UTF8 (one created with ENCODING 'LATIN1', or
     * 'EUC_JP' as older Japanese systems have) made its tables, and then each save of a run holding a character that
     * encoding lacks (Japanese text, an emoji, a dash a model writes) failed part way through the run with PostgreSQL's
     * words alone ('character with byte sequence 0xe3 0x81 0xaf in encoding "UTF8" has no equivalent in encoding
     * "LATIN1"'). A new store there is now refused, saying why and what to do, before any table is made; in one an
     * earlier Rein made there, such a write says the same, with nothing written.
     */
    @org.junit.jupiter.api.Test
    void aDatabaseWhoseTextIsNotUtf8IsRefusedForANewStoreAndNamedWhenAWriteFailsInAnOldOne() throws Exception {
        inNewDatabase("rein_latin1_", "LATIN1", (database, latin1) -> {
            String advice = notUtf8(database, "LATIN1", "has no place for every character a run or a memory may hold (Japanese"
                    + " text, an emoji, a dash a model writes)");
            assertBothStoresRefusedIn(latin1, advice);
            // a store an earlier Rein made there: it opens, and a write that the encoding cannot hold says why
            makeAnEarlierReinsStoreIn(latin1);
            try (JdbcRunStore old = JdbcRunStore.connect(latin1, user, password)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> old.save(snapshot(1, dev.rein.run.RunStatus.RUNNING)))
                        .isInstanceOf(dev.rein.state.StoreException.class)
                        .hasMessageStartingWith("cannot save run " + runId + " in " + latin1 + ": ERROR: character with byte sequence")
                        .hasMessageEndingWith(" (" + advice.substring(2) + ")");
                org.assertj.core.api.Assertions.assertThat(old.load(runId)).as("nothing was written").isEmpty();
            }
        });
    }

    /**
     * Before: the advice said CREATE DATABASE rein ENCODING 'UTF8' TEMPLATE template0, which a cluster whose locale is
     * en_US.ISO-8859-1 (where LATIN1 databases come from) refuses: 'encoding "UTF8" does not match locale'. It now names
     * the C locale, which goes with every encoding (checked by hand in such a cluster); here the statement is run as
     * given, so it is at least one PostgreSQL takes.
     */
    @org.junit.jupiter.api.Test
    void theAdvisedCreateDatabaseNamesALocaleThatGoesWithUtf8InAnyCluster() throws Exception {
        inNewDatabase("rein_latin_", "LATIN1", (database, latin1) -> {
            String advised = "rein_advised_" + schema.substring("rein_test_".length());
            try {
                String message = org.assertj.core.api.Assertions.catchThrowable(() -> JdbcRunStore.connect(latin1, user, password)).getMessage();
                java.util.regex.Matcher statement = java.util.regex.Pattern.compile("\\((CREATE DATABASE rein [^)]*)\\)").matcher(String.valueOf(message));
                org.assertj.core.api.Assertions.assertThat(statement.find()).as(message).isTrue();
                org.assertj.core.api.Assertions.assertThat(statement.group(1))
                        .isEqualTo("CREATE DATABASE rein ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
                try (Connection c = open(url); Statement st = c.createStatement()) {
                    st.execute(statement.group(1).replace(" rein ", " " + advised + " "));
                }
                try (JdbcMemoryStore memory = JdbcMemoryStore.connect(urlOf(advised), user, password)) {
                    org.assertj.core.api.Assertions.assertThat(memory).isNotNull();
                }
            } finally {
                dropDatabase(advised);
            }
        });
    }

    /**
     * Before: a database whose encoding is SQL_ASCII was taken for a new store, as it keeps the driver's UTF-8 bytes, but
     * it counts a VARCHAR's length in bytes, so the memory store refused an id of 64 Japanese characters ('value too long
     * for type character varying(64)'), which Rein lets through, and a Cyrillic term of 150 letters. A new store there is
     * now refused as in a LATIN1 database, saying why and what to do, before any table is made; one an earlier Rein made
     * there still opens.
     */
    @org.junit.jupiter.api.Test
    void aSqlAsciiDatabaseIsRefusedForANewStoreAsItCountsLengthsInBytes() throws Exception {
        inNewDatabase("rein_sqlascii_", "SQL_ASCII", (database, ascii) -> {
            String advice = notUtf8(database, "SQL_ASCII", "counts a text's length in bytes, so a memory's id or term as long as Rein"
                    + " allows but in letters other than English ones (an id of 64 Japanese characters) would not fit");
            assertBothStoresRefusedIn(ascii, advice);
            // a store an earlier Rein made there opens, so what it holds can be read and moved
            makeAnEarlierReinsStoreIn(ascii);
            try (JdbcMemoryStore old = JdbcMemoryStore.connect(ascii, user, password)) {
                org.assertj.core.api.Assertions.assertThat(old).isNotNull();
            }
        });
    }

    /**
     * Before: the check for a store an earlier Rein made (its rein_schema) looked the table up through the search path, so
     * with {@code currentSchema=pa,pb} in a LATIN1 database (pa empty, pb holding an earlier Rein's store) it saw pb's and
     * let both stores make their tables in pa, where the CREATE makes them, in a database whose text cannot hold what a
     * run holds. It now looks in current_schema() only, as the existence check does: a new store in pa is refused, with
     * nothing made there.
     */
    @org.junit.jupiter.api.Test
    void anEarlierReinsStoreInALaterSchemaDoesNotLetANewStoreBeMadeInTheFirst() throws Exception {
        inNewDatabase("rein_latin1_later_", "LATIN1", (database, latin1) -> {
            try (Connection c = open(latin1); Statement st = c.createStatement()) {
                st.execute("CREATE SCHEMA pa");
                st.execute("CREATE SCHEMA pb");
            }
            makeAnEarlierReinsStoreIn(latin1 + (latin1.contains("?") ? "&" : "?") + "currentSchema=pb");
            String both = latin1 + (latin1.contains("?") ? "&" : "?") + "currentSchema=pa,pb";
            String advice = notUtf8(database, "LATIN1", "has no place for every character a run or a memory may hold (Japanese"
                    + " text, an emoji, a dash a model writes)");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcRunStore.connect(both, user, password))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessage("cannot prepare the run store in " + both + advice + "; nothing was made in it");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcMemoryStore.connect(both, user, password))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessage("cannot prepare its tables in the memory store at " + both + advice + "; nothing was made in it");
            try (Connection c = open(latin1); Statement st = c.createStatement();
                    java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'pa'")) {
                rs.next();
                org.assertj.core.api.Assertions.assertThat(rs.getInt(1)).as("no table was made in pa").isZero();
            }
        });
    }

    /** A test given a new database's name and URL. */
    @FunctionalInterface
    private interface InDatabase {
        void run(String database, String url) throws Exception;
    }

    /**
     * Runs {@code test} in a new database whose text is in {@code encoding} (C locale, from template0, as a database of
     * that encoding is made), named {@code prefix} and this class's suffix, and drops it afterwards.
     */
    private static void inNewDatabase(String prefix, String encoding, InDatabase test) throws Exception {
        String database = prefix + schema.substring("rein_test_".length());
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database + " ENCODING '" + encoding + "' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0");
        }
        try {
            test.run(database, urlOf(database));
        } finally {
            dropDatabase(database);
        }
    }

    /** The server's URL with {@code database} in place of the one it names. */
    private static String urlOf(String database) {
        return url.replaceFirst("/[^/?]*(\\?|$)", "/" + database + "$1");
    }

    private static void dropDatabase(String database) throws SQLException {
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    /**
     * The advice that ends the refusal of a store in {@code database}, whose text is in {@code encoding}, which {@code why}:
     * ": the database ... keeps its text in ...", the statement that makes a UTF8 database, and how to move an old store.
     */
    private static String notUtf8(String database, String encoding, String why) {
        return ": the database " + database + " keeps its text in " + encoding + ", which " + why + ", so saving one would fail;"
                + " Rein's stores need a database whose encoding is UTF8: create one (CREATE DATABASE rein ENCODING 'UTF8'"
                + " LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0) and give its URL, and move a store an earlier Rein made in this"
                + " one there with pg_dump and pg_restore, which convert its text";
    }

    /** That both stores refuse to be made in the database of {@code databaseUrl}, with {@code advice}, and make no table. */
    private static void assertBothStoresRefusedIn(String databaseUrl, String advice) throws SQLException {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcRunStore.connect(databaseUrl, user, password))
                .isInstanceOf(dev.rein.state.StoreException.class)
                .hasMessage("cannot prepare the run store in " + databaseUrl + advice + "; nothing was made in it");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcMemoryStore.connect(databaseUrl, user, password))
                .isInstanceOf(dev.rein.state.StoreException.class)
                .hasMessage("cannot prepare its tables in the memory store at " + databaseUrl + advice + "; nothing was made in it");
        try (Connection c = open(databaseUrl); Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pg_tables WHERE tablename LIKE 'rein%'")) {
            rs.next();
            org.assertj.core.api.Assertions.assertThat(rs.getInt(1)).as("no table was made").isZero();
        }
    }

    /** What a store an earlier Rein made in the database of {@code databaseUrl} leaves there: its schema version. */
    private static void makeAnEarlierReinsStoreIn(String databaseUrl) throws SQLException {
        try (Connection c = open(databaseUrl); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE rein_schema (version INTEGER NOT NULL)");
            st.execute("INSERT INTO rein_schema (version) VALUES (1)");
        }
    }

    /**
     * Before: a table dropped while the store was open (or by a migration that cleaned the schema) failed the next use
     * with PostgreSQL's words alone, 'ERROR: relation "rein_runs" does not exist'; it now names the table and says that
     * opening the store creates the tables it lacks, for the run store and the memory store alike.
     */
    @org.junit.jupiter.api.Test
    void aTableDroppedWhileTheStoreIsOpenIsNamedWithWhatToDo() throws Exception {
        String dropped = schema + "_dropped";
        String droppedUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + dropped;
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + dropped);
        }
        try (JdbcRunStore runs = JdbcRunStore.connect(droppedUrl, user, password);
                JdbcMemoryStore memory = JdbcMemoryStore.connect(droppedUrl, user, password)) {
            runs.save(snapshot(1, dev.rein.run.RunStatus.RUNNING));
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP TABLE " + dropped + ".rein_runs");
                st.execute("DROP TABLE " + dropped + ".rein_memory_terms");
            }
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> runs.load(runId))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("relation \"rein_runs\" does not exist")
                    .hasMessageContaining("the table rein_runs is missing from the database")
                    .hasMessageContaining("JdbcRunStore.sqlite(directory) or JdbcRunStore.connect(url, user, password)")
                    .hasMessageContaining("creates the tables it lacks")
                    .hasMessageNotContaining("Position:");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> runs.save(snapshot(1, dev.rein.run.RunStatus.RUNNING)))
                    .hasMessageContaining("the table rein_runs is missing");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> memory.recall(new dev.rein.memory.MemoryScope("acme", "alice"),
                            "大阪", 5, java.time.Instant.now()))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("the table rein_memory_terms is missing from the database")
                    .hasMessageContaining("JdbcMemoryStore.sqlite(directory) or JdbcMemoryStore.connect(url, user, password)");
            try (JdbcRunStore again = JdbcRunStore.connect(droppedUrl, user, password)) {
                org.assertj.core.api.Assertions.assertThat(again.load(runId)).as("opened again, it has the table, empty").isEmpty();
            }
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + dropped + " CASCADE");
            }
        }
    }

    /**
     * Before: list() read every run's whole snapshot (its messages and tool results) with its listing columns, so a large
     * store sent all of it to 'rein runs' to show a line per run. It now reads the listing columns alone, and a run's
     * snapshot only when one of them was edited outside Rein into something it cannot read: a role that may read only the
     * listing columns (not the snapshot) lists the runs, and sees what the owner's listing shows.
     */
    @org.junit.jupiter.api.Test
    void theListingReadsNoSnapshotOfARunWhoseColumnsAreReadable() throws Exception {
        String listing = schema + "_list", role = "rein_lister_" + schema.substring("rein_test_".length());
        String listingUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + listing;
        try (Connection c = open(url); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + listing);
        }
        try {
            java.util.List<dev.rein.state.RunSummary> owners;
            try (JdbcRunStore owner = JdbcRunStore.connect(listingUrl, user, password)) {
                owner.save(snapshotOf(runId + "_a", dev.rein.run.RunStatus.SUCCEEDED));
                owner.save(snapshotOf(runId + "_b", dev.rein.run.RunStatus.RUNNING));
                owners = owner.list();
            }
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("CREATE ROLE " + role + " LOGIN");
                st.execute("GRANT USAGE, CREATE ON SCHEMA " + listing + " TO " + role);
                st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + listing + " TO " + role);
                st.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + listing + " TO " + role);
            }
            try (JdbcRunStore lister = JdbcRunStore.connect(listingUrl, role, null)) {
                // opened, the role may now read the listing columns of rein_runs alone
                try (Connection c = open(url); Statement st = c.createStatement()) {
                    st.execute("REVOKE SELECT ON " + listing + ".rein_runs FROM " + role);
                    st.execute("GRANT SELECT (run_id, version, status, reason, goal, model, steps, cost_usd, pending_approvals,"
                            + " created_at, updated_at) ON " + listing + ".rein_runs TO " + role);
                }
                org.assertj.core.api.Assertions.assertThat(lister.list()).hasSize(2).isEqualTo(owners);
            }
        } finally {
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + listing + " CASCADE");
                st.execute("DROP OWNED BY " + role);
                st.execute("DROP ROLE " + role);
            } catch (SQLException e) {
                // the role was never made: nothing of it to drop
            }
        }
    }

    /**
     * Before: opening a store read every column of each of its tables (SELECT *, to see that the table is Rein's), so a
     * role granted only the columns Rein uses could not open a store whose tables the deployment gave columns of its own
     * ('permission denied for table rein_schema'). The checks now look up the column names alone: such a role opens the
     * run store and the memory store and uses them.
     */
    @org.junit.jupiter.api.Test
    void aRoleGrantedOnlyReinsColumnsOpensTablesThatHaveColumnsOfTheirOwn() throws Exception {
        asARoleOfItsOwn("_cols", "rein_cols_", (own, role, st) -> {
            java.util.Map<String, String> columns = new java.util.LinkedHashMap<>();
            try (java.sql.ResultSet rs = st.executeQuery("SELECT table_name, string_agg(column_name, ', ') FROM"
                    + " information_schema.columns WHERE table_schema = '" + own + "' GROUP BY table_name")) {
                while (rs.next()) {
                    columns.put(rs.getString(1), rs.getString(2));
                }
            }
            org.assertj.core.api.Assertions.assertThat(columns).containsKeys("rein_schema", "rein_runs", "rein_events",
                    "rein_idempotency", "rein_memory", "rein_memory_terms");
            for (var table : columns.entrySet()) {
                // the deployment's own column, which the role may not read
                st.execute("ALTER TABLE " + own + "." + table.getKey() + " ADD COLUMN audit_note TEXT");
                st.execute("GRANT SELECT (" + table.getValue() + "), INSERT (" + table.getValue() + "), UPDATE ("
                        + table.getValue() + ") ON " + own + "." + table.getKey() + " TO " + role);
                st.execute("GRANT DELETE ON " + own + "." + table.getKey() + " TO " + role);
            }
        });
    }

    /**
     * Before: a role that may use the schema but not create in it (USAGE alone, as a deployment's migration role grants the
     * application's role) could not open a store whose tables another role had made: the store ran CREATE TABLE IF NOT
     * EXISTS rein_schema as it is, which PostgreSQL refuses without CREATE on the schema even when the table is there
     * ('permission denied for schema'), though the message itself says to open the store once as a role that may create
     * the tables. It now goes on when the table is there, as for the other tables, for both stores.
     */
    @org.junit.jupiter.api.Test
    void aRoleThatMayNotCreateInTheSchemaOpensTablesAnotherRoleMade() throws Exception {
        asARoleOfItsOwn("_made", "rein_use_", (made, role, st) ->
                st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + made + " TO " + role));
    }

    /**
     * Before: with {@code currentSchema=pa,pb} (pa empty, pb holding a store), a role that may not create in pa opened pb's
     * store (its refused CREATE was taken as "the table is there", found through the search path), while the owner opening
     * the same URL made a new store in pa: two roles of one deployment used two stores. Whether a table is there is now
     * asked of current_schema(), where CREATE makes it, so such a role is refused as in an empty schema, nothing is made.
     */
    @org.junit.jupiter.api.Test
    void aRoleThatMayNotCreateInTheFirstSchemaDoesNotOpenAStoreInALaterOne() throws Exception {
        String pa = schema + "_pa", pb = schema + "_pb", role = "rein_pa_" + schema.substring("rein_test_".length());
        String sep = url.contains("?") ? "&" : "?";
        withSchemasAndRole(java.util.List.of(pa, pb), role, () -> {
            JdbcRunStore.connect(url + sep + "currentSchema=" + pb, user, password).close();
            JdbcMemoryStore.connect(url + sep + "currentSchema=" + pb, user, password).close();
            asOwner("GRANT USAGE ON SCHEMA " + pa + ", " + pb + " TO " + role,
                    "GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + pb + " TO " + role,
                    "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + pb + " TO " + role);
            String both = url + sep + "currentSchema=" + pa + "," + pb;
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcRunStore.connect(both, role, null).close())
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("this role may not create Rein's tables in schema " + pa);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcMemoryStore.connect(both, role, null).close())
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("this role may not create Rein's tables in schema " + pa);
            try (Connection c = open(url); Statement st = c.createStatement();
                    java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_tables WHERE schemaname = '" + pa + "'")) {
                rs.next();
                org.assertj.core.api.Assertions.assertThat(rs.getInt(1)).isZero();
            }
        });
    }

    /** A test run by {@link #withSchemasAndRole}. */
    @FunctionalInterface
    private interface WithRole {
        void run() throws Exception;
    }

    /**
     * Makes {@code schemas} and a role named {@code role} that may log in and nothing more (the test grants it what it
     * needs), runs {@code test}, and then drops the schemas with what is in them, what the role was granted, and the role.
     * The set-up is inside the try and each is dropped on its own, if it exists: a set-up that failed part way, or one
     * drop that fails, leaves none of the others behind (the names are this run's, so nothing of another's is dropped).
     */
    private static void withSchemasAndRole(java.util.List<String> schemas, String role, WithRole test) throws Exception {
        Throwable failed = null;
        try {
            asOwner(java.util.stream.Stream.concat(schemas.stream().map(s -> "CREATE SCHEMA " + s), java.util.stream.Stream.of(
                    "CREATE ROLE " + role + " LOGIN")).toArray(String[]::new));
            test.run();
        } catch (Throwable e) {
            failed = e;
            throw e;
        } finally {
            java.util.List<String> drops = new java.util.ArrayList<>();
            schemas.forEach(s -> drops.add("DROP SCHEMA IF EXISTS " + s + " CASCADE"));
            // DROP OWNED BY has no IF EXISTS: a role the set-up never made has nothing to drop
            drops.add("DO $$BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '" + role + "') THEN DROP OWNED BY " + role
                    + "; END IF; END$$");
            drops.add("DROP ROLE IF EXISTS " + role);
            SQLException dropFailed = null;
            for (String drop : drops) {
                try {
                    asOwner(drop);
                } catch (SQLException e) {
                    if (dropFailed == null) {
                        dropFailed = e;
                    } else {
                        dropFailed.addSuppressed(e);
                    }
                }
            }
            if (dropFailed != null) {
                if (failed == null) {
                    throw dropFailed;
                }
                failed.addSuppressed(dropFailed); // the test's own failure is the one to see
            }
        }
    }

    /** Runs {@code statements} in order as this test's user (who owns the schemas and the tables). */
    private static void asOwner(String... statements) throws SQLException {
        try (Connection c = open(url); Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }

    /** What the owner grants a role on the tables of a schema, with {@code st} (the owner's). */
    @FunctionalInterface
    private interface Grants {
        void grant(String schema, String role, Statement st) throws SQLException;
    }

    /**
     * Makes the run store and the memory store as this test's user in a schema of their own ({@code suffix}), makes a role
     * ({@code rolePrefix}) with USAGE alone on the schema and its sequences, gives it {@code grants}, and has it open both
     * stores and write and read runs, events and memories; the schema and the role are dropped afterwards.
     */
    private void asARoleOfItsOwn(String suffix, String rolePrefix, Grants grants) throws Exception {
        String own = schema + suffix, role = rolePrefix + schema.substring("rein_test_".length());
        String ownUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + own;
        withSchemasAndRole(java.util.List.of(own), role, () -> {
            JdbcRunStore.connect(ownUrl, user, password).close();
            JdbcMemoryStore.connect(ownUrl, user, password).close();
            try (Connection c = open(url); Statement st = c.createStatement()) {
                st.execute("GRANT USAGE ON SCHEMA " + own + " TO " + role);
                st.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + own + " TO " + role);
                grants.grant(own, role, st);
            }
            try (JdbcRunStore runs = JdbcRunStore.connect(ownUrl, role, null);
                    JdbcMemoryStore memory = JdbcMemoryStore.connect(ownUrl, role, null)) {
                runs.save(snapshot(1, dev.rein.run.RunStatus.RUNNING));
                runs.appendEvent(runId, new dev.rein.trace.TraceEvent.Audit(runId, 1, java.time.Instant.now(), "a", "t", "c",
                        "u", "t", "権限の限られた役割"));
                org.assertj.core.api.Assertions.assertThat(runs.load(runId)).isPresent();
                org.assertj.core.api.Assertions.assertThat(runs.list()).hasSize(1);
                org.assertj.core.api.Assertions.assertThat(runs.events(runId)).hasSize(1);
                dev.rein.memory.MemoryScope scope = new dev.rein.memory.MemoryScope("acme", "alice");
                memory.remember(MemoryStoreContract.entry("mem_role", scope, "配送先は大阪です", null));
                org.assertj.core.api.Assertions.assertThat(memory.recall(scope, "大阪", 5, MemoryStoreContract.NOW)).hasSize(1);
                org.assertj.core.api.Assertions.assertThat(memory.forget(scope, "mem_role")).isTrue();
            }
        });
    }

    /**
     * A role that may use the tables but not alter them (they belong to the role that created them, as a deployment's
     * migration role) still opens a store an earlier Rein created with VARCHAR run id columns, which it cannot widen:
     * it uses them as they are, as it did before they were widened.
     */
    @org.junit.jupiter.api.Test
    void aRoleThatMayNotAlterTheTablesOpensAStoreWithTheOldColumns() throws Exception {
        String old = schema + "_role", role = "rein_app_" + schema.substring("rein_test_".length());
        String oldUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + old;
        withSchemasAndRole(java.util.List.of(old), role, () -> {
            JdbcRunStore.connect(oldUrl, user, password).close();
            asOwner("ALTER TABLE " + old + ".rein_runs ALTER COLUMN run_id TYPE VARCHAR(200), ALTER COLUMN model TYPE VARCHAR(200)",
                    "ALTER TABLE " + old + ".rein_idempotency ALTER COLUMN idempotency_key TYPE VARCHAR(300),"
                            + " ALTER COLUMN run_id TYPE VARCHAR(200)",
                    "ALTER TABLE " + old + ".rein_events ALTER COLUMN run_id TYPE VARCHAR(200)");
            grantUseOfTheTables(old, role);
            try (JdbcRunStore app = JdbcRunStore.connect(oldUrl, role, null)) {
                app.save(snapshot(1, dev.rein.run.RunStatus.RUNNING));
                org.assertj.core.api.Assertions.assertThat(app.load(runId)).isPresent();
            }
        });
    }

    /** Grants {@code role} the use of {@code schema} (creating in it too) and of its tables and sequences, not their altering. */
    private static void grantUseOfTheTables(String schema, String role) throws SQLException {
        asOwner("GRANT USAGE, CREATE ON SCHEMA " + schema + " TO " + role,
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + schema + " TO " + role,
                "GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + schema + " TO " + role);
    }

    /**
     * Before: a role that may use the tables but not alter them opened the store with its events' append key switched
     * off, because PostgreSQL refuses it CREATE UNIQUE INDEX IF NOT EXISTS even when the key is unique already (a table
     * this Rein made declares it UNIQUE; an earlier one's owner added the rein_events_append index); its appends were
     * written without a key and could be stored twice when a connection was lost after the commit. The key stays on
     * when the catalog shows the column unique; a column without a unique index (which the role cannot add) keeps it off.
     */
    @org.junit.jupiter.api.Test
    void aRoleThatMayNotAlterTheTablesKeepsTheAppendKeyWhenTheColumnIsUnique() throws Exception {
        // how the owner left the key column: as this Rein opens it (both), its table's UNIQUE alone, an earlier Rein's
        // table with the index its owner added alone, not unique
        String constraint = "ALTER TABLE %1$s.rein_events DROP CONSTRAINT rein_events_append_key_key", index = "DROP INDEX %1$s.rein_events_append";
        java.util.Map<String, Boolean> setups = new java.util.LinkedHashMap<>();
        setups.put("", true);
        setups.put(index, true);
        setups.put(constraint, true);
        setups.put(constraint + "; " + index, false);
        int n = 0;
        for (var setup : setups.entrySet()) {
            String other = schema + "_key" + n, role = "rein_key_" + n++ + "_" + schema.substring("rein_test_".length());
            String otherUrl = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + other;
            withSchemasAndRole(java.util.List.of(other), role, () -> {
                JdbcRunStore.connect(otherUrl, user, password).close();
                if (!setup.getKey().isEmpty()) {
                    asOwner(setup.getKey().formatted(other));
                }
                grantUseOfTheTables(other, role);
                try (JdbcRunStore app = JdbcRunStore.connect(otherUrl, role, null)) {
                    app.appendEvent(runId, new dev.rein.trace.TraceEvent.Audit(runId, 1, java.time.Instant.now(), "a", "t", "c",
                            "u", "t", "鍵"));
                    org.assertj.core.api.Assertions.assertThat(app.events(runId)).hasSize(1);
                }
                try (Connection c = open(url); Statement st = c.createStatement();
                     java.sql.ResultSet rs = st.executeQuery("SELECT append_key IS NOT NULL FROM " + other + ".rein_events")) {
                    org.assertj.core.api.Assertions.assertThat(rs.next()).isTrue();
                    org.assertj.core.api.Assertions.assertThat(rs.getBoolean(1)).as("keyed, with the owner's setup '%s'", setup.getKey())
                            .isEqualTo(setup.getValue());
                }
            });
        }
    }

    /**
     * Before: the first call after the server ended the store's connection (a restart, a failover, an idle
     * connection cut) failed with 'FATAL: terminating connection due to administrator command' or 'An I/O
     * error occurred while sending to the backend', so a run stopped FAILED/store_error at its next save.
     */
    @org.junit.jupiter.api.Test
    void aConnectionTheServerEndedIsOpenedAgainWithoutFailingTheCall() throws Exception {
        store.save(snapshot(1, dev.rein.run.RunStatus.RUNNING));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                () -> store.save(snapshot(2, dev.rein.run.RunStatus.RUNNING)), () -> store.load(runId), store::list,
                () -> store.idempotency("none"), () -> store.appendEvent(runId, new dev.rein.trace.TraceEvent.Audit(runId, 1,
                        java.time.Instant.now(), "a", "t", "c", "u", "t", "再接続")), () -> store.events(runId))) {
            try (Connection other = open(url); Statement st = other.createStatement()) {
                // ends every other session of this database: the store's own among them
                st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                        + " AND datname = current_database() AND backend_type = 'client backend'").close();
            }
            org.assertj.core.api.Assertions.assertThatCode(call).doesNotThrowAnyException();
        }
        org.assertj.core.api.Assertions.assertThat(store.load(runId).orElseThrow().version()).isEqualTo(2);
    }

    /**
     * Before: checkWritable() after the server ended the store's connection (a restart, a failover) said the store
     * could not be written ('cannot write to the run store in jdbc:postgresql://...: FATAL: terminating connection
     * due to administrator command'), so an application that checks before each run refused one though the
     * server was back; the other calls open the connection again since e7229b3b.
     */
    @org.junit.jupiter.api.Test
    void checkingThatTheStoreCanBeWrittenOpensAConnectionTheServerEndedAgain() throws Exception {
        store.checkWritable();
        try (Connection other = open(url); Statement st = other.createStatement()) {
            st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
                    + " AND datname = current_database() AND backend_type = 'client backend'").close();
        }
        org.assertj.core.api.Assertions.assertThatCode(store::checkWritable).doesNotThrowAnyException();
    }

    /**
     * Before: an event appended in a statement the server committed just before the connection broke (its answer lost
     * with it) was inserted again on the new connection (ConnectionLoss.retrying), so the run's trace held it twice
     * and 'rein show' and replay read the step twice.
     */
    @org.junit.jupiter.api.Test
    void anEventAppendedJustBeforeTheConnectionBrokeIsStoredOnce() throws Exception {
        try (CommitCuttingProxy proxy = new CommitCuttingProxy(url);
             JdbcRunStore cut = JdbcRunStore.connect(proxy.url() + "&currentSchema=" + schema, user, password)) {
            String run = runId + "_cut";
            cut.appendEvent(run, new dev.rein.trace.TraceEvent.Audit(run, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "一回目"));
            proxy.cutAfterNext("INSERT INTO rein_events");
            cut.appendEvent(run, new dev.rein.trace.TraceEvent.Audit(run, 2, java.time.Instant.now(), "a", "t", "c", "u", "t", "二回目"));
            org.assertj.core.api.Assertions.assertThat(proxy.didCut()).as("the append's answer was cut off").isTrue();
            org.assertj.core.api.Assertions.assertThat(cut.events(run)).extracting(dev.rein.state.StoredEvent::step)
                    .as("each event once, in order").containsExactly(1, 2);
        }
    }

    /**
     * Before: when the insert of an event was committed but its answer lost, and the connection could not be opened again
     * at once (the server restarting), appendEvent failed; the run's StoreListener holds such an event and appends it
     * again later, and it was stored twice.
     */
    @org.junit.jupiter.api.Test
    void anEventAppendedAgainAfterItsCommittedAppendFailedIsStoredOnce() throws Exception {
        try (CommitCuttingProxy proxy = new CommitCuttingProxy(url);
             JdbcRunStore cut = JdbcRunStore.connect(proxy.url() + "&currentSchema=" + schema, user, password)) {
            String run = runId + "_again";
            dev.rein.trace.TraceEvent second = new dev.rein.trace.TraceEvent.Audit(run, 2, java.time.Instant.now(), "a", "t", "c", "u", "t", "二回目");
            cut.appendEvent(run, new dev.rein.trace.TraceEvent.Audit(run, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "一回目"));
            proxy.cutAfterNext("INSERT INTO rein_events");
            proxy.refuseConnections(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cut.appendEvent(run, second))
                    .isInstanceOf(dev.rein.state.StoreException.class);
            org.assertj.core.api.Assertions.assertThat(proxy.didCut()).as("the append's answer was cut off").isTrue();
            proxy.refuseConnections(false);
            cut.appendEvent(run, second); // as StoreListener delivers a held event: the same event again
            cut.appendEvent(run, new dev.rein.trace.TraceEvent.Audit(run, 3, java.time.Instant.now(), "a", "t", "c", "u", "t", "三回目"));
            org.assertj.core.api.Assertions.assertThat(cut.events(run)).extracting(dev.rein.state.StoredEvent::step)
                    .as("each event once, in order").containsExactly(1, 2, 3);
        }
    }

    /**
     * Before: the store kept the key of its last failed append only, so when another run's append failed too before the
     * first run's StoreListener appended its held event again (one store shared by runs, the server away for both), that
     * event got a new key and was stored twice.
     */
    @org.junit.jupiter.api.Test
    void anEventAppendedAgainIsStoredOnceAlsoWhenAnotherRunsAppendFailedInBetween() throws Exception {
        try (CommitCuttingProxy proxy = new CommitCuttingProxy(url);
             JdbcRunStore cut = JdbcRunStore.connect(proxy.url() + "&currentSchema=" + schema, user, password)) {
            String run = runId + "_shared";
            String other = runId + "_other";
            dev.rein.trace.TraceEvent second = new dev.rein.trace.TraceEvent.Audit(run, 2, java.time.Instant.now(), "a", "t", "c", "u", "t", "二回目");
            dev.rein.trace.TraceEvent others = new dev.rein.trace.TraceEvent.Audit(other, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "別の実行");
            cut.appendEvent(run, new dev.rein.trace.TraceEvent.Audit(run, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "一回目"));
            proxy.cutAfterNext("INSERT INTO rein_events");
            proxy.refuseConnections(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cut.appendEvent(run, second))
                    .isInstanceOf(dev.rein.state.StoreException.class);
            org.assertj.core.api.Assertions.assertThat(proxy.didCut()).as("the append's answer was cut off").isTrue();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> cut.appendEvent(other, others))
                    .isInstanceOf(dev.rein.state.StoreException.class);
            proxy.refuseConnections(false);
            cut.appendEvent(other, others);
            cut.appendEvent(run, second); // as the run's StoreListener delivers its held event: the same event again
            org.assertj.core.api.Assertions.assertThat(cut.events(run)).extracting(dev.rein.state.StoredEvent::step)
                    .as("each event once").containsExactly(1, 2);
            org.assertj.core.api.Assertions.assertThat(cut.events(other)).hasSize(1);
        }
    }

    /**
     * Before: a run an earlier Rein stored under an id of about 2,690 bytes (before the 1,000-byte limit; its row fits
     * PostgreSQL's index) was still taken by the store, but its tool calls' idempotency keys (the id and the call's
     * position) and its trace events (indexed by the id and the event's number) are longer index entries than PostgreSQL
     * holds: each such write failed with PostgreSQL's own words ('index row size 2704 exceeds btree version 4 maximum 2704
     * for index "rein_events_run"', with its hint to index an MD5 hash). Each now says the id is too long for this on
     * PostgreSQL, that an earlier Rein stored it, and what to do; nothing is written, and the run is still cancelled.
     */
    @org.junit.jupiter.api.Test
    void aRunAnEarlierReinStoredUnderAnIdPostgresCannotIndexWithItsKeysSaysWhatToDo() throws Exception {
        // characters no compression shortens, as a generated id's: PostgreSQL compresses an index entry when it can
        java.util.Random random = new java.util.Random(24);
        StringBuilder id = new StringBuilder(runId + "_");
        while (id.length() < 2_690) {
            id.append("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".charAt(random.nextInt(62)));
        }
        String older = id.toString();
        dev.rein.state.RunSnapshot paused = dev.rein.state.SnapshotCodec.readSnapshot(dev.rein.state.SnapshotCodec.write(
                snapshot(1, dev.rein.run.RunStatus.WAITING_APPROVAL)).replace(runId, older));
        try (Connection c = otherConnection(); var st = c.prepareStatement("INSERT INTO rein_runs (run_id, version, status, reason, goal,"
                + " model, steps, cost_usd, pending_approvals, created_at, updated_at, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            // the row as an earlier Rein wrote it, without the limit
            Object[] values = {older, paused.version(), paused.status().name(), paused.reason(), paused.goal(), paused.model(),
                    paused.steps(), paused.costUsd().toPlainString(), paused.pendingApprovals().size(),
                    paused.createdAt().toEpochMilli(), paused.updatedAt().toEpochMilli(), dev.rein.state.SnapshotCodec.write(paused)};
            for (int i = 0; i < values.length; i++) {
                st.setObject(i + 1, values[i]);
            }
            st.executeUpdate();
        }
        try {
            org.assertj.core.api.Assertions.assertThat(store.load(older)).contains(paused);
            var intent = new dev.rein.state.IdempotencyRecord(older + ":1:0", older, 1, "toolu_1", "send_message", "h",
                    dev.rein.json.Json.object(), dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1, java.time.Instant.EPOCH,
                    java.time.Instant.EPOCH);
            String shown = older.substring(0, 40) + "…";
            String advice = "run " + shown + " was stored by an earlier Rein under an id of 2690 bytes of UTF-8, more than the"
                    + " 1000 a run id may have now, and PostgreSQL cannot index ";
            String todo = "; cancel the run (rein cancel, or agent.runs().cancel(runId)), which this store still saves, and start"
                    + " its work again as a new run, whose id has at most 1000 bytes (Agent.Builder.runIds)";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.putIdempotency(intent))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessage("cannot record idempotency key " + shown + " in " + url() + ": " + advice
                            + "the idempotency key of its tool calls (its id and the call's position: 2694 bytes), so no call"
                            + " that changes anything can be recorded, nor run" + todo);
            org.assertj.core.api.Assertions.assertThat(store.idempotency(older + ":1:0")).as("nothing was written").isEmpty();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.appendEvent(older,
                            new dev.rein.trace.TraceEvent.Audit(older, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "長い")))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessage("cannot append an event of run " + shown + " in " + url() + ": " + advice
                            + "the entry of its trace events (its id and the event's number), so its trace cannot be kept" + todo);
            org.assertj.core.api.Assertions.assertThat(store.events(older)).isEmpty();

            dev.rein.state.RunSnapshot cancelled = dev.rein.state.Runs.in(store).cancel(older, "its id is too long");
            org.assertj.core.api.Assertions.assertThat(store.load(older)).contains(cancelled);
        } finally {
            for (String table : java.util.List.of("rein_runs", "rein_events", "rein_idempotency")) {
                try (Connection c = otherConnection(); var st = c.prepareStatement("DELETE FROM " + table + " WHERE run_id = ?")) {
                    st.setString(1, older);
                    st.executeUpdate();
                }
            }
        }
    }

    @Override
    protected JdbcRunStore reopened() {
        return JdbcRunStore.connect(url(), user, password);
    }

    @Override
    protected RunStore store() {
        return store;
    }
}
