package dev.rein.mcp;

import dev.rein.mcp.internal.ServerProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.util.concurrent.CompletableFuture;

/** A server "process" inside the test JVM: pipes in place of its stdin, stdout and stderr, and an exit code to complete. */
abstract class PipedProcess implements ServerProcess {
    /** What the client writes; the server reads its source. */
    protected final Pipe toServer = open();
    /** What the server writes on stdout; the client reads its source. */
    protected final Pipe toClient = open();
    /** The server's stderr. */
    protected final Pipe errors = open();
    protected final CompletableFuture<Integer> exit = new CompletableFuture<>();

    @Override
    public OutputStream stdin() {
        return Channels.newOutputStream(toServer.sink());
    }

    @Override
    public InputStream stdout() {
        return Channels.newInputStream(toClient.source());
    }

    @Override
    public InputStream stderr() {
        return Channels.newInputStream(errors.source());
    }

    @Override
    public CompletableFuture<Integer> onExit() {
        return exit;
    }

    private static Pipe open() {
        try {
            return Pipe.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
