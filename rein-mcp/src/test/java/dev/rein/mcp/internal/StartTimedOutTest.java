package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.mcp.McpConfig;
import dev.rein.mcp.McpConfigException;
import java.time.Duration;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class StartTimedOutTest {
    @Test
    void theAdviceAtTheLongestTimeoutNamesNoValueTheServersFileRefuses() {
        // A server given "timeout_seconds": 3600, the most the servers file takes, that did not start in time was told to set
        // it "above 3600", which the parser then refuses: advice that cannot be followed.
        String advice = ServerConnection.StartTimedOut.longer(Duration.ofSeconds(3600), "start");
        assertThat(advice).doesNotContain("above 3600").contains("3600 s", "the most");
        Assertions.assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {\"s\": {\"command\": \"s\", \"timeout_seconds\": 3601}}}",
                "test", Map.of())).isInstanceOf(McpConfigException.class).hasMessageContaining("at most 3600");
        // A server given longer in code (McpServerConfig.timeout() takes any) is not told a smaller value either.
        assertThat(ServerConnection.StartTimedOut.longer(Duration.ofSeconds(7200), "start")).doesNotContain("above 7200")
                .contains("7200 s");
        // Below the cap the advice is unchanged: a value above the limit, which the file takes.
        assertThat(ServerConnection.StartTimedOut.longer(Duration.ofSeconds(30), "start")).contains("\"timeout_seconds\" above 30 ");
    }
}
