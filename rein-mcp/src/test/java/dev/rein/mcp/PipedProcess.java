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

    /**
     * The server's stdin, written as a real process's is: an interrupt of the writing thread does
     * not close it. A pipe's sink is an interruptible channel, closed for good when its writer is
     * interrupted during a write, even one whose bytes already reached the server (the interrupt
     * of a cancelled run's tool thread, just after it sent its call, took the later
     * notifications/cancelled with it). So each write runs on a thread of its own and is waited
     * for without giving way to interrupts.
     */
    @Override
    public OutputStream stdin() {
        OutputStream sink = Channels.newOutputStream(toServer.sink());
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                byte[] bytes = java.util.Arrays.copyOfRange(b, off, off + len);
                java.util.concurrent.FutureTask<Void> write = new java.util.concurrent.FutureTask<>(() -> {
                    sink.write(bytes);
                    return null;
                });
                Thread.ofVirtual().name("piped-stdin").start(write);
                boolean interrupted = false;
                try {
                    while (true) {
                        try {
                            write.get();
                            return;
                        } catch (InterruptedException e) {
                            interrupted = true;
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                        }
                    }
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public void close() throws IOException {
                sink.close();
            }
        };
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
