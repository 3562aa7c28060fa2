package dev.rein.store.jdbc;

import java.util.List;

/** The few places where SQLite and PostgreSQL differ for this store. */
enum Dialect {
    SQLITE("INTEGER PRIMARY KEY AUTOINCREMENT", List.of(
            // WAL lets readers (rein show) work while a run writes; FULL makes each commit durable
            // before the executor goes on to a side effect; the busy timeout lets two processes
            // (a run and an approval) wait for each other instead of failing; secure_delete zeroes what
            // a delete frees, so a forgotten memory entry does not stay readable in the file. The busy
            // timeout comes first: switching a new file to WAL takes a lock another process may hold.
            "PRAGMA busy_timeout=" + Dialect.BUSY_TIMEOUT_MS,
            "PRAGMA journal_mode=WAL",
            "PRAGMA secure_delete=ON",
            "PRAGMA synchronous=FULL")),
    POSTGRES("BIGSERIAL PRIMARY KEY", List.of());

    /** How long a SQLite store waits for a lock another process holds before it gives up. */
    static final int BUSY_TIMEOUT_MS = 10_000;

    final String autoIncrementKey;
    final List<String> sessionSetup;

    Dialect(String autoIncrementKey, List<String> sessionSetup) {
        this.autoIncrementKey = autoIncrementKey;
        this.sessionSetup = sessionSetup;
    }

    /**
     * Runs {@code prepare} (opening the connection and the schema), again while SQLite says the file
     * is busy, after {@code close} (each attempt opens a connection of its own). Processes opening a
     * new file at once race for it, and some of those races (the switch to WAL, the first write)
     * fail at once instead of waiting for the busy timeout. On PostgreSQL the sessions preparing a
     * store take turns ({@link #serialized}), on {@code connection}.
     */
    void prepare(Opening connection, Preparation prepare, Runnable close) throws java.sql.SQLException {
        long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                if (this == POSTGRES) {
                    serialized(connection.open(), prepare);
                } else {
                    prepare.run();
                }
                return;
            } catch (java.sql.SQLException e) {
                close.run();
                boolean busy = this == SQLITE && (e.getErrorCode() & 0xff) == 5; // SQLITE_BUSY and its extended codes
                if (!busy || System.nanoTime() - giveUp > 0) {
                    throw e;
                }
                try {
                    Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextInt(10, 60));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * Whether {@code e} is {@link java.sql.DriverManager}'s refusal of a URL no driver on the class path takes (the
     * application left the PostgreSQL driver out), which says nothing of what to add.
     */
    static boolean noDriver(java.sql.SQLException e) {
        return e.getMessage() != null && e.getMessage().contains("No suitable driver");
    }

    /** What a {@link #noDriver} failure's message says after the URL. */
    static final String NO_DRIVER = " on the class path (add org.postgresql:postgresql for PostgreSQL)";

    /**
     * What to do about a failure whose cause the database's own words do not say in the user's terms
     * (SQLite's "attempt to write a readonly database", "database is locked", "unable to open" for a file in a
     * directory that does not exist), as " (...)" to add to the message; empty for the others. {@code jdbcUrl} is the
     * store's URL, which names the file.
     */
    String advice(java.sql.SQLException e, String jdbcUrl) {
        String table = missingTable(e);
        if (table != null) {
            return missingTableAdvice(table);
        }
        if (this == POSTGRES) {
            return postgresAdvice(e, jdbcUrl);
        }
        java.nio.file.Path missing = (e.getErrorCode() & 0xff) == 14 ? missingDirectory(jdbcUrl) : null;
        if (missing != null) {
            // SQLite does not create directories; its "unable to open" alone reads as a permission problem
            return " (the directory " + missing + " does not exist: create it, or open the store with"
                    + " JdbcRunStore.sqlite(directory), which creates the directory and " + JdbcRunStore.SQLITE_FILE + " in it)";
        }
        return switch (e.getErrorCode() & 0xff) { // the primary result code of an extended one
            case 5, 6 -> " (the database is locked by another process, which held its lock longer than the "
                    + BUSY_TIMEOUT_MS / 1000 + " s this store waits: an open transaction in a database tool, a backup, another"
                    + " program writing; try again when that process is done)";
            case 8 -> " (the database cannot be written: the file or its directory is read-only for this user, or on a"
                    + " read-only file system; make the database file and its directory writable for this user, or use a store"
                    + " in a writable directory)";
            case 13 -> " (the disk holding the database is full; free some space and try again)";
            case 14 -> " (the database file cannot be opened: the path is a directory, or this user may not read or write it"
                    + " or its directory; give the path of a SQLite file, or move what is there aside)";
            case 11, 26 -> " (the file is not a SQLite database, or a damaged one; restore it from a backup, or move it aside"
                    + " to start an empty store there)";
            default -> "";
        };
    }

    /**
     * The Rein table a statement found missing (SQLite's "no such table: rein_runs", PostgreSQL's 42P01 'relation
     * "rein_runs" does not exist'), or null: the tables are made when a store is opened, so one dropped while it is open
     * (or a database file replaced under it) is found only by the next statement, whose words alone name no remedy.
     */
    static String missingTable(java.sql.SQLException e) {
        String message = String.valueOf(e.getMessage());
        java.util.regex.Matcher m = "42P01".equals(e.getSQLState())
                ? java.util.regex.Pattern.compile("relation \"(?:[^\"]*\\.)?(rein_\\w+)\" does not exist").matcher(message)
                : java.util.regex.Pattern.compile("no such table: (?:\\w+\\.)?(rein_\\w+)").matcher(message);
        return m.find() ? m.group(1) : null;
    }

    /** Which table is missing and how to have it again: the store creates the tables it lacks when it is opened. */
    private static String missingTableAdvice(String table) {
        String store = table.startsWith("rein_memory") ? "JdbcMemoryStore" : "JdbcRunStore";
        return " (the table " + table + " is missing from the database: it was dropped or renamed after the store was opened,"
                + " or the database was replaced; the store creates the tables it lacks when it is opened, so close it and open"
                + " it again (" + store + ".sqlite(directory) or " + store + ".connect(url, user, password)), which creates "
                + table + " empty, or restore the database from a backup to keep what the table held)";
    }

    /** What to do about PostgreSQL's refusals of a setup that cannot work, which its own words do not say. */
    private static String postgresAdvice(java.sql.SQLException e, String jdbcUrl) {
        String message = String.valueOf(e.getMessage());
        java.util.regex.Matcher encoding = java.util.regex.Pattern.compile("has no equivalent in encoding \"(\\w+)\"").matcher(message);
        if ("22P05".equals(e.getSQLState()) && encoding.find()) {
            // a store an earlier Rein made in such a database (a new one is refused: requireUnicode)
            return " (" + notUnicode(database(jdbcUrl), encoding.group(1)).substring(2) + ")";
        }
        if ("3F000".equals(e.getSQLState())) {
            return " (the schema the URL's currentSchema names, or else the first schema of the role's search_path, does not"
                    + " exist in this database: create it with CREATE SCHEMA, or name one that exists)";
        }
        if ("08001".equals(e.getSQLState()) && message.startsWith("The connection attempt failed")) {
            // the driver's sentence alone: the reason is its cause's (a host name that does not resolve, a timeout)
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof java.net.UnknownHostException) {
                    return " (the host " + cause.getMessage() + " is not known: check the host name in the URL)";
                }
            }
            Throwable cause = e.getCause();
            return cause == null ? "" : " (" + (cause.getMessage() == null ? cause.toString() : cause.getMessage()) + ": check that the server is up and that the URL's host and"
                    + " port reach it)";
        }
        java.util.regex.Matcher schema = java.util.regex.Pattern.compile("permission denied for schema (\\S+)").matcher(message);
        if ("42501".equals(e.getSQLState()) && schema.find()) {
            return " (this role may not create Rein's tables in schema " + schema.group(1) + ", or not use it at all: have its"
                    + " owner GRANT USAGE, CREATE ON SCHEMA " + schema.group(1) + " to the role (PostgreSQL 15 and later grant"
                    + " CREATE on schema public to no one but its owner), or open the store once as a role that may create"
                    + " them; this role then needs SELECT, INSERT, UPDATE and DELETE on them and USAGE on their sequences)";
        }
        return "";
    }

    /**
     * Refuses to make a store in a PostgreSQL database whose text is not UTF8, before anything is made in it: its
     * encoding lacks characters a run or a memory may hold (LATIN1 has no Japanese, EUC_JP no emoji), so a save would
     * fail part way through a run. SQL_ASCII keeps the bytes it is given (the driver's UTF-8) as they are, but counts a
     * VARCHAR's length in bytes, so the memory store's id (64 characters) and term (200) columns refuse what Rein lets
     * through (an id of 64 Japanese characters, a long Cyrillic word): it is refused too. A store an earlier Rein made
     * there (its rein_schema is in the connection's schema, current_schema(), not merely on its search path) is opened, so its runs can still be read and moved; a write its encoding cannot
     * hold says the same ({@link #advice}), and in SQL_ASCII the memory store refuses an id or term too long in bytes
     * before writing it ({@link #countedInBytes}), where PostgreSQL's words alone said 'value too long for type character
     * varying(64)'. {@code failing} starts the message: "cannot prepare ... at URL".
     *
     * @return the name of the database when it counts a text's length in bytes (SQL_ASCII), which only a store an earlier
     *     Rein made there reaches; null for any other
     */
    String requireUnicode(java.sql.Statement st, String failing) throws java.sql.SQLException {
        if (this != POSTGRES) {
            return null;
        }
        // an earlier Rein's store in current_schema(), where the CREATE would make the tables, as exists() asks: one in a later
        // schema of the search path is another store, and a new one would be made in the first
        try (java.sql.ResultSet rs = st.executeQuery("SELECT current_database(), current_setting('server_encoding'),"
                + " to_regclass(quote_ident(current_schema()) || '.rein_schema') IS NOT NULL")) {
            if (!rs.next()) {
                return null;
            }
            if (!"UTF8".equals(rs.getString(2)) && !rs.getBoolean(3)) {
                throw new dev.rein.state.StoreException(failing + notUnicode(rs.getString(1), rs.getString(2)) + "; nothing was made in it");
            }
            return "SQL_ASCII".equals(rs.getString(2)) ? rs.getString(1) : null;
        }
    }

    /**
     * Why a value of {@code bytes} of UTF-8 does not fit a column of {@code limit} characters in {@code database}, which
     * counts bytes (see {@link #requireUnicode}), and what to do, as a store's message ends: move the store to a UTF8
     * database, which counts characters as Rein does.
     */
    static String countedInBytes(String database, int limit) {
        return "more than the " + limit + " this database holds (the database " + database + " keeps its text in SQL_ASCII,"
                + " which counts a text's length in bytes); move this store to a database whose encoding is UTF8 (CREATE"
                + " DATABASE rein ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0) with pg_dump and pg_restore,"
                + " which convert its text, and open it there";
    }

    /**
     * Why a database whose text is in {@code encoding} cannot hold a store, and what to do, as ": ..." to add to a message.
     * The advice names the C locale: UTF8 must match the locale of the database, which is the template's (and so the
     * cluster's) unless given, and a cluster whose locale is en_US.ISO-8859-1 (where LATIN1 databases come from) refuses
     * UTF8 with it; C goes with every encoding and exists everywhere, and Rein's SQL orders text only to break ties,
     * where C's byte order serves as well (it is SQLite's).
     */
    private static String notUnicode(String database, String encoding) {
        String why = "SQL_ASCII".equals(encoding)
                ? " which counts a text's length in bytes, so a memory's id or term as long as Rein allows but in letters"
                        + " other than English ones (an id of 64 Japanese characters) would not fit"
                : " which has no place for every character a run or a memory may hold (Japanese text, an emoji, a dash a model"
                        + " writes)";
        return ": the database " + database + " keeps its text in " + encoding + "," + why + ", so saving one would fail; Rein's"
                + " stores need a database whose encoding is UTF8: create one (CREATE DATABASE rein ENCODING 'UTF8' LC_COLLATE"
                + " 'C' LC_CTYPE 'C' TEMPLATE template0) and give its URL, and move a store an earlier Rein made in this one"
                + " there with pg_dump and pg_restore, which convert its text";
    }

    /** The database a PostgreSQL URL names (jdbc:postgresql://host:port/name?...), or "of this URL" when it names none. */
    private static String database(String jdbcUrl) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^jdbc:postgresql:(?://[^/?]*/?)?([^/?]*)").matcher(jdbcUrl);
        return m.find() && !m.group(1).isEmpty() ? m.group(1) : "of this URL";
    }

    /**
     * The database's message of {@code e} as a store's message quotes it: PostgreSQL's server errors end with a line
     * giving the position of the error in the statement ("Position: 28"), which is Rein's own SQL, not the user's.
     */
    String said(java.sql.SQLException e) {
        String message = e.getMessage();
        return this == POSTGRES && message != null ? message.replaceFirst("\\R\\s*Position: \\d+\\s*$", "") : message;
    }

    /**
     * The directory a SQLite URL's database file would be in, when it does not exist; null when it does, or the URL
     * names no file (an in-memory database) or one that cannot be told.
     */
    static java.nio.file.Path missingDirectory(String jdbcUrl) {
        String path = jdbcUrl.substring("jdbc:sqlite:".length());
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
            if (path.startsWith("//")) {
                path = path.substring(2); // file://host/path: a local file's host is empty (file:///path)
            }
            int query = path.indexOf('?');
            if (query >= 0) {
                if (path.substring(query).contains("mode=memory")) {
                    return null;
                }
                path = path.substring(0, query);
            }
        }
        if (path.isEmpty() || path.startsWith(":memory:")) {
            return null;
        }
        try {
            java.nio.file.Path parent = java.nio.file.Path.of(path).toAbsolutePath().getParent();
            return parent != null && !java.nio.file.Files.exists(parent) ? parent : null;
        } catch (java.nio.file.InvalidPathException | java.io.IOError | SecurityException notAPath) {
            return null;
        }
    }

    /** One attempt at preparing a store. */
    interface Preparation {
        void run() throws java.sql.SQLException;
    }

    /** The store's connection, opened when it has none: the one a {@link Preparation} uses. */
    interface Opening {
        java.sql.Connection open() throws java.sql.SQLException;
    }

    /** The advisory lock PostgreSQL sessions preparing Rein's tables take in turn (any number: Rein's own). */
    private static final long SCHEMA_LOCK = 0x7265696e5f736368L; // "rein_sch"

    /**
     * Runs {@code prepare} on PostgreSQL in one transaction that first takes {@link #SCHEMA_LOCK}: its
     * CREATE TABLE IF NOT EXISTS does not wait for another session creating the same table, but fails
     * ('duplicate key value violates unique constraint "pg_type_typname_nsp_index"'), so processes
     * started together on a new database (replicas deployed at once) take turns instead, and the
     * schema version is recorded once. DDL is transactional there: a failure leaves nothing half-made.
     */
    private static void serialized(java.sql.Connection c, Preparation prepare) throws java.sql.SQLException {
        c.setAutoCommit(false);
        try {
            try (java.sql.Statement st = c.createStatement()) {
                st.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            }
            prepare.run();
            c.commit();
        } catch (java.sql.SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (java.sql.SQLException ignored) {
                // the preparation's own failure is the one to report
            }
            throw e;
        }
        c.setAutoCommit(true);
    }

    /**
     * {@code jdbcUrl}, refused when null (a configuration value left unset) with a sentence naming {@code method} and
     * what to pass, where the first use of the URL would throw a bare NullPointerException.
     */
    static String requireUrl(String jdbcUrl, String method) {
        if (jdbcUrl == null) {
            throw new dev.rein.ReinException(method + " was given no JDBC URL (null): pass the database's URL, such as"
                    + " jdbc:postgresql://db.example.com:5432/rein or jdbc:sqlite:/var/lib/rein/rein.db");
        }
        if (livesInItsConnection(jdbcUrl)) {
            // the stores close their connection on a failure (and on close) and open a new one for the next call: such a
            // database would be gone with everything in it, and the next call find no table
            String store = method.substring(0, method.indexOf('.'));
            boolean memory = store.equals("JdbcMemoryStore");
            throw new dev.rein.ReinException(method + " was given " + masked(jdbcUrl, jdbcUrl) + ", a SQLite database that lives"
                    + " only in its connection, which the store closes after a failure and opens again, so everything in it would"
                    + " be lost; use " + (memory ? "InMemoryMemoryStore" : "InMemoryRunStore") + " for a store kept in this"
                    + " process, or a file: " + store + ".sqlite(directory), or jdbc:sqlite:/path/to/" + JdbcRunStore.SQLITE_FILE);
        }
        return jdbcUrl;
    }

    /**
     * Whether a SQLite URL names a database that is not a file, which ends with its connection: {@code :memory:}, an empty
     * path (SQLite's temporary database) or a URI with {@code mode=memory}.
     */
    static boolean livesInItsConnection(String jdbcUrl) {
        if (!jdbcUrl.startsWith("jdbc:sqlite:")) {
            return false;
        }
        String path = jdbcUrl.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        if (path.startsWith("file:") && query >= 0 && java.util.Arrays.asList(path.substring(query + 1).split("&")).contains("mode=memory")) {
            return true;
        }
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
        }
        if (query >= 0) {
            path = path.substring(0, path.indexOf('?'));
        }
        return path.isEmpty() || path.equals(":memory:");
    }

    /** {@code directory}, refused when null with a sentence naming {@code method} and what to pass. */
    static java.nio.file.Path requireDirectory(java.nio.file.Path directory, String method) {
        if (directory == null) {
            throw new dev.rein.ReinException(method + " was given no directory (null): pass the directory to keep "
                    + JdbcRunStore.SQLITE_FILE + " in, such as Path.of(\".rein\"), or JdbcRunStore.defaultDirectory() ($"
                    + JdbcRunStore.HOME_VARIABLE + ", else .rein in the working directory)");
        }
        return directory;
    }

    static Dialect of(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRES;
        }
        throw new dev.rein.ReinException("unsupported JDBC URL '" + masked(jdbcUrl, jdbcUrl)
                + "': the run store speaks SQLite (jdbc:sqlite:...) and PostgreSQL (jdbc:postgresql:...)");
    }

    /** A password in a JDBC URL's parameters ({@code password=}, {@code sslpassword=}) or its user info ({@code //user:pw@}). */
    private static final java.util.regex.Pattern PASSWORD =
            java.util.regex.Pattern.compile("(?i)(?<=[?&;](?:ssl)?password=)[^&;]*|(?<=//[^/@:?]{1,200}:)[^/@?]*(?=@)");

    /**
     * {@code text} (a message, or the URL itself) with the password {@code url} carries masked as
     * {@code ***}: a URL is quoted in the stores' messages, which reach logs, a run's message and its trace.
     */
    static String masked(String text, String url) {
        if (text == null || url == null) {
            return text;
        }
        String shown = PASSWORD.matcher(url).replaceAll("***");
        return shown.equals(url) ? text : text.replace(url, shown);
    }

    /**
     * Makes {@code columns} of {@code table} TEXT on PostgreSQL where a store created by an earlier Rein
     * has them VARCHAR(n) (which SQLite never enforced, so the same value failed on PostgreSQL alone):
     * PostgreSQL changes VARCHAR to TEXT without rewriting the table. Nothing is changed when they are
     * TEXT already, nor on SQLite.
     */
    void widen(java.sql.Statement st, String table, String... columns) throws java.sql.SQLException {
        if (this != POSTGRES) {
            return;
        }
        java.sql.Savepoint at = st.getConnection().getAutoCommit() ? null : st.getConnection().setSavepoint();
        try {
            widenColumns(st, table, columns);
        } catch (java.sql.SQLException e) {
            if (!JdbcRunStore.mayNotBeChanged(e) || at == null) {
                throw e;
            }
            // a role that may use the table but not alter it (another role owns it) keeps it as it is: a longer value
            // fails as it did before, until the owner opens the store with this Rein
            st.getConnection().rollback(at);
        }
    }

    private static void widenColumns(java.sql.Statement st, String table, String... columns) throws java.sql.SQLException {
        List<String> narrow = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs = st.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_schema ="
                + " current_schema() AND table_name = '" + table + "' AND data_type <> 'text' AND column_name IN ('"
                + String.join("', '", columns) + "')")) {
            while (rs.next()) {
                narrow.add(rs.getString(1));
            }
        }
        if (!narrow.isEmpty()) {
            st.execute("ALTER TABLE " + table + " " + String.join(", ", narrow.stream().map(c -> "ALTER COLUMN " + c + " TYPE TEXT").toList()));
        }
    }

    /**
     * Adds the nullable {@code column} of SQL {@code type} to {@code table} when a store an earlier Rein created
     * lacks it (rows that Rein wrote have it NULL); nothing when it is there. Another process adding it at the
     * same moment is no failure.
     */
    void addColumn(java.sql.Statement st, String table, String column, String type) throws java.sql.SQLException {
        if (hasColumn(st, table, column)) {
            return;
        }
        try {
            st.execute("ALTER TABLE " + table + " ADD COLUMN " + column + " " + type);
        } catch (java.sql.SQLException e) {
            if (!hasColumn(st, table, column)) {
                throw e;
            }
        }
    }

    /**
     * Runs a {@code CREATE ... IF NOT EXISTS} statement. PostgreSQL refuses CREATE INDEX IF NOT EXISTS to a role that
     * does not own the table even when the index is there: a role that uses tables another role made (a deployment's
     * migration role) goes on when what the statement makes is there.
     */
    void createIfMissing(java.sql.Statement st, String ddl) throws java.sql.SQLException {
        java.sql.Savepoint at = this == POSTGRES && !st.getConnection().getAutoCommit() ? st.getConnection().setSavepoint() : null;
        try {
            st.execute(ddl);
        } catch (java.sql.SQLException e) {
            if (!JdbcRunStore.mayNotBeChanged(e) || at == null) {
                throw e;
            }
            st.getConnection().rollback(at);
            if (!exists(st, ddl)) {
                throw e;
            }
        }
    }

    /**
     * Whether the table or index a {@code CREATE ... IF NOT EXISTS name} statement makes is there already, in the
     * connection's schema (PostgreSQL; false on SQLite, which does not refuse such a statement when it is).
     */
    boolean exists(java.sql.Statement st, String ddl) throws java.sql.SQLException {
        java.util.regex.Matcher name = java.util.regex.Pattern.compile("IF NOT EXISTS (\\w+)").matcher(ddl);
        if (this != POSTGRES || !name.find()) {
            return false;
        }
        // in current_schema(), where the CREATE would make it: a table of the name in a later schema of the search path is
        // another store (the owner, who may create, makes a new one in the first schema)
        try (java.sql.ResultSet rs = st.executeQuery("SELECT to_regclass(quote_ident(current_schema()) || '." + name.group(1)
                + "') IS NOT NULL")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /**
     * Whether {@code column} of {@code table} (in the connection's schema) has a unique index of its own that an
     * {@code INSERT ... ON CONFLICT DO NOTHING} takes as its arbiter: valid, not partial, not deferred, on that column
     * alone (PostgreSQL's catalog; false on SQLite, and when the column is not there).
     */
    boolean uniqueColumn(java.sql.Statement st, String table, String column) throws java.sql.SQLException {
        if (this != POSTGRES) {
            return false;
        }
        try (java.sql.ResultSet rs = st.executeQuery("SELECT EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute a"
                + " ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] WHERE i.indrelid = to_regclass('" + table + "')"
                + " AND i.indisunique AND i.indisvalid AND i.indimmediate AND i.indnatts = 1 AND i.indpred IS NULL"
                + " AND a.attname = '" + column + "')")) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /**
     * The columns each of Rein's tables has had since it was first made (a column added later, such as the events'
     * append_key, is added when missing instead): a table of that name without them is another program's.
     */
    private static final java.util.Map<String, List<String>> REIN_COLUMNS = java.util.Map.of(
            "rein_schema", List.of("version"),
            "rein_runs", List.of("run_id", "version", "status", "reason", "goal", "model", "steps", "cost_usd",
                    "pending_approvals", "created_at", "updated_at", "snapshot"),
            "rein_idempotency", List.of("idempotency_key", "run_id", "status", "record", "updated_at"),
            "rein_events", List.of("id", "run_id", "step", "type", "time_ms", "event"),
            "rein_memory", List.of("id", "tenant", "principal", "text", "source_run", "source_observation", "source",
                    "created_by", "created_at", "expires_at"),
            "rein_memory_terms", List.of("entry_id", "tenant", "principal", "term"));

    /**
     * Refuses the table a {@code CREATE TABLE IF NOT EXISTS name} statement names when it was there already without
     * the columns Rein's has: another program's table of that name, which the statement left as it is, would else
     * fail the next statement in the database's words alone ("no such column: tenant"), naming neither the table nor
     * a remedy. Nothing of it is changed. {@code failing} starts the message: "cannot prepare ... at URL".
     */
    void requireReinTable(java.sql.Statement st, String ddl, String failing) throws java.sql.SQLException {
        java.util.regex.Matcher name = java.util.regex.Pattern.compile("^CREATE TABLE IF NOT EXISTS (\\w+)").matcher(ddl);
        if (!name.find() || !REIN_COLUMNS.containsKey(name.group(1))) {
            return;
        }
        String table = name.group(1);
        List<String> missing = new java.util.ArrayList<>(REIN_COLUMNS.get(table));
        for (String column : columnsOf(st, table)) {
            missing.removeIf(column::equalsIgnoreCase);
        }
        if (!missing.isEmpty()) {
            String store = table.startsWith("rein_memory") ? "memory store" : "run store";
            throw new dev.rein.state.StoreException(failing + ": the table " + table + " there is not Rein's (it has no column "
                    + String.join(", ", missing) + "): another program's table has the name Rein's " + store + " uses; rename"
                    + " that table, or keep Rein's tables in a database of their own (on PostgreSQL, a schema of their own:"
                    + " currentSchema=rein in the URL)");
        }
    }

    private boolean hasColumn(java.sql.Statement st, String table, String column) throws java.sql.SQLException {
        return columnsOf(st, table).stream().anyMatch(column::equalsIgnoreCase);
    }

    /**
     * The names of the columns of {@code table}, the one an unqualified name finds (PostgreSQL's search_path, SQLite's
     * temp database, then main, then attached ones in the order they were attached), from the catalog: no column of it is read, so a role granted only the columns
     * Rein uses opens a table that has others too (a SELECT * needs every column), and a table's own extra columns cost
     * nothing. Empty when there is no such table.
     */
    private List<String> columnsOf(java.sql.Statement st, String table) throws java.sql.SQLException {
        String sql = this == POSTGRES
                ? "SELECT attname FROM pg_catalog.pg_attribute WHERE attrelid = to_regclass('" + table + "') AND attnum > 0"
                        + " AND NOT attisdropped ORDER BY attnum"
                : "PRAGMA table_info(" + table + ")";
        List<String> names = new java.util.ArrayList<>();
        try (java.sql.ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                names.add(rs.getString(this == POSTGRES ? "attname" : "name"));
            }
        }
        return names;
    }

    List<String> schema() {
        return List.of(
                "CREATE TABLE IF NOT EXISTS rein_schema (version INTEGER NOT NULL)",
                "CREATE TABLE IF NOT EXISTS rein_runs (run_id TEXT PRIMARY KEY, version BIGINT NOT NULL,"
                        + " status VARCHAR(32) NOT NULL, reason VARCHAR(200), goal TEXT, model TEXT, steps INTEGER,"
                        + " cost_usd TEXT, pending_approvals INTEGER, created_at BIGINT, updated_at BIGINT,"
                        + " snapshot TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS rein_runs_updated ON rein_runs (updated_at)",
                "CREATE TABLE IF NOT EXISTS rein_idempotency (idempotency_key TEXT PRIMARY KEY,"
                        + " run_id TEXT NOT NULL, status VARCHAR(16) NOT NULL, record TEXT NOT NULL, updated_at BIGINT)",
                "CREATE TABLE IF NOT EXISTS rein_events (id " + autoIncrementKey + ", run_id TEXT NOT NULL,"
                        + " step INTEGER, type VARCHAR(64), time_ms BIGINT, event TEXT NOT NULL, append_key VARCHAR(36) UNIQUE)",
                "CREATE INDEX IF NOT EXISTS rein_events_run ON rein_events (run_id, id)");
    }
}
