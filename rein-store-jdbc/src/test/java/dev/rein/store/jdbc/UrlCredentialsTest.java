package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A JDBC URL may carry the database password ({@code jdbc:postgresql://db/rein?user=rein&password=...}, as
 * a DATABASE_URL often does). Before: every message of the stores quoted the URL whole, so the password
 * went into a StoreException, the message of a run stopped {@code store_error} (kept in its trace and its
 * stored state) and the log's warnings. Now the URL is quoted with the password masked.
 */
class UrlCredentialsTest {
    private static final String SECRET = "s3cret-パス";

    @Test
    void aPasswordInTheUrlIsNeverQuotedInTheStoresMessages() {
        // nothing listens on port 1: the store cannot be prepared, and says where it tried
        String url = "jdbc:postgresql://127.0.0.1:1/rein?user=rein&password=" + SECRET + "&connectTimeout=2";
        assertThatThrownBy(() -> JdbcRunStore.connect(url, null, null))
                .hasMessageContaining("jdbc:postgresql://127.0.0.1:1/rein?user=rein&password=***&connectTimeout=2")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> JdbcMemoryStore.connect(url.replace("password=", "PASSWORD="), null, null))
                .hasMessageStartingWith("cannot prepare its tables in the memory store at jdbc:postgresql://127.0.0.1:1/")
                .hasMessageContaining("PASSWORD=***&connectTimeout=2")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> JdbcRunStore.connect("jdbc:mysql://db/rein?user=rein&password=" + SECRET, null, null))
                .hasMessageContaining("unsupported JDBC URL 'jdbc:mysql://db/rein?user=rein&password=***'")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> JdbcMemoryStore.connect("jdbc:mysql://rein:" + SECRET + "@db/rein", null, null))
                .hasMessageContaining("'jdbc:mysql://rein:***@db/rein'")
                .hasMessageNotContaining(SECRET);
    }
}
