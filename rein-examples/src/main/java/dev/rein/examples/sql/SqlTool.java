package dev.rein.examples.sql;

import dev.rein.internal.text.Counts;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * SQL over a read-only connection, with the limits enforced by the tool rather than asked of the
 * model: at most {@value #MAX_ROWS} rows come back (with a note when there were more), and a
 * query is stopped when its time is up (SQLite's progress handler aborts it when the executor's
 * timeout interrupts the call, or shortly after the query's own deadline at the latest).
 */
final class SqlTool {
    static final String RUN_SQL = "run_sql";
    static final int MAX_ROWS = 50;
    static final int MAX_CELL_CHARS = 300;
    static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(3);
    /** Left to the executor's timeout to fire first, so a slow query is reported as a timeout. */
    private static final Duration GRACE = Duration.ofMillis(500);

    private final Path file;
    private final Duration queryTimeout;

    SqlTool(Path file, Duration queryTimeout) {
        this.file = file;
        this.queryTimeout = queryTimeout;
    }

    Tool runSql() {
        return Tool.builder(RUN_SQL)
                .description("Runs one read-only SQL query (SQLite dialect: SELECT, or WITH ... SELECT) on the sales database"
                        + " and returns the rows as a table. At most " + MAX_ROWS + " rows are returned: to see totals,"
                        + " averages or trends, aggregate in SQL (GROUP BY, COUNT, SUM, AVG) instead of reading rows."
                        + " Queries are stopped after " + queryTimeout.toMillis() + " ms. Amounts are integers in JPY;"
                        + " dates are 'YYYY-MM-DD' text (use strftime('%Y', order_date) for the year).")
                .inputSchema("""
                        {"type":"object","properties":{"query":{"type":"string","description":"one SELECT statement"}},
                         "required":["query"],"additionalProperties":false}""")
                .risk(Risk.READ)
                .timeout(queryTimeout)
                .handler((args, ctx) -> query(args.get("query").asText().strip(), ctx))
                .build();
    }

    Tool describeTables() {
        return Tool.builder("describe_tables")
                .description("Lists the tables of the sales database with their columns and row counts. Call it first.")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    StringBuilder sb = new StringBuilder();
                    try (Connection c = open(); Statement s = c.createStatement()) {
                        for (String table : SalesDatabase.TABLES) {
                            sb.append(table).append('(');
                            List<String> columns = new ArrayList<>();
                            try (ResultSet r = s.executeQuery("SELECT name, type FROM pragma_table_info('" + table + "')")) {
                                while (r.next()) {
                                    columns.add(r.getString(1) + " " + r.getString(2));
                                }
                            }
                            sb.append(String.join(", ", columns)).append(")");
                            try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + table)) {
                                sb.append(": ").append(r.getLong(1)).append(" rows\n");
                            }
                        }
                    }
                    return ToolOutput.text(sb.toString().strip()).withSource("sqlite:sales.db");
                })
                .build();
    }

    /**
     * Runs the query on a platform thread and waits for it. The native SQLite call would pin a
     * virtual thread's carrier for as long as it runs, and with every carrier pinned the
     * executor's timeout could not fire; on a platform thread it always can. When the wait is
     * interrupted (the timeout fired, or the run was cancelled), the query is told to abort.
     */
    private ToolOutput query(String sql, ToolContext ctx) throws Exception {
        // The executor stops the call at the earlier of the query timeout and the call's deadline; the query's own
        // stop comes a little later, as a backstop should the interrupt not arrive.
        Instant limit = Instant.now().plus(queryTimeout);
        Instant stopAt = (ctx.deadline().isBefore(limit) ? ctx.deadline() : limit).plus(GRACE);
        AtomicBoolean abandoned = new AtomicBoolean();
        FutureTask<ToolOutput> task = new FutureTask<>(() -> run(sql, stopAt, abandoned));
        Thread.ofPlatform().daemon().name("rein-sql").start(task);
        try {
            return task.get();
        } catch (InterruptedException e) {
            abandoned.set(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private ToolOutput run(String sql, Instant stopAt, AtomicBoolean abandoned) throws SQLException, TimeoutException {
        try (Connection c = open()) {
            // Called by SQLite every 1,000 instructions of the query; non-zero aborts it.
            ProgressHandler.setHandler(c, 1_000, new ProgressHandler() {
                @Override
                protected int progress() {
                    return abandoned.get() || Instant.now().isAfter(stopAt) ? 1 : 0;
                }
            });
            try (Statement s = c.createStatement()) {
                s.setMaxRows(MAX_ROWS + 1);
                try (ResultSet rows = s.executeQuery(sql)) {
                    return ToolOutput.text(table(sql, rows)).withSource("sqlite:sales.db");
                }
            } catch (SQLException e) {
                if (abandoned.get() || Instant.now().isAfter(stopAt)) {
                    // Reported as a timeout whichever stop came first: the executor's or this backstop.
                    throw new TimeoutException("the query was stopped after its time limit of " + queryTimeout.toMillis()
                            + " ms. Make it cheaper: filter with WHERE, aggregate, avoid cross joins.");
                }
                return ToolOutput.error("SQL error: " + e.getMessage() + ". Check the table and column names with describe_tables.");
            }
        }
    }

    /** A read-only connection: opened read-only by SQLite, and query_only on top. */
    private Connection open() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setOpenMode(SQLiteOpenMode.READONLY);
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA query_only = ON");
        }
        return c;
    }

    private static String table(String sql, ResultSet rows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        int columns = meta.getColumnCount();
        StringBuilder sb = new StringBuilder("query: ").append(sql.replaceAll("\\s+", " ")).append('\n');
        List<String> header = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
            header.add(meta.getColumnLabel(i));
        }
        sb.append(String.join(" | ", header)).append('\n');
        int count = 0;
        boolean more = false;
        while (rows.next()) {
            if (count == MAX_ROWS) {
                more = true;
                break;
            }
            List<String> cells = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                cells.add(cell(rows.getString(i)));
            }
            sb.append(String.join(" | ", cells)).append('\n');
            count++;
        }
        sb.append(more ? "(showing the first " + MAX_ROWS + " rows; there are more. Do not page through rows: aggregate"
                + " with GROUP BY, COUNT, SUM or AVG, or narrow the query with WHERE.)"
                : "(" + Counts.of(count, "row") + ")");
        return sb.toString();
    }

    private static String cell(String value) {
        if (value == null) {
            return "NULL";
        }
        String flat = value.replace('\n', ' ').replace("|", "/");
        return flat.length() <= MAX_CELL_CHARS ? flat
                : flat.substring(0, MAX_CELL_CHARS) + "… (+" + (flat.length() - MAX_CELL_CHARS) + " characters)";
    }
}
