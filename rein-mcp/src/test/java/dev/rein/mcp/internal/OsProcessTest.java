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

    @Test
    void aChildLeftAliveByAServerThatExitedOnItsOwnGetsSigtermBeforeSigkill(@TempDir Path dir) throws Exception {
        // Before, the server's children still alive once it had exited on its own were sent SIGKILL at once, with no
        // SIGTERM to end their work cleanly, as the MCP specification's shutdown sequence gives.
        // 'wait', which a trapped signal ends at once, as a foreground command's end would not.
        String child = "(trap 'echo term > child; kill $! 2>/dev/null; exit 143' TERM; sleep 60 & echo set > ready; wait) &";
        String script = child + " echo $! > childpid; cat > /dev/null";
        ServerProcess process = OsProcess.start(new McpServerConfig.Stdio("sh", List.of("-c", script), Map.of(), dir));
        try {
            awaitFile(dir.resolve("ready")); // the child's trap is set
            process.destroy();
            assertThat(dir.resolve("child")).as("the child got SIGTERM, and ran its trap").exists();
            assertThat(Files.readString(dir.resolve("child")).strip()).isEqualTo("term");
        } finally {
            kill(dir.resolve("childpid"));
        }
    }

    @Test
    void aChildStartedWhileTheServerHadItsTimeToExitIsSignalledToo(@TempDir Path dir) throws Exception {
        // Before, the list of the server's children was taken when ending it began: one it started in the two seconds it
        // had to exit after its input closed was never signalled, and outlived the agent.
        String script = "cat > /dev/null; (trap 'echo term > late; exit 143' TERM; while :; do sleep 0.1; done) &"
                + " echo $! > childpid; sleep 5";
        ServerProcess process = OsProcess.start(new McpServerConfig.Stdio("sh", List.of("-c", script), Map.of(), dir));
        try {
            Thread.sleep(300);
            process.destroy();
            assertThat(dir.resolve("childpid")).as("the server started its child once its input closed").exists();
            // Ended, by SIGTERM or (on a loaded machine, before its trap was set) by SIGKILL; before, it ran on.
            for (int i = 0; i < 60 && !ended(dir.resolve("childpid")); i++) {
                Thread.sleep(50);
            }
            assertThat(ended(dir.resolve("childpid"))).as("the late child was signalled and has ended").isTrue();
        } finally {
            kill(dir.resolve("childpid"));
        }
    }

    @Test
    void closingReturnsOnceTheChildrenHaveExitedNotWhenTheirNewParentReapsThem(@TempDir Path dir) throws Exception {
        // Before, a child of a server that had exited on its own was waited for with ProcessHandle.onExit(), which takes a
        // zombie for a live process and, for a process that is not the JVM's child, polls every 300 ms and more: the child
        // ended at SIGTERM at once, but its new parent (PID 1, which on some hosts reaps only about once a second) left it a
        // zombie, and closing took 1.4-2 s, its whole grace period, for a server already gone.
        String script = "sleep 60 & echo $! > childpid; cat > /dev/null";
        ServerProcess process = OsProcess.start(new McpServerConfig.Stdio("sh", List.of("-c", script), Map.of(), dir));
        try {
            awaitFile(dir.resolve("childpid"));
            Thread.sleep(100); // the child runs
            long start = System.nanoTime();
            process.destroy();
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(ended(dir.resolve("childpid"))).as("the child got SIGTERM and has ended").isTrue();
            // waitFor() returned once the JVM reaped it; onExit() is completed after that, on another thread
            assertThat(process.onExit()).as("the server itself is reaped").succeedsWithin(java.time.Duration.ofSeconds(2));
            assertThat(millis).as("closing took %d ms", millis).isLessThan(700);
        } finally {
            kill(dir.resolve("childpid"));
        }
    }

    /** Whether the process whose pid {@code pidFile} holds has ended: gone, or a zombie its new parent has not reaped yet. */
    private static boolean ended(Path pidFile) throws java.io.IOException {
        Path stat = Path.of("/proc", Files.readString(pidFile).strip(), "stat");
        try {
            String line = Files.readString(stat);
            return line.substring(line.lastIndexOf(')') + 2).startsWith("Z");
        } catch (java.nio.file.NoSuchFileException e) {
            return true;
        }
    }

    private static void awaitFile(Path file) throws InterruptedException {
        for (int i = 0; i < 100 && !Files.exists(file); i++) {
            Thread.sleep(50);
        }
    }

    /** Kills the process whose pid {@code pidFile} holds, if it is still there: a test that failed leaves none behind. */
    private static void kill(Path pidFile) throws java.io.IOException {
        if (Files.exists(pidFile) && !Files.readString(pidFile).isBlank()) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(handle -> {
                handle.descendants().forEach(ProcessHandle::destroyForcibly);
                handle.destroyForcibly();
            });
        }
    }
}
