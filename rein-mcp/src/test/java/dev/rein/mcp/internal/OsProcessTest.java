package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.mcp.McpServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a stdio server process is ended. */
class OsProcessTest {

    @Test
    void aServerThatExitsOnItsOwnAfterItsInputClosesIsNotSignalled(@TempDir Path dir) throws Exception {
        // Like a server that finishes its work and flushes its state once its input ends: about a second.
        String script = "trap 'echo term > ended; exit 143' TERM; cat > /dev/null; sleep 1; echo clean > ended";
        ServerProcess process = OsProcess.start(new McpServerConfig.Stdio("sh", List.of("-c", script), Map.of(), dir));
        Thread.sleep(300); // the trap is set
        process.destroy();
        assertThat(Files.readString(dir.resolve("ended")).strip()).isEqualTo("clean");
    }
}
