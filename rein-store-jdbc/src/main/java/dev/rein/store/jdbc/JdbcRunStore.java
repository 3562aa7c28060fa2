package dev.rein.store.jdbc;

import dev.rein.run.RunStatus;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.RunSummary;
import dev.rein.state.SnapshotCodec;
import dev.rein.state.StoreConflictException;
import dev.rein.state.StoreException;
import dev.rein.state.StoredEvent;
import dev.rein.trace.TraceEvent;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RunStore} over JDBC: an embedded SQLite file (the default for the CLI) or PostgreSQL.
 * Each write is committed before the method returns, so an intent recorded before a side effect
 * survives a crash of the process. Snapshots are stored as JSON next to a few columns for listing;
 * saves are compare-and-set on the run's version, so two processes cannot both continue one run.
 *
 * <pre>{@code
 * RunStore store = JdbcRunStore.sqlite(Path.of(".rein"));          // .rein/rein.db
 * RunStore shared = JdbcRunStore.connect("jdbc:postgresql://db/rein", "rein", password);
 * Agent agent = Agent.builder().model(model).tools(tools).store(store).build();
 * }</pre>
 *
 * One connection is kept per store and used by one thread at a time; close the store when done.
 */
public final class JdbcRunStore implements RunStore, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcRunStore.class);
    /** The file name of the SQLite database inside its directory. */
    public static final String SQLITE_FILE = "rein.db";
    /** The directory of the default SQLite store: {@code $REIN_HOME}, or {@code .rein} in the working directory. */
    public static final String HOME_VARIABLE = "REIN_HOME";

    /**
     * The most bytes of UTF-8 the id of a run this store does not hold yet may have, on every database: PostgreSQL
     * cannot index a key much over 2,700 bytes, and an idempotency key is the run id and the call's position. The
     * same as Temporal's longest id, so a run id fits every store Rein has, and the limit an agent holds a supplied id
     * to before the run starts (rein-core's, of which this is the value). A run an earlier Rein stored under a
     * longer id is still written (saved, approved, resumed, cancelled).
     */
    public static final int LONGEST_RUN_ID_BYTES = dev.rein.internal.text.RunIds.LONGEST_BYTES;

    /** The schema version this Rein writes and reads, for the run store's tables and the memory store's alike. */
    static final int SCHEMA_VERSION = 1;

    private final String url;
    /** The URL as messages quote it: without a password it may carry. */
    private final String shown;
    private final String user;
    private final String password;
    private final Dialect dialect;
    private Connection connection;
    /** Whether the user closed the store (not the store its connection, after a failure): see {@link #close()}. */
    private boolean closed;
    /** Whether the current write needed a new connection (its first attempt may have been committed). */
    private boolean reconnected;
    /**
     * Whether appends carry their key (see appendEvent): false only for a store an earlier Rein made that this one may
     * not change (a read-only file, a role without the right to alter its tables), which can still be read.
     */
    private boolean appendKeyed = true;
    /**
     * Per run, the event of its last append when that failed, and the key it was appended with (see appendEvent): per
     * run, since runs sharing the store may fail their appends in turn before either gives its event again.
     */
    private final java.util.Map<String, FailedAppend> failedAppends = new java.util.HashMap<>();

    private record FailedAppend(TraceEvent event, String key) {}

    private JdbcRunStore(String url, String user, String password) {
        this.url = url;
        this.shown = Dialect.masked(url, url);
        this.user = user;
        this.password = password;
        this.dialect = Dialect.of(url);
        synchronized (this) {
            migrate();
        }
    }

    /**
     * The SQLite store in {@code directory}/{@value #SQLITE_FILE}, created if missing.
     *
     * @throws dev.rein.ReinException when {@code directory} is null
     */
    public static JdbcRunStore sqlite(Path directory) {
        Dialect.requireDirectory(directory, "JdbcRunStore.sqlite");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            // the JDK's message is often the path alone
            throw new StoreException("cannot create the run store directory " + directory + ": "
                    + dev.rein.internal.text.FileProblems.why(e) + "; give a directory this user may write (" + SQLITE_FILE
                    + " is made in it), or move what is in the way aside", e);
        }
        return new JdbcRunStore("jdbc:sqlite:" + directory.resolve(SQLITE_FILE).toAbsolutePath(), null, null);
    }

    /** The SQLite store in {@code $REIN_HOME}, or in {@code .rein} under the working directory. */
    public static JdbcRunStore sqliteDefault() {
        return sqlite(defaultDirectory());
    }

    /** {@code $REIN_HOME}, or {@code .rein} under the working directory. */
    public static Path defaultDirectory() {
        String home = System.getenv(HOME_VARIABLE);
        return home == null || home.isBlank() ? Path.of(".rein") : Path.of(home);
    }

    /**
     * A store at any supported JDBC URL (SQLite or PostgreSQL; the driver must be on the class path).
     *
     * @throws dev.rein.ReinException when {@code jdbcUrl} is null, of another database, or a SQLite database that is not a
     *     file ({@code :memory:}), which a new connection after a failure would lose
     */
    public static JdbcRunStore connect(String jdbcUrl, String user, String password) {
        return new JdbcRunStore(Dialect.requireUrl(jdbcUrl, "JdbcRunStore.connect"), user, password);
    }

    @Override
    public synchronized void save(RunSnapshot s) {
        requireIndexable(s.runId(), null, "save run " + shortened(s.runId()));
        String json = HalfPairs.escaped(SnapshotCodec.write(s));
        try {
            reconnected = false;
            int updated;
            if (s.version() == 1) {
                updated = update("INSERT INTO rein_runs (run_id, version, status, reason, goal, model, steps, cost_usd,"
                        + " pending_approvals, created_at, updated_at, snapshot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                        + " ON CONFLICT (run_id) DO NOTHING", s.runId(), s.version(), s.status().name(), listed(s.reason()), listed(s.goal()),
                        listed(s.model()), s.steps(), s.costUsd().toPlainString(), s.pendingApprovals().size(), millis(s.createdAt()),
                        millis(s.updatedAt()), json);
            } else {
                updated = update("UPDATE rein_runs SET version = ?, status = ?, reason = ?, steps = ?, cost_usd = ?,"
                        + " pending_approvals = ?, updated_at = ?, snapshot = ? WHERE run_id = ? AND version = ?",
                        s.version(), s.status().name(), listed(s.reason()), s.steps(), s.costUsd().toPlainString(),
                        s.pendingApprovals().size(), millis(s.updatedAt()), json, s.runId(), s.version() - 1);
            }
            if (updated != 1 && reconnected && json.equals(storedSnapshot(s.runId()))) {
                updated = 1; // the attempt before the connection broke was committed: this very snapshot is stored
            }
            if (updated != 1) {
                throw new StoreConflictException("run " + s.runId() + " is at version " + storedVersion(s.runId())
                        + " in the store, but version " + s.version() + " was about to replace version " + (s.version() - 1)
                        + ": it was changed by another process since it was loaded");
            }
        } catch (SQLException e) {
            throw failure("save run " + s.runId(), e);
        }
    }

    /**
     * A goal, model or reason as its listing column holds it: PostgreSQL's text cannot hold U+0000, which a Java
     * string and JSON can (the snapshot, where JSON writes it as an escape, keeps the text exactly),
     * so it is listed as U+FFFD on every database rather than fail the run's every save there; so is half
     * a surrogate pair, which no database's text can hold (the drivers would write '?').
     */
    private static String listed(String text) {
        return text == null ? null : dev.rein.provider.WireText.wellFormed(text.replace('\u0000', '\uFFFD'));
    }

    /**
     * Refuses a run id (and an idempotency key) longer than {@link #LONGEST_RUN_ID_BYTES} before anything is written,
     * on every database: PostgreSQL would refuse it in its index's words, SQLite store it, and a run moved between them
     * then fail. A run the store holds already is written whatever its id's length: an earlier Rein stored it without
     * the limit, so its id fits this database's index, and the run must still be saved (approved, resumed, cancelled).
     * Also refuses half a surrogate pair (the driver would write {@code ?}) on every database, and on PostgreSQL a NUL,
     * which its text cannot hold.
     */
    private void requireIndexable(String runId, String key, String what) {
        requireOpen(what);
        for (String id : key == null ? List.of(runId) : List.of(runId, key)) {
            String unstorable = dev.rein.internal.text.RunIds.unstorable(id);
            if (unstorable != null) {
                // the driver would write '?' in its place: the row, or the event, of another run
                throw new StoreException("cannot " + what + " in " + shown + ": the " + (id == runId ? "run id" : "key")
                        + " is refused, as " + unstorable + "; give the run an id of whole characters");
            }
            int nul = dialect == Dialect.POSTGRES ? id.indexOf('\u0000') : -1;
            if (nul >= 0) {
                // no run in this store can have it (SQLite holds such ids of an earlier Rein's runs, and takes them)
                throw new StoreException("cannot " + what + " in " + shown + ": the " + (id == runId ? "run id" : "key")
                        + " is refused, as it holds the NUL character (U+0000) at index " + nul + ", which PostgreSQL's text"
                        + " cannot hold; give the run an id of printable characters");
            }
        }
        int bytes = utf8Bytes(runId);
        int keyBytes = key == null ? 0 : utf8Bytes(key);
        if ((bytes > LONGEST_RUN_ID_BYTES || keyBytes > LONGEST_KEY_BYTES) && holdsRun(runId, what)) {
            // a key of such a run is its id and the call's position, as long as the id allows
            if (keyBytes <= Math.max(LONGEST_KEY_BYTES, bytes + LONGEST_KEY_BYTES - LONGEST_RUN_ID_BYTES)) {
                return;
            }
        }
        if (bytes > LONGEST_RUN_ID_BYTES) {
            throw new StoreException("cannot " + what + " in " + shown + ": the run id has " + bytes + " bytes of UTF-8, more than the "
                    + LONGEST_RUN_ID_BYTES + " a run id may have in this store (PostgreSQL cannot index a longer one); give runs"
                    + " shorter ids (Agent.Builder.runIds)");
        }
        if (keyBytes > LONGEST_KEY_BYTES) {
            throw new StoreException("cannot " + what + " in " + shown + ": the key has " + keyBytes + " bytes of UTF-8, more than the "
                    + LONGEST_KEY_BYTES + " an idempotency key may have in this store (a run id's " + LONGEST_RUN_ID_BYTES
                    + " and the call's position; PostgreSQL cannot index a longer one); give a shorter key");
        }
    }

    /**
     * Fails saying the store was closed: before an id is looked at, so that a closed store says so whatever it is
     * given (an id no row can hold finds nothing only in an open store).
     */
    private void requireOpen(String what) {
        if (closed) {
            throw failure(what, new Closed());
        }
    }

    /** An id as a message quotes it whole: control characters and half a surrogate pair as escapes. */
    private static String quoted(String id) {
        return id == null ? "null" : dev.rein.internal.text.RunIds.shown(id);
    }

    /** Whether the store holds run {@code runId}, saved already (by an earlier Rein, for an id over today's limit). */
    private boolean holdsRun(String runId, String what) {
        try {
            return retrying(() -> storedVersion(runId)) > 0;
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * Whether no row can hold {@code id}, so a read finds nothing: half a surrogate pair (the drivers would send '?' in its
     * place, and read another run's rows), or on PostgreSQL a NUL, which its text cannot hold (and refuses in its own
     * words). SQLite is asked for a NUL: an older Rein saved runs under ids with control characters there.
     */
    private boolean noRowHolds(String id) {
        return id != null && (dev.rein.internal.text.RunIds.unstorable(id) != null || dialect == Dialect.POSTGRES && id.indexOf('\u0000') >= 0);
    }

    /**
     * Whether {@code e} is PostgreSQL's refusal of an index entry longer than it holds ("index row size 2712 exceeds btree
     * version 4 maximum 2704"), for a write of run {@code runId} whose id is over the limit: a run an earlier Rein stored
     * (its row's own entry fits), whose idempotency keys and event entries are longer than its id.
     */
    private boolean unindexable(SQLException e, String runId) {
        return dialect == Dialect.POSTGRES && "54000".equals(e.getSQLState()) && String.valueOf(e.getMessage()).contains("index row size")
                && utf8Bytes(runId) > LONGEST_RUN_ID_BYTES;
    }

    /**
     * The failure of a write that PostgreSQL cannot index for a run an earlier Rein stored under a longer id, saying so
     * and what to do, in place of PostgreSQL's words (whose hint, to index an MD5 hash, is about Rein's own tables).
     * {@code cannot} says what cannot be indexed and what that means. Nothing was written: each write is one statement.
     */
    private StoreException legacyId(String what, String runId, String cannot, SQLException e) {
        return new StoreException("cannot " + what + " in " + shown + ": run " + shortened(runId) + " was stored by an earlier Rein"
                + " under an id of " + utf8Bytes(runId) + " bytes of UTF-8, more than the " + LONGEST_RUN_ID_BYTES + " a run id may"
                + " have now, and PostgreSQL cannot index " + cannot + "; cancel the run (rein cancel, or agent.runs().cancel(runId)),"
                + " which this store still saves, and start its work again as a new run, whose id has at most "
                + LONGEST_RUN_ID_BYTES + " bytes (Agent.Builder.runIds)", e);
    }

    /** The most bytes of an idempotency key: a run id's, and the call's position (":step:index", two ints). */
    private static final int LONGEST_KEY_BYTES = LONGEST_RUN_ID_BYTES + 24;

    private static int utf8Bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /** An id as a message quotes it: its first 40 characters when longer, which is what tells it apart. */
    private static String shortened(String id) {
        String shown = dev.rein.internal.text.RunIds.shown(id);
        return shown.codePointCount(0, shown.length()) <= 40 ? shown : shown.substring(0, shown.offsetByCodePoints(0, 40)) + "…";
    }

    @Override
    public synchronized Optional<RunSnapshot> load(String runId) {
        requireOpen("load run " + quoted(runId));
        if (noRowHolds(runId)) {
            return Optional.empty();
        }
        try {
            String json = retrying(() -> storedSnapshot(runId));
            return json == null ? Optional.empty() : Optional.of(SnapshotCodec.readSnapshot(json));
        } catch (SQLException e) {
            throw failure("load run " + runId, e);
        } catch (StoreException e) {
            // The codec does not know which run it read: name it, and where it is kept.
            throw new StoreException("cannot load run " + runId + " from " + shown + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@inheritDoc} A row whose listing columns were edited outside Rein so that they cannot be read
     * (a status Rein does not know, a cost that is no number) is listed from the run's snapshot, as
     * {@code load} reads it; a row whose snapshot cannot be read either is left out, with a warning
     * in the log: {@link #list(Consumer)} hands it to the caller instead.
     */
    @Override
    public List<RunSummary> list() {
        return list(problem -> LOG.warn(problem));
    }

    /**
     * The runs, most recently updated first, as {@link #list()}; each row left out because neither its
     * listing columns nor its snapshot can be read is said to {@code unlisted} in one sentence naming
     * the run, the store, what is wrong and what to do.
     */
    public synchronized List<RunSummary> list(Consumer<String> unlisted) {
        // The listing columns alone: a run's snapshot (its messages and tool results) is read only for a row whose
        // columns cannot be read, so listing a large store does not carry every run's whole history.
        String sql = "SELECT run_id, status, reason, goal, model, steps, cost_usd, pending_approvals, created_at, updated_at"
                + " FROM rein_runs ORDER BY updated_at DESC, run_id";
        try {
            return retrying(() -> listRows(sql, unlisted));
        } catch (SQLException e) {
            throw failure("list runs", e);
        }
    }

    private List<RunSummary> listRows(String sql, Consumer<String> unlisted) throws SQLException {
        List<RunSummary> runs = new ArrayList<>();
        // rows whose columns cannot be read, by their place in the listing: their snapshots are read after it
        java.util.Map<Integer, String[]> unreadable = new java.util.LinkedHashMap<>();
        try (PreparedStatement st = connection().prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String runId = rs.getString(1);
                try {
                    runs.add(new RunSummary(runId, status(rs.getString(2)), orEmpty(rs.getString(3)), orEmpty(rs.getString(4)),
                            orEmpty(rs.getString(5)), rs.getInt(6), cost(rs.getString(7)), rs.getInt(8), instant(rs.getLong(9)),
                            instant(rs.getLong(10))));
                } catch (UnreadableColumn e) {
                    unreadable.put(runs.size(), new String[] {runId, e.getMessage()});
                    runs.add(null);
                }
            }
        }
        // snapshots by run id as read, of every row, read only if a run id edited outside Rein does not find its row again
        java.util.Map<String, java.util.ArrayDeque<String>> byIdAsRead = null;
        for (var row : unreadable.entrySet()) {
            String runId = row.getValue()[0];
            // The columns only repeat the snapshot for listing: the snapshot is the run as load() gives it.
            try {
                String json = storedSnapshot(runId);
                if (json == null) {
                    // an id that does not read back as stored (not UTF-8, a BLOB) finds no row by itself: read the rows
                    // with their snapshots, in the listing's order, and take the snapshot by the id as read
                    if (byIdAsRead == null) {
                        byIdAsRead = snapshotsByIdAsRead(sql);
                    }
                    java.util.ArrayDeque<String> found = byIdAsRead.get(runId);
                    json = found == null ? null : found.poll();
                }
                if (json == null) {
                    continue; // deleted since the listing was read
                }
                RunSnapshot s = SnapshotCodec.readSnapshot(json);
                runs.set(row.getKey(), new RunSummary(runId, s.status(), s.reason(), s.goal(), s.model(), s.steps(), s.costUsd(),
                        s.pendingApprovals().size(), s.createdAt(), s.updatedAt()));
            } catch (RuntimeException e) {
                unlisted.accept("run " + runId + " in " + shown + " cannot be listed: " + row.getValue()[1] + ", and " + snapshotProblem(e)
                        + "; it was edited outside Rein: restore the run store from a backup, or delete the run's row");
            }
        }
        runs.removeIf(java.util.Objects::isNull);
        return runs;
    }

    /** Every row's snapshot by its run id as read, in the listing's order (ids read alike keep their rows' order). */
    private java.util.Map<String, java.util.ArrayDeque<String>> snapshotsByIdAsRead(String listing) throws SQLException {
        java.util.Map<String, java.util.ArrayDeque<String>> snapshots = new java.util.HashMap<>();
        String sql = "SELECT run_id, snapshot" + listing.substring(listing.indexOf(" FROM "));
        try (PreparedStatement st = connection().prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                String json = rs.getString(2);
                if (json != null) {
                    snapshots.computeIfAbsent(rs.getString(1), id -> new java.util.ArrayDeque<>()).add(json);
                }
            }
        }
        return snapshots;
    }

    /** A listing column edited outside Rein into something it cannot read. */
    private static final class UnreadableColumn extends RuntimeException {
        UnreadableColumn(String message) {
            super(message, null, false, false);
        }
    }

    private static RunStatus status(String stored) {
        try {
            return RunStatus.valueOf(stored == null ? "" : stored);
        } catch (IllegalArgumentException e) {
            throw new UnreadableColumn("its status " + (stored == null ? "NULL" : "'" + stored + "'") + " is not one Rein knows");
        }
    }

    private static BigDecimal cost(String stored) {
        if (stored == null) {
            throw new UnreadableColumn("its cost is NULL");
        }
        try {
            return new BigDecimal(stored.strip());
        } catch (NumberFormatException e) {
            throw new UnreadableColumn("its cost '" + stored + "' is not a number");
        }
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private static String snapshotProblem(RuntimeException e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        // the codec's own sentence, without its advice: the caller's sentence says what to do about the row
        String prefix = "the stored run snapshot is damaged and cannot be read (";
        int advice = why.lastIndexOf("); it was cut short");
        if (why.startsWith(prefix) && advice > prefix.length()) {
            why = why.substring(prefix.length(), advice);
        }
        return "its snapshot is damaged (" + why + ")";
    }

    @Override
    public synchronized Optional<IdempotencyRecord> idempotency(String key) {
        requireOpen("read idempotency record " + quoted(key));
        if (noRowHolds(key)) {
            return Optional.empty();
        }
        try {
            String record = retrying(() -> {
                try (PreparedStatement st = connection().prepareStatement("SELECT record FROM rein_idempotency WHERE idempotency_key = ?")) {
                    st.setString(1, key);
                    try (ResultSet rs = st.executeQuery()) {
                        return rs.next() ? rs.getString(1) : null;
                    }
                }
            });
            return record == null ? Optional.empty() : Optional.of(SnapshotCodec.readIdempotency(record));
        } catch (SQLException e) {
            throw failure("read idempotency record " + key, e);
        }
    }

    @Override
    public synchronized void putIdempotency(IdempotencyRecord r) {
        requireIndexable(r.runId(), r.key(), "record idempotency key " + shortened(r.key()));
        try {
            update("INSERT INTO rein_idempotency (idempotency_key, run_id, status, record, updated_at) VALUES (?, ?, ?, ?, ?)"
                    + " ON CONFLICT (idempotency_key) DO UPDATE SET status = excluded.status, record = excluded.record,"
                    + " updated_at = excluded.updated_at", r.key(), r.runId(), r.status().name(), HalfPairs.escaped(SnapshotCodec.write(r)),
                    millis(r.updatedAt()));
        } catch (SQLException e) {
            if (unindexable(e, r.runId())) {
                throw legacyId("record idempotency key " + shortened(r.key()), r.runId(), "the idempotency key of its tool calls"
                        + " (its id and the call's position: " + utf8Bytes(r.key()) + " bytes), so no call that changes anything can"
                        + " be recorded, nor run", e);
            }
            throw failure("record idempotency key " + r.key(), e);
        }
    }

    @Override
    public synchronized void appendEvent(String runId, TraceEvent event) {
        requireIndexable(runId, null, "append an event of run " + shortened(runId));
        StoredEvent e = SnapshotCodec.event(0, event);
        // A key of this append alone: when the server committed the insert but its answer was lost with the connection,
        // the insert made again on a new connection finds the key taken and adds nothing, so the event is stored once.
        // An append that failed keeps its key for the same event given again (a run's StoreListener holds a failed
        // event and appends it later), since its insert may have been committed before the failure.
        FailedAppend failed = failedAppends.get(runId);
        String appendKey = failed != null && failed.event() == event ? failed.key() : java.util.UUID.randomUUID().toString();
        try {
            if (appendKeyed) {
                update("INSERT INTO rein_events (run_id, step, type, time_ms, event, append_key) VALUES (?, ?, ?, ?, ?, ?)"
                        // no conflict target: a table whose index name another table holds (one renamed aside) still takes events
                        + " ON CONFLICT DO NOTHING", runId, e.step(), e.type(), millis(e.time()), HalfPairs.escaped(e.json()), appendKey);
            } else {
                update("INSERT INTO rein_events (run_id, step, type, time_ms, event) VALUES (?, ?, ?, ?, ?)",
                        runId, e.step(), e.type(), millis(e.time()), HalfPairs.escaped(e.json()));
            }
            failedAppends.remove(runId);
        } catch (SQLException ex) {
            failedAppends.put(runId, new FailedAppend(event, appendKey));
            if (unindexable(ex, runId)) {
                throw legacyId("append an event of run " + shortened(runId), runId, "the entry of its trace events (its id and the"
                        + " event's number), so its trace cannot be kept", ex);
            }
            throw failure("append an event of run " + runId, ex);
        }
    }

    @Override
    public synchronized List<StoredEvent> events(String runId) {
        requireOpen("read the events of run " + quoted(runId));
        if (noRowHolds(runId)) {
            return List.of();
        }
        String sql = "SELECT id, step, type, time_ms, event FROM rein_events WHERE run_id = ? ORDER BY id";
        try {
            return retrying(() -> {
                try (PreparedStatement st = connection().prepareStatement(sql)) {
                    st.setString(1, runId);
                    try (ResultSet rs = st.executeQuery()) {
                        List<StoredEvent> events = new ArrayList<>();
                        while (rs.next()) {
                            events.add(new StoredEvent(rs.getLong(1), runId, rs.getInt(2), rs.getString(3), instant(rs.getLong(4)),
                                    rs.getString(5)));
                        }
                        return events;
                    }
                }
            });
        } catch (SQLException e) {
            throw failure("read the events of run " + runId, e);
        }
    }

    /**
     * Checks that this store can be written now, and changes nothing: a write that deletes no row, in
     * a transaction that is rolled back. Reading (listing and showing runs) does not need it; a
     * process about to start or continue a run calls it first, so that a store it cannot write (a
     * read-only file, a lock another process keeps) is named before anything runs, rather than at the
     * run's first save.
     *
     * @throws StoreException saying why the store cannot be written and what to do
     */
    public synchronized void checkWritable() {
        try {
            // a connection the server ended (a restart, a failover) says nothing about whether the store can be written
            retrying(() -> {
                Connection c = connection();
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    return st.executeUpdate("DELETE FROM rein_schema WHERE 1 = 0");
                } finally {
                    try {
                        c.rollback();
                        c.setAutoCommit(true);
                    } catch (SQLException ignored) {
                        // the write's own failure is the one to report; a broken connection is closed with it
                    }
                }
            });
        } catch (SQLException e) {
            throw failure("write to the run store", e);
        }
    }

    /**
     * Closes the store's connection. The store cannot be used after this: each call then fails with a
     * {@link StoreException} saying it was closed (rather than open a connection nothing would close).
     * Closing it again does nothing.
     */
    @Override
    public synchronized void close() {
        closed = true;
        drop();
    }

    /** Closes the kept connection (after a failure, or a lost connection): the next call opens a new one. */
    private void drop() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Closing a broken connection has nothing left to lose.
            }
            connection = null;
        }
    }

    @Override
    public String toString() {
        return "JdbcRunStore[" + shown + "]";
    }

    private void migrate() {
        try {
            dialect.prepare(this::connection, this::createSchema, this::drop);
        } catch (SQLException e) {
            throw failure("prepare the run store", e);
        } catch (StoreException e) {
            drop(); // a refused store is not kept open
            throw e;
        }
    }

    private void createSchema() throws SQLException {
        try (Statement st = connection().createStatement()) {
            List<String> schema = dialect.schema();
            String failing = "cannot prepare the run store in " + shown;
            dialect.requireUnicode(st, failing);
            // rein_schema: the version is read before anything else is created (createIfMissing: a role that may not create
            // in the schema opens the tables another role made, as for the other tables)
            dialect.createIfMissing(st, schema.get(0));
            dialect.requireReinTable(st, schema.get(0), failing);
            int version;
            try (ResultSet rs = st.executeQuery("SELECT MAX(version) FROM rein_schema")) {
                version = rs.next() ? rs.getInt(1) : 0;
            }
            if (version > SCHEMA_VERSION) {
                // refused before this version's tables are made in a store whose schema a later Rein chose
                throw new StoreException("the run store at " + shown + " has schema version " + version
                        + ", newer than this Rein understands (" + SCHEMA_VERSION + "); upgrade Rein");
            }
            for (String ddl : schema.subList(1, schema.size())) {
                dialect.createIfMissing(st, ddl);
                dialect.requireReinTable(st, ddl, failing); // before an index is made on a column it may not have
            }
            // a model's name is the provider's (a vLLM server's is its path), a run id the application's (Agent.Builder.runIds),
            // a cost's digits the prices' (a per-use price given as a double is multiplied by its uses unrounded)
            dialect.widen(st, "rein_runs", "run_id", "model", "cost_usd");
            dialect.widen(st, "rein_idempotency", "idempotency_key", "run_id"); // a key is the run id and the call's position
            dialect.widen(st, "rein_events", "run_id");
            // an event's append key (see appendEvent), added to a store an earlier Rein created without it
            java.sql.Savepoint before = st.getConnection().getAutoCommit() ? null : st.getConnection().setSavepoint();
            try {
                dialect.addColumn(st, "rein_events", "append_key", "VARCHAR(36)");
                // (a table made by this Rein has the key UNIQUE already, under an index name of the database's choosing)
                st.execute("CREATE UNIQUE INDEX IF NOT EXISTS rein_events_append ON rein_events (append_key)");
            } catch (SQLException e) {
                if (!mayNotBeChanged(e)) {
                    throw e;
                }
                if (before != null) {
                    st.getConnection().rollback(before); // PostgreSQL: the rest of the preparation goes on
                }
                // PostgreSQL refuses the index statement to a role that does not own the table even when the key is
                // unique already (this Rein's table declares it so); the key is kept then. Else (a read-only store, a
                // column the role cannot add or make unique) the store is still read; an append fails as any write does.
                appendKeyed = dialect.uniqueColumn(st, "rein_events", "append_key");
            }
            if (version == 0) {
                // One statement, after the read has ended: a write inside a read transaction that another
                // process's write made stale fails at once (SQLite does not wait for it), and two processes
                // preparing a new file at the same time record the version once.
                st.executeUpdate("INSERT INTO rein_schema (version) SELECT " + SCHEMA_VERSION
                        + " WHERE NOT EXISTS (SELECT 1 FROM rein_schema)");
            }
        }
    }

    /** A failure because this connection may not change the database: SQLite's READONLY, PostgreSQL's missing privilege. */
    static boolean mayNotBeChanged(SQLException e) {
        return (e.getErrorCode() & 0xff) == 8 || "42501".equals(e.getSQLState()) || "25006".equals(e.getSQLState());
    }

    private Connection connection() throws SQLException {
        if (closed) {
            // a new connection now would be one nothing closes: the caller has let go of the store
            throw new Closed();
        }
        if (connection == null || connection.isClosed()) {
            connection = user == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, user, password);
            connection.setAutoCommit(true);
            try (Statement st = connection.createStatement()) {
                for (String setup : dialect.sessionSetup) {
                    st.execute(setup);
                }
            }
        }
        return connection;
    }

    private int update(String sql, Object... params) throws SQLException {
        return retrying(() -> {
            try (PreparedStatement st = connection().prepareStatement(sql)) {
                for (int i = 0; i < params.length; i++) {
                    st.setObject(i + 1, params[i]);
                }
                return st.executeUpdate();
            }
        });
    }

    /** {@link ConnectionLoss#retrying}: a run must not stop because the database ended the kept connection. */
    private <T> T retrying(ConnectionLoss.Work<T> work) throws SQLException {
        return ConnectionLoss.retrying(work, () -> {
            drop();
            reconnected = true;
        });
    }

    private String storedSnapshot(String runId) throws SQLException {
        try (PreparedStatement st = connection().prepareStatement("SELECT snapshot FROM rein_runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private long storedVersion(String runId) throws SQLException {
        try (PreparedStatement st = connection().prepareStatement("SELECT version FROM rein_runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** What {@link #connection()} throws once the store was closed, which {@link #failure} words as it is. */
    private static final class Closed extends SQLException {
        Closed() {
            super("the store was closed (its close() was called); open it again (JdbcRunStore.sqlite(directory) or JdbcRunStore.connect(url,"
                    + " user, password)) to use it");
        }
    }

    private StoreException failure(String what, SQLException e) {
        drop();
        if (e instanceof Closed) {
            return new StoreException("cannot " + what + " in " + shown + ": " + e.getMessage(), e);
        }
        if (Dialect.noDriver(e)) {
            return new StoreException("cannot " + what + ": no JDBC driver for " + shown + Dialect.NO_DRIVER, e);
        }
        return new StoreException("cannot " + what + " in " + shown + ": " + Dialect.masked(dialect.said(e), url) + dialect.advice(e, url), e);
    }

    private static long millis(Instant instant) {
        return instant == null ? 0 : instant.toEpochMilli();
    }

    private static Instant instant(long millis) {
        return Instant.ofEpochMilli(millis);
    }
}
