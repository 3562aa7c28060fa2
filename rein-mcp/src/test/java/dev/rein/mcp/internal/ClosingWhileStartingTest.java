package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.mcp.McpConfig;
import dev.rein.mcp.McpConfigException;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing a connection (the toolset's JVM shutdown hook on Ctrl-C) while its server is still starting ends
 * the start and the server then, not when the start would have timed out.
 */
class ClosingWhileStartingTest {
    @Test
    void closingWhileTheServerHasNotAnsweredInitializeEndsTheStartAndTheServerWithoutWaitingForTheStartsLimit() throws Exception {
        // A server that reads its input and never answers; its start may take an hour (its timeout_seconds).
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"slow\": {\"command\": \"sh\", \"args\": [\"-c\", \"cat > /dev/null\"],"
                + " \"timeout_seconds\": 3600}}}", "test", Map.of());
        ServerConnection connection = new ServerConnection(config.servers().getFirst(), OsProcess.launcher(), McpJsonDefaults.getMapper(),
                tools -> {});
        CompletableFuture<Object> start = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                start.complete(connection.start());
            } catch (RuntimeException e) {
                start.complete(e);
            }
        });
        List<ProcessHandle> server = List.of();
        for (int i = 0; i < 1000 && server.isEmpty(); i++) {
            Thread.sleep(10);
            server = ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList();
        }
        assertThat(server).as("the server was started").isNotEmpty();

        // The start's limit is an hour: 20 s only tells closing at once from waiting for it (close held the lock start held).
        CompletableFuture.runAsync(connection::close).get(20, TimeUnit.SECONDS);

        assertThat(start.get(20, TimeUnit.SECONDS)).isInstanceOfSatisfying(McpConfigException.class, e -> assertThat(e)
                .hasMessage("MCP server 'slow' could not be started: the agent's MCP connections were closed while it was starting."));
        assertThat(server).noneMatch(ProcessHandle::isAlive);
    }
}
