package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.StoreException;
import java.sql.DriverManager;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteRunStoreTest extends JdbcRunStoreContract {
    @TempDir
    Path dir;
    private JdbcRunStore store;

    @Override
    protected RunStore store() {
        if (store == null) {
            store = JdbcRunStore.sqlite(dir.resolve("state"));
        }
        return store;
    }

    @Override
    protected java.sql.Connection otherConnection() throws java.sql.SQLException {
        return DriverManager.getConnection(url());
    }

    @Override
    protected String url() {
        return "jdbc:sqlite:" + dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE).toAbsolutePath();
    }

    @Override
    protected JdbcRunStore reopened() {
        return JdbcRunStore.sqlite(dir.resolve("state"));
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    /**
     * Before: a store used after its close() opened a new connection for the call, which nothing then closed (a
     * SQLite file kept open, a PostgreSQL session held until the process ended). It now refuses every call saying the
     * store was closed and what to do; a connection the store itself closed after a failure is not such a close.
     */
    @Test
    void aStoreUsedAfterItsCloseSaysSoAndOpensNoConnection() throws Exception {
        store().save(snapshot(1, RunStatus.RUNNING));
        try (var c = otherConnection(); var st = c.createStatement()) {
            st.execute("DROP TABLE rein_events");
        }
        assertThatThrownBy(() -> store().events(runId)).isInstanceOf(StoreException.class).hasMessageContaining("rein_events is missing");
        assertThat(store().load(runId)).as("a connection the store closed after a failure is opened again").isPresent();

        store.close();
        store.close(); // a second close is no failure
        String closed = "the store was closed (its close() was called); open it again (JdbcRunStore.sqlite(directory) or"
                + " JdbcRunStore.connect(url, user, password)) to use it";
        assertThatThrownBy(() -> store.load(runId)).isInstanceOf(StoreException.class)
                .hasMessage("cannot load run " + runId + " in " + url() + ": " + closed);
        assertThatThrownBy(() -> store.list()).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.save(snapshot(2, RunStatus.SUCCEEDED))).isInstanceOf(StoreException.class)
                .hasMessageContaining(closed);
        assertThatThrownBy(() -> store.events(runId)).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.idempotency(runId + ":1")).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.checkWritable()).hasMessageContaining(closed);
        java.lang.reflect.Field connection = JdbcRunStore.class.getDeclaredField("connection");
        connection.setAccessible(true);
        assertThat(connection.get(store)).as("no connection was opened after the close").isNull();
        store = null;
    }

    /**
     * Before: a closed store asked for a run id no row can hold (half a surrogate pair) answered as an open one: load
     * and events found nothing, and a write under it, or under an id over the length limit, was refused for its id,
     * though no call can succeed on a closed store. Every call now says first that the store was closed.
     */
    @Test
    void aClosedStoreSaysSoFirstWhateverTheRunIdItIsGiven() {
        store().save(snapshot(1, RunStatus.RUNNING));
        store.close();
        String closed = "the store was closed (its close() was called)";
        String half = runId + "_\ud83d";
        String tooLong = runId + "_" + "長".repeat(400);
        assertThatThrownBy(() -> store.load(half)).isInstanceOf(StoreException.class)
                .hasMessageStartingWith("cannot load run " + runId + "_\\ud83d in " + url() + ": " + closed);
        assertThatThrownBy(() -> store.events(half)).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        assertThatThrownBy(() -> store.idempotency(half + ":1:0")).isInstanceOf(StoreException.class).hasMessageContaining(closed);
        for (String id : java.util.List.of(half, tooLong)) {
            assertThatThrownBy(() -> store.appendEvent(id, new dev.rein.trace.TraceEvent.Audit(id, 1, java.time.Instant.now(), "a", "t",
                            "c", "u", "t", "閉じた後")))
                    .isInstanceOf(StoreException.class).hasMessageContaining(closed);
            assertThatThrownBy(() -> store.putIdempotency(new dev.rein.state.IdempotencyRecord(id + ":1:0", id, 1, "toolu_1",
                            "send_message", "h", dev.rein.json.Json.object(), dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1,
                            java.time.Instant.EPOCH, java.time.Instant.EPOCH)))
                    .isInstanceOf(StoreException.class).hasMessageContaining(closed);
        }
        store = null;
    }

    /**
     * Before: a table dropped while the store was open (a database tool, a cleanup script) failed the next use with
     * SQLite's words alone, "[SQLITE_ERROR] SQL error or missing database (no such table: rein_runs)"; it now names the
     * table and says that opening the store creates the tables it lacks, for the run store and the memory store alike.
     */
    @Test
    void aTableDroppedWhileTheStoreIsOpenIsNamedWithWhatToDo() throws Exception {
        store().save(snapshot(1, RunStatus.RUNNING));
        try (JdbcMemoryStore memory = JdbcMemoryStore.sqlite(dir.resolve("state"))) {
            try (var c = otherConnection(); var st = c.createStatement()) {
                st.execute("DROP TABLE rein_runs");
                st.execute("DROP TABLE rein_memory");
            }
            assertThatThrownBy(() -> store().load(runId)).isInstanceOf(StoreException.class)
                    .hasMessageContaining("no such table: rein_runs")
                    .hasMessageContaining("the table rein_runs is missing from the database")
                    .hasMessageContaining("JdbcRunStore.sqlite(directory) or JdbcRunStore.connect(url, user, password)")
                    .hasMessageContaining("creates the tables it lacks");
            assertThatThrownBy(() -> store().list()).hasMessageContaining("the table rein_runs is missing");
            assertThatThrownBy(() -> memory.list(new dev.rein.memory.MemoryScope("acme", "alice")))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("the table rein_memory is missing from the database")
                    .hasMessageContaining("JdbcMemoryStore.sqlite(directory) or JdbcMemoryStore.connect(url, user, password)");
        }
        store.close();
        store = null;
        assertThat(store().load(runId)).as("opened again, the store has its tables again, empty").isEmpty();
    }

    @Test
    void theDatabaseFileLivesInTheConfiguredDirectoryAndReopens() {
        store();
        assertThat(dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE)).exists();
        try (JdbcRunStore again = JdbcRunStore.sqlite(dir.resolve("state"))) {
            assertThat(again.list()).isEmpty();
        }
    }

    @Test
    void aStoreOfANewerSchemaIsRefusedAndLeftAsItWas() throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("newer"));
        String url = "jdbc:sqlite:" + dir.resolve("newer").resolve(JdbcRunStore.SQLITE_FILE);
        try (var connection = DriverManager.getConnection(url)) {
            connection.createStatement().executeUpdate("CREATE TABLE rein_schema (version INTEGER NOT NULL)");
            connection.createStatement().executeUpdate("INSERT INTO rein_schema (version) VALUES (2)");
            connection.createStatement().executeUpdate("CREATE TABLE rein_runs_v2 (id TEXT)");
        }
        assertThatThrownBy(() -> JdbcRunStore.sqlite(dir.resolve("newer"))).isInstanceOf(StoreException.class)
                .hasMessageContaining("schema version 2").hasMessageContaining("upgrade Rein");
        java.util.List<String> tables = new java.util.ArrayList<>();
        try (var connection = DriverManager.getConnection(url);
             var rs = connection.createStatement().executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        assertThat(tables).as("a store this Rein refuses gets none of its tables").containsExactly("rein_runs_v2", "rein_schema");
    }

    @Test
    void aRunWhoseStoredSnapshotWasDamagedIsNamedWithWhatToDo() throws Exception {
        store().save(snapshot(1, RunStatus.WAITING_APPROVAL));
        String url = "jdbc:sqlite:" + dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE);
        for (String damage : new String[] {"substr(snapshot, 1, 200)", "'{}'"}) {
            try (var connection = DriverManager.getConnection(url)) {
                connection.createStatement().executeUpdate("UPDATE rein_runs SET snapshot = " + damage);
            }

            // Before: "cannot read a stored run snapshot: Cannot construct instance of `dev.rein.state.RunSnapshot`,
            // problem: runId; at [Source: UNKNOWN; byte offset: #UNKNOWN]", naming neither the run nor a remedy.
            assertThatThrownBy(() -> store().load(runId)).isInstanceOf(StoreException.class)
                    .hasMessageStartingWith("cannot load run " + runId + " from " + url + ": the stored run snapshot is damaged")
                    .hasMessageContaining("restore the run store from a backup")
                    .hasMessageNotContaining("[Source").hasMessageNotContaining("dev.rein.state");
        }
        assertThat(store().list()).as("the listing still shows it").singleElement()
                .satisfies(run -> assertThat(run.runId()).isEqualTo(runId));
    }

    /**
     * A typed run whose stored output schema no longer compiles (here a row edited by hand) is still loaded, listed and
     * cancelled, its schema kept as stored; only its resume is refused (rein-core TypedRunResumeTest). Before, load and
     * cancel failed with "the stored run snapshot is damaged" (review rev78's probe on the earlier code).
     */
    @Test
    void aTypedRunWhoseStoredSchemaCannotBeUsedIsStillLoadedAndCancelled() throws Exception {
        RunSnapshot first = snapshot(1, RunStatus.WAITING_APPROVAL);
        store().save(new RunSnapshot(first.format(), first.runId(), first.version(), first.goal(), first.model(),
                first.status(), first.reason(), first.message(), first.answer(), first.createdAt(), first.updatedAt(),
                first.activeMillis(), first.principal(), first.history(), first.steps(), first.usage(), first.costUsd(),
                first.verificationFailures(), first.toolCallCounts(), first.state(), first.approvals(), first.finish(),
                first.conversation(), first.secretsHandedOut(), first.criticRounds(), dev.rein.state.StoredOutputSchema.of(
                        dev.rein.model.OutputSchema.fromJson("Refund", "{\"type\":\"object\",\"required\":[\"x\"]}"))));
        try (var connection = DriverManager.getConnection(url())) {
            assertThat(connection.createStatement().executeUpdate("UPDATE rein_runs SET snapshot = replace(snapshot,"
                    + " '\"type\":\"object\",\"required\"', '\"type\":5,\"required\"')")).isEqualTo(1);
        }

        assertThat(store().list()).singleElement().satisfies(run -> assertThat(run.runId()).isEqualTo(runId));
        RunSnapshot loaded = store().load(runId).orElseThrow();
        dev.rein.state.Runs.in(store()).cancel(runId, "no longer needed");

        assertThat(loaded.outputSchema().json().path("schema").path("type").asInt()).isEqualTo(5);
        RunSnapshot cancelled = store().load(runId).orElseThrow();
        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(cancelled.outputSchema()).isEqualTo(loaded.outputSchema());
    }

    @Test
    void aStoreThatCannotBeWrittenIsReadAndSaysWhyItCannotBeWrittenAndWhatToDo() {
        store().save(snapshot(1, RunStatus.WAITING_APPROVAL));
        Path file = dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE);
        // opened read-only, as SQLite opens a file this user may not write (root writes any file, so a test cannot chmod)
        try (JdbcRunStore readOnly = JdbcRunStore.connect("jdbc:sqlite:file:" + file + "?mode=ro", null, null)) {
            assertThat(readOnly.list()).extracting(r -> r.runId()).containsExactly(runId);
            assertThat(readOnly.load(runId)).isPresent();
            // Before: "cannot save run R in jdbc:sqlite:...: [SQLITE_READONLY] Attempt to write a readonly database
            // (attempt to write a readonly database)", with nothing to do about it.
            for (org.assertj.core.api.ThrowableAssert.ThrowingCallable write : java.util.List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                    readOnly::checkWritable, () -> readOnly.save(snapshot(2, RunStatus.RUNNING)))) {
                assertThatThrownBy(write).isInstanceOf(StoreException.class)
                        .hasMessageContaining("SQLITE_READONLY")
                        .hasMessageContaining("cannot be written")
                        .hasMessageContaining("make the database file and its directory writable");
            }
        }
        assertThat(store().load(runId).orElseThrow().version()).as("nothing was written").isEqualTo(1);
    }

    /**
     * Before: a store an earlier Rein made (its events without an append key) could not be opened read-only at all, since
     * opening it added the column ('[SQLITE_READONLY] Attempt to write a readonly database'), so rein show could not read
     * an archived copy.
     */
    @Test
    void aStoreAnEarlierReinMadeIsStillReadWhenItCannotBeWritten() throws Exception {
        store().save(snapshot(1, RunStatus.SUCCEEDED));
        store().appendEvent(runId, new dev.rein.trace.TraceEvent.Audit(runId, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "古い"));
        try (java.sql.Connection c = otherConnection(); java.sql.Statement st = c.createStatement()) {
            // the events table as an earlier Rein made it (SQLite cannot drop a UNIQUE column)
            st.execute("CREATE TABLE rein_events_earlier AS SELECT id, run_id, step, type, time_ms, event FROM rein_events");
            st.execute("DROP TABLE rein_events");
            st.execute("ALTER TABLE rein_events_earlier RENAME TO rein_events");
            st.execute("CREATE INDEX rein_events_run ON rein_events (run_id, id)");
        }
        Path file = dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE);
        try (JdbcRunStore readOnly = JdbcRunStore.connect("jdbc:sqlite:file:" + file + "?mode=ro", null, null)) {
            assertThat(readOnly.load(runId)).isPresent();
            assertThat(readOnly.events(runId)).extracting(dev.rein.state.StoredEvent::step).containsExactly(1);
        }
    }

    @Test
    void aStoreLockedByAnotherProcessSaysSoAndToTryAgainWhenItIsDone() throws Exception {
        store().save(snapshot(1, RunStatus.WAITING_APPROVAL));
        String url = "jdbc:sqlite:" + dir.resolve("state").resolve(JdbcRunStore.SQLITE_FILE);
        // another process with a write transaction left open (a database browser with unsaved edits)
        try (var other = DriverManager.getConnection(url)) {
            other.setAutoCommit(false);
            other.createStatement().executeUpdate("DELETE FROM rein_schema WHERE 1 = 0");
            other.createStatement().executeUpdate("UPDATE rein_runs SET steps = steps");
            assertThat(store().list()).as("reading is not blocked").hasSize(1);
            // Before: "cannot save run R in jdbc:sqlite:...: [SQLITE_BUSY] The database file is locked (database is locked)".
            assertThatThrownBy(() -> ((JdbcRunStore) store()).checkWritable()).isInstanceOf(StoreException.class)
                    .hasMessageContaining("SQLITE_BUSY")
                    .hasMessageContaining("locked by another process")
                    .hasMessageContaining("try again when that process is done");
            other.rollback();
        }
        ((JdbcRunStore) store()).checkWritable();
        store().save(snapshot(2, RunStatus.RUNNING));
    }

    /**
     * Before: a store directory that was a file said only "cannot create the run store directory X: X" (the JDK's
     * message is the path alone), and a rein.db that was a directory SQLite's "unable to open database file", with
     * nothing on what to do.
     */
    @Test
    void aStoreDirectoryThatIsAFileOrADatabaseFileThatIsADirectoryIsNamedWithWhatToDo() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("not-a-folder"), "x");
        assertThatThrownBy(() -> JdbcRunStore.sqlite(file)).isInstanceOf(StoreException.class)
                .hasMessageContaining(file + " is a file, not a directory")
                .hasMessageContaining("give a directory this user may write");
        assertThatThrownBy(() -> JdbcMemoryStore.sqlite(file)).isInstanceOf(StoreException.class)
                .hasMessageContaining(file + " is a file, not a directory");
        Path home = dir.resolve("home");
        java.nio.file.Files.createDirectories(home.resolve(JdbcRunStore.SQLITE_FILE));
        assertThatThrownBy(() -> JdbcRunStore.sqlite(home)).isInstanceOf(StoreException.class)
                .hasMessageContaining(home.resolve(JdbcRunStore.SQLITE_FILE).toAbsolutePath().toString())
                .hasMessageContaining("cannot be opened")
                .hasMessageContaining("is a directory");
    }

    /**
     * A row whose listing columns cannot be read and whose run id, edited outside Rein, does not read back as stored (not
     * UTF-8, or a BLOB) is still listed from its snapshot, as it was when the listing read every snapshot with its
     * columns: looking its snapshot up by the id as read finds nothing, and the row was left out saying nothing.
     */
    @Test
    void aRowWithUnreadableColumnsAndAnIdThatDoesNotReadBackIsStillListed() throws Exception {
        JdbcRunStore store = (JdbcRunStore) store();
        for (String id : java.util.List.of("a", "b", "c")) {
            store.save(snapshotOf(id, RunStatus.SUCCEEDED));
        }
        try (var connection = otherConnection(); var st = connection.createStatement()) {
            st.executeUpdate("UPDATE rein_runs SET status = 'DONE', run_id = CAST(X'72756EFF' AS TEXT) WHERE run_id = 'b'");
            st.executeUpdate("UPDATE rein_runs SET status = 'DONE', run_id = X'72756E5F626C6F62' WHERE run_id = 'c'");
        }
        java.util.List<String> problems = new java.util.ArrayList<>();
        var listed = store.list(problems::add);
        assertThat(listed).extracting(dev.rein.state.RunSummary::runId)
                .containsExactlyInAnyOrder("a", "run\uFFFD", "run_blob");
        assertThat(listed).allSatisfy(r ->
                assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(problems).isEmpty();
    }
}
