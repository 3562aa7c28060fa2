package dev.rein.mcp.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/**
 * A running stdio server: its three streams, how it ends and how to end it. An operating-system
 * process in production; tests plug in servers running inside the test JVM.
 */
public interface ServerProcess {
    OutputStream stdin();

    InputStream stdout();

    InputStream stderr();

    /** Completes with the exit code when the server has ended. */
    CompletableFuture<Integer> onExit();

    /** Ends the server and everything it started; returns once it is gone or could not be ended. */
    void destroy();

    /** Starts a server; {@link IOException} when it cannot be started at all (no such command). */
    @FunctionalInterface
    interface Launcher {
        ServerProcess start(dev.rein.mcp.McpServerConfig.Stdio stdio) throws IOException;
    }
}
