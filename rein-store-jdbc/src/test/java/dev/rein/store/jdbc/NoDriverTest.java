package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Driver;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;

/**
 * An application that follows docs/memory.md to PostgreSQL without the driver on its class path. Before: the run
 * store said to add org.postgresql:postgresql, while the memory store said only JDBC's "No suitable driver found".
 */
class NoDriverTest {
    @Test
    void bothStoresSayWhichDriverToAddWhenNoneTakesTheUrl() throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:1/rein?password=s3cret";
        Driver postgres = DriverManager.getDriver(url);
        DriverManager.deregisterDriver(postgres);
        try {
            assertThatThrownBy(() -> JdbcRunStore.connect(url, "rein", null))
                    .hasMessageContaining("no JDBC driver for jdbc:postgresql://127.0.0.1:1/rein?password=***")
                    .hasMessageContaining("add org.postgresql:postgresql");
            assertThatThrownBy(() -> JdbcMemoryStore.connect(url, "rein", null))
                    .hasMessageStartingWith("cannot prepare its tables in the memory store at jdbc:postgresql://127.0.0.1:1/rein?password=***")
                    .hasMessageContaining("no JDBC driver")
                    .hasMessageContaining("add org.postgresql:postgresql")
                    .hasMessageNotContaining("s3cret");
        } finally {
            DriverManager.registerDriver(postgres);
        }
    }
}
