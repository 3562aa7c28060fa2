package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunSummary;
import dev.rein.state.SnapshotCodec;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the JDBC run store must also do, on SQLite and PostgreSQL alike: its rows can be edited outside Rein. */
abstract class JdbcRunStoreContract extends RunStoreContract {
    /** A connection of its own to the store's database (another program), closed by the caller. */
    protected abstract Connection otherConnection() throws SQLException;

    /** The store's URL as its messages name it. */
    protected abstract String url();

    RunSnapshot snapshotOf(String id, RunStatus status) {
        return SnapshotCodec.readSnapshot(SnapshotCodec.write(snapshot(1, status)).replace(runId, id));
    }

    private void edit(String sql) throws SQLException {
        try (Connection c = otherConnection(); Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    /**
     * Before: one row whose listing columns were edited outside Rein (a status Rein does not know, a cost
     * that is no number, a NULL) made list() fail with IllegalArgumentException 'No enum constant
     * dev.rein.run.RunStatus.DONE' or NumberFormatException, so 'rein runs' listed none of the runs.
     */
    @Test
    void rowsEditedOutsideReinAreListedFromTheirSnapshotOrLeftOutSayingWhy() throws Exception {
        String ok = runId + "_ok", status = runId + "_status", cost = runId + "_cost", nulls = runId + "_nulls",
                broken = runId + "_broken";
        for (String id : List.of(ok, status, cost, nulls, broken)) {
            ((JdbcRunStore) store()).save(snapshotOf(id, RunStatus.SUCCEEDED));
        }
        edit("UPDATE rein_runs SET status = 'DONE' WHERE run_id = '" + status + "'");
        edit("UPDATE rein_runs SET cost_usd = 'about 1 yen' WHERE run_id = '" + cost + "'");
        edit("UPDATE rein_runs SET reason = NULL, goal = NULL, model = NULL, cost_usd = NULL, steps = NULL, created_at = NULL"
                + " WHERE run_id = '" + nulls + "'");
        edit("UPDATE rein_runs SET status = 'DONE', snapshot = '{\"runId\":' WHERE run_id = '" + broken + "'");

        List<String> problems = new ArrayList<>();
        List<RunSummary> listed = ((JdbcRunStore) store()).list(problems::add).stream()
                .filter(r -> r.runId().startsWith(runId)).toList();
        assertThat(listed).extracting(RunSummary::runId).containsExactlyInAnyOrder(ok, status, cost, nulls);
        assertThat(listed).allSatisfy(r -> {
            assertThat(r.status()).as("read from the run's snapshot, as 'rein show' reads it").isEqualTo(RunStatus.SUCCEEDED);
            assertThat(r.costUsd()).isEqualByComparingTo("0.012345");
            assertThat(r.goal()).isEqualTo("A-104 はなぜ遅れている?");
            assertThat(r.reason()).isNotNull();
            assertThat(r.steps()).isEqualTo(1);
        });
        assertThat(problems).singleElement().asString()
                .startsWith("run " + broken + " in " + url() + " cannot be listed: its status 'DONE' is not one Rein knows")
                .contains("its snapshot is damaged")
                .contains("restore the run store from a backup");
        assertThat(store().list()).as("the listing without a reader of its problems leaves the row out as well")
                .extracting(RunSummary::runId).contains(ok).doesNotContain(broken);
    }

    /**
     * Before: a run id holding half a UTF-16 surrogate pair (text cut inside an emoji), which no run can have, reached the
     * JDBC driver, which sends it with '?' in its place: load, events and idempotency of "run_x\ud83d" read run "run_x?",
     * another run, and appendEvent added an event to it. Such an id now finds nothing, and a write under it is refused
     * saying why, on every database (as the memory store does a scope). On PostgreSQL an id with NUL, which its text
     * cannot hold, finds nothing too, rather than fail with PostgreSQL's own words.
     */
    @Test
    void aRunIdWithHalfASurrogatePairNeverReadsOrWritesTheRunWhoseIdHasAQuestionMarkThere() {
        JdbcRunStore store = (JdbcRunStore) store();
        String other = runId + "_?";
        store.save(snapshotOf(other, RunStatus.RUNNING));
        store.appendEvent(other, new dev.rein.trace.TraceEvent.Audit(other, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "他の実行"));
        var intent = new dev.rein.state.IdempotencyRecord(other + ":1:0", other, 1, "toolu_1", "send_message", "h",
                dev.rein.json.Json.object(), dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1, java.time.Instant.EPOCH,
                java.time.Instant.EPOCH);
        store.putIdempotency(intent);

        String half = runId + "_\ud83d";
        assertThat(store.load(half)).isEmpty();
        assertThat(store.events(half)).isEmpty();
        assertThat(store.idempotency(half + ":1:0")).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.appendEvent(half,
                        new dev.rein.trace.TraceEvent.Audit(half, 2, java.time.Instant.now(), "a", "t", "c", "u", "t", "紛れ込み")))
                .isInstanceOf(dev.rein.state.StoreException.class)
                .hasMessageContaining("cannot append an event of run " + runId + "_\\ud83d")
                .hasMessageContaining(": the run id is refused, as it holds half a UTF-16 surrogate pair (U+D83D alone")
                .hasMessageEndingWith("; give the run an id of whole characters");
        assertThat(store.events(other)).as("the other run's events are its own").hasSize(1);
        assertThat(store.load(runId + "_\u0000")).isEmpty();
        assertThat(store.events(runId + "_\u0000")).isEmpty();
    }

    /**
     * Before: a run id over about 2,700 bytes (more than a PostgreSQL index entry holds) failed every write on PostgreSQL
     * with its own words ('index row size 3012 exceeds btree version 4 maximum 2704 for index "rein_runs_pkey"'), while
     * SQLite stored it. Both now store an id of up to 1,000 bytes of UTF-8 (the longest Temporal takes too) and refuse a
     * longer one, before any row is written, saying how long it is and what to do.
     */
    @Test
    void aRunIdOfTheMostBytesIsStoredEverywhereAndALongerOneIsRefusedSayingWhy() throws SQLException {
        String longest = runId + "_" + "長".repeat((JdbcRunStore.LONGEST_RUN_ID_BYTES - runId.length() - 1) / 3);
        longest += "x".repeat(JdbcRunStore.LONGEST_RUN_ID_BYTES - longest.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        JdbcRunStore store = (JdbcRunStore) store();
        store.save(snapshotOf(longest, RunStatus.RUNNING));
        assertThat(store.load(longest)).isPresent();
        store.appendEvent(longest, new dev.rein.trace.TraceEvent.Audit(longest, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "長い"));
        assertThat(store.events(longest)).hasSize(1);
        var intent = new dev.rein.state.IdempotencyRecord(longest + ":1:0", longest, 1, "toolu_1", "send_message", "h",
                dev.rein.json.Json.object(), dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1, java.time.Instant.EPOCH,
                java.time.Instant.EPOCH);
        store.putIdempotency(intent);
        assertThat(store.idempotency(longest + ":1:0")).contains(intent);

        for (String tooLong : List.of(longest + "x", runId + "_" + "値".repeat(1_000))) {
            int bytes = tooLong.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            String why = "the run id has " + bytes + " bytes of UTF-8, more than the 1000 a run id may have in this store (PostgreSQL"
                    + " cannot index a longer one); give runs shorter ids (Agent.Builder.runIds)";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.save(snapshotOf(tooLong, RunStatus.RUNNING)))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageStartingWith("cannot save run " + tooLong.substring(0, 40) + "…")
                    .hasMessageEndingWith(why);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.appendEvent(tooLong,
                            new dev.rein.trace.TraceEvent.Audit(tooLong, 1, java.time.Instant.now(), "a", "t", "c", "u", "t", "長い")))
                    .isInstanceOf(dev.rein.state.StoreException.class).hasMessageEndingWith(why);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.putIdempotency(new dev.rein.state.IdempotencyRecord(
                            tooLong + ":1:0", tooLong, 1, "toolu_1", "send_message", "h", dev.rein.json.Json.object(),
                            dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH)))
                    .isInstanceOf(dev.rein.state.StoreException.class).hasMessageEndingWith(why);
            assertThat(store.load(tooLong)).as("nothing was written").isEmpty();
            assertThat(store.events(tooLong)).isEmpty();
        }
        assertThat(store.load(longest)).as("the store is still usable").isPresent();
        // a server's store is shared by the class's tests: one that narrows the columns as an earlier Rein made them
        // could not while these rows are there
        for (String table : List.of("rein_runs", "rein_events", "rein_idempotency")) {
            edit("DELETE FROM " + table + " WHERE run_id = '" + longest + "'");
        }
    }

    /**
     * Before: the limit on a run id's bytes (abe6792d) was applied to every write, so a run an earlier Rein stored under a
     * longer id (any length on SQLite, up to about 2,700 bytes on PostgreSQL) was loaded but could no longer be saved: a
     * run it paused for approval could be neither approved, resumed nor cancelled, and the message said to give runs
     * shorter ids, which a stored run cannot have. The limit now applies to an id the store does not hold yet.
     */
    @Test
    void aRunAnEarlierReinStoredUnderALongerIdIsStillSavedCancelledAndRecorded() throws SQLException {
        String older = runId + "_" + "旧".repeat(497);
        assertThat(older.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(1_504);
        RunSnapshot paused = snapshotOf(older, RunStatus.WAITING_APPROVAL);
        JdbcRunStore store = (JdbcRunStore) store();
        try (Connection c = otherConnection(); var st = c.prepareStatement("INSERT INTO rein_runs (run_id, version, status, reason, goal,"
                + " model, steps, cost_usd, pending_approvals, created_at, updated_at, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            // the row as an earlier Rein wrote it, without the limit
            Object[] values = {older, paused.version(), paused.status().name(), paused.reason(), paused.goal(), paused.model(),
                    paused.steps(), paused.costUsd().toPlainString(), paused.pendingApprovals().size(),
                    paused.createdAt().toEpochMilli(), paused.updatedAt().toEpochMilli(), SnapshotCodec.write(paused)};
            for (int i = 0; i < values.length; i++) {
                st.setObject(i + 1, values[i]);
            }
            st.executeUpdate();
        }
        try {
            assertThat(store.load(older)).contains(paused);
            var intent = new dev.rein.state.IdempotencyRecord(older + ":1:0", older, 1, "toolu_1", "send_message", "h",
                    dev.rein.json.Json.object(), dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1, java.time.Instant.EPOCH,
                    java.time.Instant.EPOCH);
            store.putIdempotency(intent);
            assertThat(store.idempotency(older + ":1:0")).contains(intent);

            RunSnapshot cancelled = dev.rein.state.Runs.in(store).cancel(older, "no longer needed");
            assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(store.load(older)).contains(cancelled);
            assertThat(store.events(older)).as("the cancellation's end of the trace").extracting(dev.rein.state.StoredEvent::type)
                    .containsExactly("state_change", "run_finished");

            // an id of as many bytes that the store does not hold is still refused, before anything is written
            String other = older + "x";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.save(snapshotOf(other, RunStatus.RUNNING)))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageEndingWith("the run id has 1505 bytes of UTF-8, more than the 1000 a run id may have in this store"
                            + " (PostgreSQL cannot index a longer one); give runs shorter ids (Agent.Builder.runIds)");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.appendEvent(other, audit(other, 1)))
                    .isInstanceOf(dev.rein.state.StoreException.class).hasMessageContaining("the run id has 1505 bytes");
            assertThat(store.events(other)).isEmpty();
        } finally {
            // the class's tests share a server's store: one that narrows the columns as an earlier Rein made them could not
            for (String table : List.of("rein_runs", "rein_events", "rein_idempotency")) {
                edit("DELETE FROM " + table + " WHERE run_id = '" + older + "'");
            }
        }
    }

    /**
     * Before: SQLite stored a model name longer than 200 characters (a vLLM server names its model by the path
     * it was served from) and PostgreSQL refused every save of such a run ('value too long for type character
     * varying(200)'), so it ended FAILED/store_error at its first checkpoint there alone.
     */
    @Test
    void aModelNameOfAnyLengthIsStoredOnEveryDatabase() {
        String model = "/mnt/models/" + "組織/".repeat(60) + "Llama-3.1-8B-Instruct";
        String id = runId + "_model";
        RunSnapshot s = SnapshotCodec.readSnapshot(SnapshotCodec.write(snapshotOf(id, RunStatus.RUNNING)).replace("claude-sonnet-5", model));
        ((JdbcRunStore) store()).save(s);
        assertThat(store().load(id).orElseThrow().model()).isEqualTo(model);
        assertThat(store().list()).filteredOn(r -> r.runId().equals(id)).singleElement()
                .satisfies(r -> assertThat(r.model()).isEqualTo(model));
    }

    /**
     * Before: PostgreSQL's text cannot hold U+0000, so a run whose model name (the provider's, or an application's
     * Model.name()) or reason held a NUL failed its every save there with PostgreSQL's words ('invalid byte sequence for
     * encoding "UTF8": 0x00'), while SQLite stored it; so did a write under a run id or idempotency key with one. The
     * listing's model and reason now show a NUL as U+FFFD on every database, as its goal does (the snapshot keeps them
     * exactly), and PostgreSQL refuses such an id saying why, before anything is written.
     */
    @Test
    void aNulInAModelNameOrReasonIsStoredEverywhereAndAnIdWithOneIsRefusedOnPostgresqlSayingWhy() {
        JdbcRunStore store = (JdbcRunStore) store();
        String id = runId + "_nul";
        RunSnapshot first = SnapshotCodec.readSnapshot(SnapshotCodec.write(snapshotOf(id, RunStatus.RUNNING))
                .replace("claude-sonnet-5", "claude\\u0000sonnet"));
        assertThat(first.model()).isEqualTo("claude\u0000sonnet");
        store.save(first);
        RunSnapshot failed = first.withStatus(RunStatus.FAILED, "guard\u0000x", "stopped", first.updatedAt().plusSeconds(1));
        store.save(failed);
        assertThat(store.load(id)).contains(failed);
        assertThat(store.list()).filteredOn(r -> r.runId().equals(id)).singleElement().satisfies(r -> {
            assertThat(r.model()).isEqualTo("claude\uFFFDsonnet");
            assertThat(r.reason()).isEqualTo("guard\uFFFDx");
        });

        if (url().startsWith("jdbc:postgresql:")) {
            String nul = runId + "_\u0000x";
            String why = "the run id is refused, as it holds the NUL character (U+0000) at index " + (runId.length() + 1)
                    + ", which PostgreSQL's text cannot hold; give the run an id of printable characters";
            // (the snapshot's JSON writes the NUL as an escape)
            RunSnapshot nulRun = SnapshotCodec.readSnapshot(SnapshotCodec.write(snapshot(1, RunStatus.RUNNING)).replace(runId, runId + "_\\u0000x"));
            assertThat(nulRun.runId()).isEqualTo(nul);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.save(nulRun))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessage("cannot save run " + runId + "_\\x00x in " + url() + ": " + why);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.appendEvent(nul, audit(nul, 1)))
                    .isInstanceOf(dev.rein.state.StoreException.class).hasMessageEndingWith(why);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.putIdempotency(new dev.rein.state.IdempotencyRecord(
                            nul + ":1:0", nul, 1, "toolu_1", "send_message", "h", dev.rein.json.Json.object(),
                            dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1, java.time.Instant.EPOCH, java.time.Instant.EPOCH)))
                    .isInstanceOf(dev.rein.state.StoreException.class).hasMessageEndingWith(why);
            assertThat(store.load(id)).as("the store is still usable").contains(failed);
        }
    }

    /**
     * Before: a cost whose decimal form is longer than 40 characters was stored on SQLite, but PostgreSQL refused the
     * run's every save ('value too long for type character varying(40)'), so the run ended FAILED/store_error there
     * alone. A per-use price given as a double ({@code new BigDecimal(0.01)}, exactly
     * 0.01000000000000000020816681711721685132943093776702880859375) is multiplied by the uses unrounded; a price's
     * digits are the application's. A store an earlier Rein created with the VARCHAR(40) column has it TEXT once opened.
     */
    @Test
    void aCostOfAnyPrecisionIsStoredOnEveryDatabaseAlsoInAStoreMadeWithTheOldColumn() throws Exception {
        store();
        if (url().startsWith("jdbc:postgresql:")) {
            try (Connection c = otherConnection(); Statement st = c.createStatement()) {
                st.execute("ALTER TABLE rein_runs ALTER COLUMN cost_usd TYPE VARCHAR(40)"); // as an earlier Rein created it
            }
        }
        java.math.BigDecimal cost = new java.math.BigDecimal(0.01).multiply(java.math.BigDecimal.valueOf(3))
                .add(new java.math.BigDecimal("1234.5"));
        assertThat(cost.toPlainString()).hasSizeGreaterThan(40);
        String id = runId + "_cost";
        RunSnapshot f = snapshotOf(id, RunStatus.SUCCEEDED);
        RunSnapshot s = new RunSnapshot(f.format(), f.runId(), f.version(), f.goal(), f.model(), f.status(), f.reason(),
                f.message(), f.answer(), f.createdAt(), f.updatedAt(), f.activeMillis(), f.principal(), f.history(), f.steps(),
                f.usage(), cost, f.verificationFailures(), f.toolCallCounts(), f.state(), f.approvals(), f.finish(),
                f.conversation());
        try (JdbcRunStore reopened = reopened()) {
            reopened.save(s);
            // (the snapshot's codec reads a cost through a double, a matter of rein-core: the listing keeps every digit)
            assertThat(reopened.load(id).orElseThrow().costUsd())
                    .isCloseTo(cost, org.assertj.core.data.Offset.offset(new java.math.BigDecimal("1E-9")));
            assertThat(reopened.list()).filteredOn(r -> r.runId().equals(id)).singleElement()
                    .satisfies(r -> assertThat(r.costUsd()).isEqualTo(cost));
        }
    }

    /**
     * Before: a run id an application chose ({@code Agent.Builder.runIds}, any text of whole characters) longer than 200
     * characters was stored on SQLite, but PostgreSQL refused its every save ('value too long for type character
     * varying(200)'), and an idempotency key (the id and the call's position) over 300 its every side effect's intent.
     * A store an earlier Rein created with those VARCHAR columns has them TEXT once opened. (Checked with an id of 336
     * characters, 500 bytes, within the limit of {@link JdbcRunStore#LONGEST_RUN_ID_BYTES}: a longer one is refused, see
     * aRunIdOfTheMostBytesIsStoredEverywhereAndALongerOneIsRefusedSayingWhy.)
     */
    @Test
    void aRunIdLongerThanTheOldColumnsHeldIsStoredOnEveryDatabaseAlsoInAStoreMadeWithThem() throws Exception {
        store();
        if (url().startsWith("jdbc:postgresql:")) {
            try (Connection c = otherConnection(); Statement st = c.createStatement()) {
                // the columns as an earlier Rein created them
                st.execute("ALTER TABLE rein_runs ALTER COLUMN run_id TYPE VARCHAR(200)");
                st.execute("ALTER TABLE rein_idempotency ALTER COLUMN idempotency_key TYPE VARCHAR(300),"
                        + " ALTER COLUMN run_id TYPE VARCHAR(200)");
                st.execute("ALTER TABLE rein_events ALTER COLUMN run_id TYPE VARCHAR(200)");
            }
        }
        String id = runId + "_注文/" + "顧客-1234/".repeat(40);
        assertThat(id.length()).as("longer than the old key column, within the limit on bytes").isGreaterThan(300);
        assertThat(id.getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(JdbcRunStore.LONGEST_RUN_ID_BYTES);
        RunSnapshot first = snapshotOf(id, RunStatus.RUNNING);
        try (JdbcRunStore reopened = reopened()) {
            reopened.save(first);
            RunSnapshot second = first.withApprovals(first.approvals(), first.updatedAt().plusSeconds(1));
            reopened.save(second);
            assertThat(reopened.load(id)).contains(second);
            assertThat(reopened.list()).extracting(RunSummary::runId).contains(id);
            String key = id + ":1:0";
            var intent = new dev.rein.state.IdempotencyRecord(key, id, 1, "toolu_1", "send_message", "h",
                    dev.rein.json.Json.parse("{\"a\":\"値\"}"), dev.rein.state.IdempotencyRecord.Status.INTENT, null, 1,
                    first.createdAt(), first.createdAt());
            reopened.putIdempotency(intent);
            assertThat(reopened.idempotency(key)).contains(intent);
            reopened.appendEvent(id, audit(id, 1));
            assertThat(reopened.events(id)).extracting(dev.rein.state.StoredEvent::step).containsExactly(1);
        }
    }

    /** A store an earlier Rein created, whose events table has no append key, gets one when opened, and keeps its events. */
    @Test
    void aStoreWhoseEventsTableHasNoAppendKeyGetsOneAndKeepsItsEvents() throws Exception {
        store();
        String run = runId + "_old";
        try (Connection c = otherConnection(); Statement st = c.createStatement()) {
            st.execute("DROP TABLE rein_events");
            st.execute("CREATE TABLE rein_events (id " + (url().startsWith("jdbc:sqlite:") ? "INTEGER PRIMARY KEY AUTOINCREMENT"
                    : "BIGSERIAL PRIMARY KEY") + ", run_id VARCHAR(200) NOT NULL, step INTEGER, type VARCHAR(64), time_ms BIGINT,"
                    + " event TEXT NOT NULL)");
            st.execute("INSERT INTO rein_events (run_id, step, type, time_ms, event) VALUES ('" + run + "', 1, 'audit', 0, '"
                    + SnapshotCodec.event(0, audit(run, 1)).json().replace("'", "''") + "')");
        }
        try (JdbcRunStore reopened = reopened()) {
            reopened.appendEvent(run, audit(run, 2));
            assertThat(reopened.events(run)).extracting(dev.rein.state.StoredEvent::step).containsExactly(1, 2);
        }
        store().appendEvent(run, audit(run, 3));
        assertThat(store().events(run)).extracting(dev.rein.state.StoredEvent::step).containsExactly(1, 2, 3);
    }

    /**
     * Before: once the events table had been renamed aside (its indexes keep their names), the new table the store made
     * got no unique index on its append key (the name was taken), and every append failed on its ON CONFLICT target.
     */
    @Test
    void eventsAreStoredInANewTableWhenTheOldOneWasRenamedAside() throws Exception {
        store();
        String run = runId + "_aside";
        try (Connection c = otherConnection(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE rein_events RENAME TO rein_events_aside");
        }
        try (JdbcRunStore reopened = reopened()) {
            reopened.appendEvent(run, audit(run, 1));
            assertThat(reopened.events(run)).extracting(dev.rein.state.StoredEvent::step).containsExactly(1);
            try (Connection c = otherConnection(); Statement st = c.createStatement()) {
                st.execute("INSERT INTO rein_events (run_id, event, append_key) VALUES ('" + run + "', '{}', 'k')");
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.execute("INSERT INTO rein_events (run_id, event, append_key)"
                        + " VALUES ('" + run + "', '{}', 'k')")).as("the new table's append key is unique too").isInstanceOf(SQLException.class);
            }
        } finally {
            try (Connection c = otherConnection(); Statement st = c.createStatement()) {
                st.execute("DROP TABLE rein_events");
                st.execute("ALTER TABLE rein_events_aside RENAME TO rein_events");
            }
        }
    }

    private static dev.rein.trace.TraceEvent audit(String run, int step) {
        return new dev.rein.trace.TraceEvent.Audit(run, step, java.time.Instant.now(), "a", "t", "c", "u", "t", "古い" + step);
    }

    /** Another store on the same database, prepared when it is opened. */
    protected abstract JdbcRunStore reopened();

    /**
     * Probe: two processes (two stores, each its own connection) that loaded one version of a run and save the next
     * at the same moment: exactly one save is taken, the other is a conflict, every round; the stored run is the winner's.
     */
    @Test
    void twoStoresSavingTheSameNextVersionAtOnceHaveExactlyOneSaveTaken() throws Exception {
        store().save(snapshot(1, RunStatus.RUNNING));
        try (JdbcRunStore other = reopened();
             var pool = java.util.concurrent.Executors.newFixedThreadPool(2)) {
            for (long v = 2; v <= 21; v++) {
                RunSnapshot mine = snapshot(v, RunStatus.RUNNING);
                RunSnapshot theirs = snapshot(v, RunStatus.WAITING_APPROVAL);
                var start = new java.util.concurrent.CountDownLatch(1);
                java.util.function.Function<Runnable, java.util.concurrent.Future<Boolean>> race = save -> pool.submit(() -> {
                    start.await();
                    try {
                        save.run();
                        return true;
                    } catch (dev.rein.state.StoreConflictException e) {
                        return false;
                    }
                });
                var a = race.apply(() -> store().save(mine));
                var b = race.apply(() -> other.save(theirs));
                start.countDown();
                boolean aWon = a.get();
                boolean bWon = b.get();
                assertThat(aWon ^ bWon).as("exactly one save of version " + v + " taken (mine " + aWon + ", theirs " + bWon + ")")
                        .isTrue();
                assertThat(other.load(runId).orElseThrow()).isEqualTo(aWon ? mine : theirs);
            }
        }
    }

    /**
     * A run cancelled while a tool declared abortsOnInterrupt runs, whose handler ends on the interrupt by returning
     * and sets it again (as Tool.abortsOnInterrupt asks), on a virtual caller's thread and through RunHandle.cancel:
     * the run ends CANCELLED and is stored so. Before (rein-core 518448b3/ddf8f514): the step's checkpoint after the
     * call ran with the interrupt still set, and on PostgreSQL the JDK closes a virtual thread's socket on it, so both
     * runs ended FAILED store_error ('The connection attempt failed.') and stayed RUNNING in the store.
     */
    @Test
    void aRunCancelledWhileAToolSetsTheInterruptAgainEndsCancelledAndIsStoredSo() throws Exception {
        for (boolean virtualCaller : new boolean[] {true, false}) {
            java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
            dev.rein.tool.Tool wait = dev.rein.tool.Tool.builder("wait").description("Waits.").abortsOnInterrupt(true)
                    .handler((args, ctx) -> {
                        entered.countDown();
                        try {
                            Thread.sleep(20_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt(); // not the handler's: it says so again
                            return "stopped waiting";
                        }
                        return "waited";
                    }).build();
            dev.rein.testkit.ScriptedModel script = dev.rein.testkit.ScriptedModel.of(
                    dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("wait", "{}")),
                    dev.rein.testkit.ScriptedModel.text("went on"));
            // answers on the run's thread at once, as an in-memory model does
            dev.rein.model.Model inline = new dev.rein.model.Model() {
                @Override
                public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                        throws dev.rein.model.ModelException, InterruptedException {
                    return script.call(request, context);
                }

                @Override
                public boolean abortsOnInterrupt() {
                    return true;
                }
            };
            dev.rein.agent.Agent agent = dev.rein.agent.Agent.builder().model(inline)
                    .modelName(dev.rein.testkit.ScriptedModel.DEFAULT_NAME).prices(dev.rein.testkit.ScriptedModel.PRICES)
                    .tools(wait).store(store())
                    .budget(dev.rein.budget.Budget.builder().maxDuration(java.time.Duration.ofSeconds(60)).build()).build();
            dev.rein.agent.RunResult result;
            if (virtualCaller) {
                java.util.concurrent.atomic.AtomicReference<dev.rein.agent.RunResult> ended = new java.util.concurrent.atomic.AtomicReference<>();
                Thread caller = Thread.ofVirtual().start(() -> ended.set(agent.run("荷物を待つ")));
                assertThat(entered.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                caller.interrupt();
                assertThat(caller.join(java.time.Duration.ofSeconds(30))).isTrue();
                result = ended.get();
            } else {
                dev.rein.agent.RunHandle handle = agent.start("荷物を待つ");
                assertThat(entered.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                handle.cancel();
                result = handle.await(java.time.Duration.ofSeconds(30));
            }
            assertThat(result.status()).as((virtualCaller ? "virtual caller: " : "cancel: ") + result.message())
                    .isEqualTo(RunStatus.CANCELLED);
            assertThat(store().load(result.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        }
    }
}
