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
            "PRAGMA busy_timeout=10000",
            "PRAGMA journal_mode=WAL",
            "PRAGMA secure_delete=ON",
            "PRAGMA synchronous=FULL")),
    POSTGRES("BIGSERIAL PRIMARY KEY", List.of());

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
     * fail at once instead of waiting for the busy timeout.
     */
    void prepare(Preparation prepare, Runnable close) throws java.sql.SQLException {
        long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                prepare.run();
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

    /** One attempt at preparing a store. */
    interface Preparation {
        void run() throws java.sql.SQLException;
    }

    static Dialect of(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRES;
        }
        throw new dev.rein.ReinException("unsupported JDBC URL '" + jdbcUrl
                + "': the run store speaks SQLite (jdbc:sqlite:...) and PostgreSQL (jdbc:postgresql:...)");
    }

    List<String> schema() {
        return List.of(
                "CREATE TABLE IF NOT EXISTS rein_schema (version INTEGER NOT NULL)",
                "CREATE TABLE IF NOT EXISTS rein_runs (run_id VARCHAR(200) PRIMARY KEY, version BIGINT NOT NULL,"
                        + " status VARCHAR(32) NOT NULL, reason VARCHAR(200), goal TEXT, model VARCHAR(200), steps INTEGER,"
                        + " cost_usd VARCHAR(40), pending_approvals INTEGER, created_at BIGINT, updated_at BIGINT,"
                        + " snapshot TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS rein_runs_updated ON rein_runs (updated_at)",
                "CREATE TABLE IF NOT EXISTS rein_idempotency (idempotency_key VARCHAR(300) PRIMARY KEY,"
                        + " run_id VARCHAR(200) NOT NULL, status VARCHAR(16) NOT NULL, record TEXT NOT NULL, updated_at BIGINT)",
                "CREATE TABLE IF NOT EXISTS rein_events (id " + autoIncrementKey + ", run_id VARCHAR(200) NOT NULL,"
                        + " step INTEGER, type VARCHAR(64), time_ms BIGINT, event TEXT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS rein_events_run ON rein_events (run_id, id)");
    }
}
