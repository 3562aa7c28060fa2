package dev.rein.store.jdbc;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryScope;
import dev.rein.memory.MemorySource;
import dev.rein.memory.MemoryStore;
import dev.rein.memory.MemoryTerms;
import dev.rein.internal.text.Controls;
import dev.rein.internal.text.ShellWords;
import dev.rein.state.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link MemoryStore} over JDBC, in the same database as the run store: the embedded SQLite file
 * by default, or PostgreSQL, with the same SQL. Entries live in {@code rein_memory}; their search
 * terms ({@link MemoryTerms}) in {@code rein_memory_terms}. {@link #forget} deletes both in one
 * transaction, so nothing of a forgotten entry stays searchable. Every query filters by tenant and
 * user first.
 *
 * <pre>{@code
 * MemoryStore memory = JdbcMemoryStore.sqlite(Path.of(".rein"));   // .rein/rein.db
 * }</pre>
 */
public final class JdbcMemoryStore implements MemoryStore, AutoCloseable {
    /** The latest instant whose milliseconds since 1970 a long holds, as entries are kept (MemoryEntry refuses later). */
    private static final java.time.Instant LATEST_MILLIS = java.time.Instant.ofEpochMilli(Long.MAX_VALUE);

    private static final Logger LOG = LoggerFactory.getLogger(JdbcMemoryStore.class);
    private static final String COLUMNS = "id, tenant, principal, text, source_run, source_observation, source, created_by,"
            + " created_at, expires_at";

    /**
     * The most bytes of UTF-8 a tenant, and a user, may have in this store, on every database: PostgreSQL cannot index
     * an entry much over 2,700 bytes, and the terms' index holds the tenant, the user and a term of up to 200
     * characters (800 bytes).
     */
    public static final int LONGEST_SCOPE_BYTES = 800;

    private static final int MAX_TERM_CHARS = 200;
    /** How long emptying SQLite's log after a forget waits for readers to move on (see truncateLog). */
    private static final int CHECKPOINT_WAIT_MS = 200;

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
    /** Whether SQLite's log may still hold what a forget deleted, as a reader kept it from being emptied. */
    private boolean logToEmpty;
    /**
     * The name of the PostgreSQL database when it counts a VARCHAR's length in bytes (SQL_ASCII: a store an earlier Rein
     * made there), so an id or term Rein lets through may not fit; null for any other.
     */
    private String countsBytes;

    private JdbcMemoryStore(String url, String user, String password) {
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
     * The memory store in the SQLite database of {@link JdbcRunStore#sqlite(Path)} in {@code directory}.
     *
     * @throws dev.rein.ReinException when {@code directory} is null
     */
    public static JdbcMemoryStore sqlite(Path directory) {
        Dialect.requireDirectory(directory, "JdbcMemoryStore.sqlite");
        JdbcRunStore.sqlite(directory).close(); // creates the directory and the database file if missing
        return new JdbcMemoryStore("jdbc:sqlite:" + directory.resolve(JdbcRunStore.SQLITE_FILE).toAbsolutePath(), null, null);
    }

    /**
     * A memory store at any supported JDBC URL (SQLite or PostgreSQL).
     *
     * @throws dev.rein.ReinException when {@code jdbcUrl} is null, of another database, or a SQLite database that is not a
     *     file ({@code :memory:}), which a new connection after a failure would lose
     */
    public static JdbcMemoryStore connect(String jdbcUrl, String user, String password) {
        return new JdbcMemoryStore(Dialect.requireUrl(jdbcUrl, "JdbcMemoryStore.connect"), user, password);
    }

    @Override
    public synchronized void remember(MemoryEntry e) {
        MemoryStore.requireArgument(e, "remember", "entry");
        requireOpen("remember " + e.id());
        requireIndexable(e, "tenant", e.scope().tenant());
        requireIndexable(e, "user", e.scope().user());
        requireFitsInBytes(e);
        Instant expires = e.expiresAt();
        Object[] values = {e.id(), e.scope().tenant(), e.scope().user(), e.text(), e.source().runId(),
                e.source().observation(), e.source().source(), e.createdBy(), e.createdAt().toEpochMilli(),
                expires == null ? null : expires.toEpochMilli()};
        try {
            reconnected = false;
            try {
                retrying(() -> transaction(c -> {
                    try (PreparedStatement row = c.prepareStatement("INSERT INTO rein_memory (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
                         PreparedStatement term = c.prepareStatement("INSERT INTO rein_memory_terms (entry_id, tenant, principal, term)"
                                 + " VALUES (?, ?, ?, ?)")) {
                        for (int i = 0; i < values.length; i++) {
                            if (values[i] == null) {
                                row.setNull(i + 1, i == 9 ? Types.BIGINT : Types.VARCHAR);
                            } else {
                                row.setObject(i + 1, values[i]);
                            }
                        }
                        row.executeUpdate();
                        for (String t : terms(e.text())) {
                            term.setString(1, e.id());
                            term.setString(2, e.scope().tenant());
                            term.setString(3, e.scope().user());
                            term.setString(4, t);
                            term.addBatch();
                        }
                        term.executeBatch();
                        return null;
                    }
                }));
            } catch (SQLException ex) {
                // the attempt before the connection broke was committed: this very entry is stored
                if (!reconnected || list(e.scope()).stream().noneMatch(m -> m.id().equals(e.id()) && m.text().equals(e.text()))) {
                    throw ex;
                }
            }
        } catch (SQLException ex) {
            if (duplicateKey(ex) && holds(e.id())) {
                // the database's words name a constraint; the caller needs to hear which id, and what to do
                drop();
                throw new StoreException("cannot remember " + e.id() + " in the memory store at " + shown + ": memory entry " + e.id()
                        + " already exists (an entry's id is unique in the store, whatever its tenant and user); give each new"
                        + " entry a new id, such as MemoryStore.newId()", ex);
            }
            throw failure("remember " + e.id(), ex);
        }
    }

    /**
     * Refuses a tenant or user longer than {@link #LONGEST_SCOPE_BYTES} before anything is written, on every database:
     * PostgreSQL would refuse the entry in its index's words, SQLite store it, and a store moved between them then fail.
     */
    private void requireIndexable(MemoryEntry e, String part, String value) {
        int bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > LONGEST_SCOPE_BYTES) {
            String start = value.codePointCount(0, value.length()) <= 40 ? value : value.substring(0, value.offsetByCodePoints(0, 40)) + "…";
            throw new StoreException("cannot remember " + e.id() + " in the memory store at " + shown + ": the " + part + " has " + bytes
                    + " bytes of UTF-8, more than the " + LONGEST_SCOPE_BYTES + " a tenant or user may have in this store (PostgreSQL"
                    + " cannot index a longer one): '" + dev.rein.internal.text.RunIds.shown(start) + "'; give the " + part
                    + " a shorter name, such as an id that stands for it");
        }
    }

    /**
     * In a database that counts lengths in bytes ({@link #countsBytes}), refuses an id or a term longer in bytes than its
     * column before anything is written: PostgreSQL's words alone ('value too long for type character varying(64)') say
     * neither which value nor what to do.
     */
    private void requireFitsInBytes(MemoryEntry e) {
        if (countsBytes == null) {
            return;
        }
        int idBytes = e.id().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (idBytes > MemoryEntry.MAX_ID_CHARS) {
            throw new StoreException("cannot remember " + e.id() + " in the memory store at " + shown + ": the id has "
                    + e.id().codePointCount(0, e.id().length()) + " characters but " + idBytes + " bytes of UTF-8, "
                    + Dialect.countedInBytes(countsBytes, MemoryEntry.MAX_ID_CHARS) + ", or give the entry a shorter id");
        }
        for (String t : terms(e.text())) {
            int bytes = t.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes > MAX_TERM_CHARS) {
                int chars = t.codePointCount(0, t.length());
                throw new StoreException("cannot remember " + e.id() + " in the memory store at " + shown + ": the text has a word of "
                        + chars + " characters" + (chars == MAX_TERM_CHARS ? " (as the store keeps it: a longer word's first " + MAX_TERM_CHARS + ")" : "")
                        + " but " + bytes + " bytes of UTF-8, " + Dialect.countedInBytes(countsBytes, MAX_TERM_CHARS));
            }
        }
    }

    /** A unique key violated: SQLite's SQLITE_CONSTRAINT (with its extended codes), PostgreSQL's SQLSTATE 23505. */
    private static boolean duplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState()) || (e.getErrorCode() & 0xff) == 19;
    }

    /** Whether the store holds an entry with this id, in any scope. */
    private boolean holds(String id) {
        try {
            return retrying(() -> {
                try (PreparedStatement st = connection().prepareStatement("SELECT 1 FROM rein_memory WHERE id = ?")) {
                    st.setString(1, id);
                    try (ResultSet rs = st.executeQuery()) {
                        return rs.next();
                    }
                }
            });
        } catch (SQLException ignored) {
            return false; // the failure itself is reported with the database's words
        }
    }

    @Override
    public synchronized List<MemoryEntry> recall(MemoryScope scope, String query, int limit, Instant now) {
        MemoryStore.requireArgument(scope, "recall", "scope");
        MemoryStore.requireArgument(now, "recall", "now");
        if (limit < 0) { // SQLite reads LIMIT -1 as no limit at all, PostgreSQL refuses it: one answer for every store
            throw new IllegalArgumentException("a recall's limit is the most entries to return, 0 or more; was " + limit);
        }
        requireOpen("recall from the memory of " + quoted(scope.user()));
        if (holdsNoRow(scope.tenant(), scope.user())) {
            return List.of();
        }
        Set<String> terms = cut(MemoryTerms.ofQuery(query));
        String live = " m.tenant = ? AND m.principal = ? AND (m.expires_at IS NULL OR m.expires_at > ?)";
        String sql = terms.isEmpty()
                ? "SELECT " + prefixed() + " FROM rein_memory m WHERE" + live + " ORDER BY m.created_at DESC, m.id LIMIT ?"
                : "SELECT " + prefixed() + " FROM rein_memory m JOIN (SELECT entry_id, COUNT(*) AS score FROM rein_memory_terms"
                  + " WHERE tenant = ? AND principal = ? AND term IN (" + String.join(", ", Collections.nCopies(terms.size(), "?"))
                  + ") GROUP BY entry_id) s ON s.entry_id = m.id WHERE" + live + " ORDER BY s.score DESC, m.created_at DESC, m.id LIMIT ?";
        List<Object> params = new ArrayList<>();
        if (!terms.isEmpty()) {
            params.add(scope.tenant());
            params.add(scope.user());
            params.addAll(terms);
        }
        params.add(scope.tenant());
        params.add(scope.user());
        // a now past what a long's milliseconds hold (Instant.MAX) expires every entry a store can keep, as in memory
        params.add(now.isAfter(LATEST_MILLIS) ? Long.MAX_VALUE : now.toEpochMilli());
        // The SQL limit counts rows a recall then leaves out as unreadable (edited outside Rein): while the
        // window was full and short of readable entries, it is read again widened by the rows left out.
        int window = limit;
        while (true) {
            List<Object> windowed = new ArrayList<>(params);
            windowed.add(window);
            Read read = query(sql, windowed, "recall from the memory of " + scope.user());
            List<MemoryEntry> found = read.entries();
            if (found.size() >= limit || read.rows() < window || read.unreadable().isEmpty()) {
                read.unreadable().forEach(LOG::warn);
                return found.size() > limit ? found.subList(0, limit) : found;
            }
            window = (int) Math.min(Integer.MAX_VALUE, (long) limit + read.unreadable().size());
        }
    }

    /**
     * {@inheritDoc} A row edited outside Rein into something an entry cannot hold (its text emptied, or
     * made longer than {@value MemoryEntry#MAX_TEXT_CHARS} characters) is left out, here and in
     * {@link #recall}, with a warning in the log: {@link #list(MemoryScope, Consumer)} hands it to the
     * caller instead. Such a row can still be forgotten by its id.
     */
    @Override
    public List<MemoryEntry> list(MemoryScope scope) {
        MemoryStore.requireArgument(scope, "list", "scope");
        return list(scope, LOG::warn);
    }

    /**
     * The entries of {@code scope}, as {@link #list(MemoryScope)}; each row left out because it cannot
     * be read is said to {@code unlisted} in one sentence naming the entry, the store, what is wrong
     * and what to do.
     *
     * @throws dev.rein.ReinException when {@code scope} or {@code unlisted} is null
     */
    public synchronized List<MemoryEntry> list(MemoryScope scope, Consumer<String> unlisted) {
        MemoryStore.requireArgument(scope, "list", "scope");
        MemoryStore.requireArgument(unlisted, "list", "unlisted");
        requireOpen("list the memory of " + quoted(scope.user()));
        if (holdsNoRow(scope.tenant(), scope.user())) {
            return List.of();
        }
        Read read = query("SELECT " + prefixed() + " FROM rein_memory m WHERE m.tenant = ? AND m.principal = ? ORDER BY m.created_at DESC, m.id",
                List.of(scope.tenant(), scope.user()), "list the memory of " + scope.user());
        read.unreadable().forEach(unlisted); // after the read: a read made again on a new connection says each row once
        return read.entries();
    }

    @Override
    public synchronized boolean forget(MemoryScope scope, String id) {
        MemoryStore.requireArgument(scope, "forget", "scope");
        MemoryStore.requireArgument(id, "forget", "id");
        requireOpen("forget " + quoted(id));
        if (holdsNoRow(scope.tenant(), scope.user(), id)) {
            return false;
        }
        // What an attempt deleted before it committed: when the commit's answer is lost with the connection, the attempt
        // made again finds the row gone, though this call is what deleted it.
        int[] deletedBeforeCommit = {0};
        try {
            reconnected = false;
            int deleted = retrying(() -> transaction(c -> {
                try (PreparedStatement terms = c.prepareStatement("DELETE FROM rein_memory_terms WHERE entry_id = ? AND tenant = ? AND principal = ?");
                     PreparedStatement row = c.prepareStatement("DELETE FROM rein_memory WHERE id = ? AND tenant = ? AND principal = ?")) {
                    for (PreparedStatement st : List.of(terms, row)) {
                        st.setString(1, id);
                        st.setString(2, scope.tenant());
                        st.setString(3, scope.user());
                    }
                    terms.executeUpdate();
                    int rows = row.executeUpdate();
                    deletedBeforeCommit[0] = Math.max(deletedBeforeCommit[0], rows);
                    return rows;
                }
            }));
            if (deleted == 0 && reconnected && deletedBeforeCommit[0] == 1) {
                // the attempt before the connection broke deleted the entry, and was committed (or the row would be back)
                deleted = 1;
            }
            if (deleted == 1) {
                truncateLog(connection());
            }
            return deleted == 1;
        } catch (SQLException ex) {
            throw failure("forget " + id, ex);
        }
    }

    /**
     * Fails saying the store was closed: before a scope is looked at, so that a closed store says so whatever it is
     * given (a scope no row can hold finds nothing only in an open store).
     */
    private void requireOpen(String what) {
        if (closed) {
            throw failure(what, new Closed());
        }
    }

    /** A user or id as a message quotes it: control characters and half a surrogate pair as escapes. */
    private static String quoted(String value) {
        return dev.rein.internal.text.RunIds.shown(value);
    }

    /**
     * Whether no row can hold these values: PostgreSQL's text cannot hold NUL (and refuses a parameter with one in
     * its own words), so there is no such entry, as SQLite and the in-memory store answer. SQLite is asked: an
     * earlier Rein stored such entries there, and they can still be forgotten.
     */
    private boolean holdsNoRow(String... values) {
        return java.util.Arrays.stream(values).anyMatch(v -> dialect == Dialect.POSTGRES && v.indexOf('\u0000') >= 0
                // no entry holds one (MemoryEntry refuses it), and the drivers would send it as '?': scope "a\ud83d"
                // would read, list and forget the entries of scope "a?"
                || dev.rein.provider.WireText.wellFormed(v) != v);
    }

    /**
     * SQLite's write-ahead log still holds the pages as they were before a delete: they are copied
     * into the file (where secure_delete zeroed the entry) and the log is emptied. The delete is
     * committed already, and in WAL mode readers do not hold it up; but emptying the log waits for every
     * reader to move past the delete, so it waits {@value #CHECKPOINT_WAIT_MS} ms at most, not the busy
     * timeout: a reader still busy after that (a 'rein memory list' in another terminal, a backup) only
     * delays it until the next forget, or until this store is closed.
     */
    private void truncateLog(Connection c) {
        if (dialect != Dialect.SQLITE) {
            return;
        }
        try {
            c.setAutoCommit(true);
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA busy_timeout=" + CHECKPOINT_WAIT_MS);
                try (ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                    logToEmpty = !rs.next() || rs.getInt(1) != 0; // its first column is 1 when a reader or writer kept it from finishing
                } finally {
                    st.execute("PRAGMA busy_timeout=" + Dialect.BUSY_TIMEOUT_MS);
                }
            }
        } catch (SQLException ignored) {
            logToEmpty = true; // best effort, see above
        }
    }

    /** How many search terms the store holds for {@code id} (0 once it is forgotten); for checks and tests. */
    public synchronized int termCount(String id) {
        try {
            return retrying(() -> {
                try (PreparedStatement st = connection().prepareStatement("SELECT COUNT(*) FROM rein_memory_terms WHERE entry_id = ?")) {
                    st.setString(1, id);
                    try (ResultSet rs = st.executeQuery()) {
                        return rs.next() ? rs.getInt(1) : 0;
                    }
                }
            });
        } catch (SQLException ex) {
            throw failure("count the terms of " + id, ex);
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
        if (connection != null && logToEmpty) {
            truncateLog(connection); // the last forget's log was kept busy by a reader: try once more before leaving
        }
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Closing a broken connection has nothing left to lose.
            }
            connection = null;
        }
    }

    /** The entries a query read, the sentences saying why the rows left out could not be read, and how many rows it read in all. */
    private record Read(List<MemoryEntry> entries, List<String> unreadable, int rows) {}

    private Read query(String sql, List<Object> params, String what) {
        try {
            return retrying(() -> {
                try (PreparedStatement st = connection().prepareStatement(sql)) {
                    for (int i = 0; i < params.size(); i++) {
                        st.setObject(i + 1, params.get(i));
                    }
                    try (ResultSet rs = st.executeQuery()) {
                        List<MemoryEntry> out = new ArrayList<>();
                        List<String> unreadable = new ArrayList<>();
                        int rows = 0;
                        while (rs.next()) {
                            rows++;
                            long expires = rs.getLong(10);
                            Instant expiresAt = rs.wasNull() ? null : Instant.ofEpochMilli(expires);
                            String text = rs.getString(4);
                            try {
                                out.add(new MemoryEntry(rs.getString(1), new MemoryScope(rs.getString(2), rs.getString(3)), text,
                                        new MemorySource(rs.getString(5), rs.getString(6), rs.getString(7)), rs.getString(8),
                                        Instant.ofEpochMilli(rs.getLong(9)), expiresAt));
                            } catch (RuntimeException e) {
                                // one row edited outside Rein must not hide the user's other entries
                                unreadable.add(unreadable(rs.getString(1), rs.getString(2), rs.getString(3), text, e));
                            }
                        }
                        return new Read(out, unreadable, rows);
                    }
                }
            });
        } catch (SQLException ex) {
            throw failure(what, ex);
        }
    }

    /**
     * Why a row cannot be an entry, and what to do, in one sentence. Its id and names as {@link #quoted} shows them: a row
     * edited outside Rein may hold a line feed or an escape, which a caller's log line would carry as it is.
     */
    private String unreadable(String id, String tenant, String user, String text, RuntimeException e) {
        String why;
        String whose = " of user " + quoted(user) + " in tenant " + quoted(tenant) + " in " + shown;
        // an empty or overlong text never came from Rein; what else an entry refuses (a long id, a NUL character) an
        // earlier Rein took on SQLite
        String how = "it was edited outside Rein";
        if (id == null) {
            // SQLite takes NULL in a primary key that is not an INTEGER one; no forget can name such a row
            return "a memory entry with no id" + whose + " cannot be read (it has no id): " + how + "; delete it in the database (DELETE FROM rein_memory WHERE id"
                    + " IS NULL), as neither 'rein memory forget' nor MemoryStore.forget can name it, and remember what it should"
                    + " say again, or restore the store from a backup";
        }
        if (text == null || text.isBlank()) {
            why = "its text is empty";
        } else if (text.codePointCount(0, text.length()) > MemoryEntry.MAX_TEXT_CHARS) {
            why = "its text has " + text.codePointCount(0, text.length()) + " characters, more than an entry holds ("
                    + MemoryEntry.MAX_TEXT_CHARS + ")";
        } else {
            why = quoted(e.getMessage() == null ? e.toString() : e.getMessage());
            how = "an earlier Rein stored it before such entries were refused, or it was edited outside Rein";
        }
        return "memory entry " + quoted(id) + whose + " cannot be read (" + why
                + "): " + how + "; forget it (" + forgetting(id, tenant, user)
                + ", or MemoryStore.forget) and remember what it should say again, or restore the store from a backup";
    }

    /**
     * The command forgetting the entry {@code id} in its own scope, as rein-cli's 'memory list' gives it for an expired
     * one: its words quoted for the shell, the id last and after {@code --} when it starts with '-', the command set off in
     * quotes it does not hold. None when the id or a name holds a control character, which a message shows as an escape
     * that a pasted command would keep as typed, or when
     * one is null.
     */
    private static String forgetting(String id, String tenant, String user) {
        // a null (a row edited outside Rein) is no word a command can hold
        if (java.util.stream.Stream.of(id, tenant, user)
                .anyMatch(w -> w == null || w.codePoints().anyMatch(Controls::isControl))) {
            return "'rein memory forget' given its id and the same --tenant and --user, in quotes";
        }
        String options = ("default".equals(tenant) ? "" : " --tenant " + ShellWords.word(tenant))
                + ("anonymous".equals(user) ? "" : " --user " + ShellWords.word(user));
        return ShellWords.setOff("rein memory forget" + options + " " + ShellWords.run(id, ShellWords.word(id)));
    }

    /** One piece of work on a connection. */
    private interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Does {@code work} in one transaction, committed before it returns; on a failure it is rolled
     * back, and the failure is the one reported even when the rollback fails too (a connection the
     * server ended cannot roll back).
     */
    private <T> T transaction(SqlWork<T> work) throws SQLException {
        Connection c = connection();
        c.setAutoCommit(false);
        try {
            T result = work.run(c);
            c.commit();
            return result;
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // see above
            }
            throw e;
        } finally {
            try {
                c.setAutoCommit(true);
            } catch (SQLException ignored) {
                // a broken connection is closed and opened again by the next call
            }
        }
    }

    /** {@link ConnectionLoss#retrying}, as {@link JdbcRunStore} does. */
    private <T> T retrying(ConnectionLoss.Work<T> work) throws SQLException {
        return ConnectionLoss.retrying(work, () -> {
            drop();
            reconnected = true;
        });
    }

    /**
     * The text's {@link MemoryTerms} as the terms table holds them: cut to {@value #MAX_TERM_CHARS}
     * characters (the column's size), for entries and queries alike so that a long word still
     * matches; two long words that share their first characters are one term.
     */
    private static Set<String> terms(String text) {
        return cut(MemoryTerms.of(text));
    }

    private static Set<String> cut(Set<String> terms) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : terms) {
            out.add(t.codePointCount(0, t.length()) > MAX_TERM_CHARS ? t.substring(0, t.offsetByCodePoints(0, MAX_TERM_CHARS)) : t);
        }
        return out;
    }

    private static String prefixed() {
        return "m." + COLUMNS.replace(", ", ", m.");
    }

    private void migrate() {
        try {
            dialect.prepare(this::connection, this::createSchema, this::drop);
        } catch (SQLException e) {
            throw failure("prepare its tables", e);
        } catch (StoreException e) {
            drop(); // a refused store is not kept open
            throw e;
        }
    }

    private void createSchema() throws SQLException {
        try (Statement st = connection().createStatement()) {
            // The memory tables are part of the run store's schema: a database a later Rein gave a newer version is
            // refused before any table is made or changed in it, as JdbcRunStore refuses it.
            String failing = "cannot prepare its tables in the memory store at " + shown;
            countsBytes = dialect.requireUnicode(st, failing);
            dialect.createIfMissing(st, dialect.schema().get(0)); // a role that may not create in the schema goes on when it is there
            dialect.requireReinTable(st, dialect.schema().get(0), failing);
            int version;
            try (ResultSet rs = st.executeQuery("SELECT MAX(version) FROM rein_schema")) {
                version = rs.next() ? rs.getInt(1) : 0;
                if (version > JdbcRunStore.SCHEMA_VERSION) {
                    throw new StoreException("the memory store at " + shown + " has schema version " + version
                            + ", newer than this Rein understands (" + JdbcRunStore.SCHEMA_VERSION + "); upgrade Rein");
                }
            }
            String entries = "CREATE TABLE IF NOT EXISTS rein_memory (id VARCHAR(64) PRIMARY KEY, tenant TEXT NOT NULL,"
                    + " principal TEXT NOT NULL, text TEXT NOT NULL, source_run TEXT, source_observation TEXT,"
                    + " source TEXT NOT NULL, created_by TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT)";
            String terms = "CREATE TABLE IF NOT EXISTS rein_memory_terms (entry_id VARCHAR(64) NOT NULL, tenant TEXT NOT NULL,"
                    + " principal TEXT NOT NULL, term VARCHAR(200) NOT NULL, PRIMARY KEY (entry_id, term))";
            // both tables are checked before an index is made on a column another program's table of the name lacks
            for (String ddl : List.of(entries, terms)) {
                dialect.createIfMissing(st, ddl);
                dialect.requireReinTable(st, ddl, failing);
            }
            dialect.createIfMissing(st, "CREATE INDEX IF NOT EXISTS rein_memory_scope ON rein_memory (tenant, principal, created_at)");
            dialect.createIfMissing(st, "CREATE INDEX IF NOT EXISTS rein_memory_terms_scope ON rein_memory_terms (tenant, principal, term)");
            // Tenants and users are the application's (an OpenID Connect subject may have 255 characters), an observation
            // id the provider's, a source whatever its tool said: stores an earlier Rein created with VARCHAR columns
            // get TEXT, as SQLite never enforced the lengths.
            dialect.widen(st, "rein_memory", "tenant", "principal", "source_run", "source_observation", "source", "created_by");
            dialect.widen(st, "rein_memory_terms", "tenant", "principal");
            if (version == 0) {
                // a database holding only memory (connect without a run store) says which schema made it, as
                // JdbcRunStore records it: a later Rein can then tell, and this one refuses what a later one wrote
                st.executeUpdate("INSERT INTO rein_schema (version) SELECT " + JdbcRunStore.SCHEMA_VERSION
                        + " WHERE NOT EXISTS (SELECT 1 FROM rein_schema)");
            }
        }
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

    /** What {@link #connection()} throws once the store was closed, which {@link #failure} words as it is. */
    private static final class Closed extends SQLException {
        Closed() {
            super("the store was closed (its close() was called); open it again (JdbcMemoryStore.sqlite(directory) or JdbcMemoryStore.connect(url,"
                    + " user, password)) to use it");
        }
    }

    private StoreException failure(String what, SQLException e) {
        drop();
        if (e instanceof Closed) {
            return new StoreException("cannot " + what + " in the memory store at " + shown + ": " + e.getMessage(), e);
        }
        if (Dialect.noDriver(e)) {
            return new StoreException("cannot " + what + " in the memory store at " + shown + ": no JDBC driver for it"
                    + Dialect.NO_DRIVER, e);
        }
        return new StoreException("cannot " + what + " in the memory store at " + shown + ": " + Dialect.masked(dialect.said(e), url) + dialect.advice(e, url), e);
    }
}
