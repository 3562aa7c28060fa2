package dev.rein.store.jdbc;

import java.sql.SQLException;

/**
 * What both stores do when the database ended the connection they keep (a PostgreSQL server restarted
 * or failed over, an idle connection cut by the network): the kept connection only finds out on its
 * next use, so the work is done once more on a new one.
 */
final class ConnectionLoss {
    private ConnectionLoss() {}

    /** One piece of work that asks for the store's connection itself. */
    interface Work<T> {
        T run() throws SQLException;
    }

    /**
     * Does {@code work}, and once more after {@code dropConnection} (which closes the kept connection, so
     * the next use opens a new one) when the first attempt failed because the connection was lost.
     */
    static <T> T retrying(Work<T> work, Runnable dropConnection) throws SQLException {
        try {
            return work.run();
        } catch (SQLException e) {
            if (!lost(e)) {
                throw e;
            }
            dropConnection.run();
            return work.run();
        }
    }

    /** SQLSTATE class 08 (connection exception) and 57P01-57P03 (the server shut down or cannot take connections now). */
    static boolean lost(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03"));
    }
}
