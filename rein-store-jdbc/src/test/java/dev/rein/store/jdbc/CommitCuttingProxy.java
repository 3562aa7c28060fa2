package dev.rein.store.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy in front of a PostgreSQL server that, once {@link #cutAfterNextCommit() armed}, hands the
 * server a client's COMMIT (or {@link #cutAfterNext another statement}) and then ends that connection before the server's answer reaches the client:
 * the transaction is committed, but the client only sees its connection lost, as when a network cut or a
 * failover falls between the commit and its acknowledgement.
 */
final class CommitCuttingProxy implements AutoCloseable {
    private static final byte[] COMMIT = "COMMIT".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern HOST_PORT = Pattern.compile("^jdbc:postgresql://([^/:?]+)(?::(\\d+))?(/.*)$");

    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final String rest;
    private final AtomicBoolean armed = new AtomicBoolean();
    /** The bytes whose passing to the server ends the connection once armed. */
    private volatile byte[] marker = COMMIT;
    private final AtomicBoolean cut = new AtomicBoolean();
    private final AtomicBoolean refusing = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** A proxy for the server of {@code jdbcUrl} (jdbc:postgresql://host[:port]/...). */
    CommitCuttingProxy(String jdbcUrl) throws IOException {
        Matcher m = HOST_PORT.matcher(jdbcUrl);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a jdbc:postgresql://host:port/... URL: " + jdbcUrl);
        }
        host = m.group(1);
        port = m.group(2) == null ? 5432 : Integer.parseInt(m.group(2));
        rest = m.group(3);
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    /**
     * The URL that reaches the server through this proxy, without server-side prepared statements: a COMMIT
     * the driver had prepared would be sent by a statement name, which this proxy cannot tell from others.
     */
    String url() {
        return "jdbc:postgresql://127.0.0.1:" + listener.getLocalPort() + rest + (rest.contains("?") ? "&" : "?") + "prepareThreshold=0";
    }

    /** The next COMMIT a client sends reaches the server, and its connection is ended before the answer comes back. */
    void cutAfterNextCommit() {
        cutAfterNext("COMMIT");
    }

    /**
     * The next message a client sends that holds {@code statementText} (an autocommitted statement, which the
     * server commits as it runs it) reaches the server, and its connection is ended before the answer comes back.
     */
    void cutAfterNext(String statementText) {
        marker = statementText.getBytes(StandardCharsets.UTF_8);
        cut.set(false);
        armed.set(true);
    }

    /** Whether new connections are ended at once, as when the server is down, or passed on again. */
    void refuseConnections(boolean refuse) {
        refusing.set(refuse);
    }

    /** Whether a connection was ended after its COMMIT since {@link #cutAfterNextCommit()}. */
    boolean didCut() {
        return cut.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = listener.accept();
                if (refusing.get()) {
                    client.close(); // as a server that is down: the connection ends before the first byte
                    continue;
                }
                Socket server = new Socket(host, port);
                sockets.add(client);
                sockets.add(server);
                AtomicBoolean dropAnswers = new AtomicBoolean();
                Thread.ofVirtual().start(() -> pump(client, server, dropAnswers, true));
                Thread.ofVirtual().start(() -> pump(server, client, dropAnswers, false));
            }
        } catch (IOException closed) {
            // the proxy was closed
        }
    }

    private void pump(Socket from, Socket to, AtomicBoolean dropAnswers, boolean toServer) {
        byte[] buffer = new byte[65_536];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (!toServer && dropAnswers.get()) {
                    continue; // the server's answer to the commit never reaches the client
                }
                boolean commit = toServer && contains(buffer, n) && armed.compareAndSet(true, false);
                if (commit) {
                    dropAnswers.set(true);
                }
                out.write(buffer, 0, n);
                out.flush();
                if (commit) {
                    Thread.sleep(300); // the server commits meanwhile
                    cut.set(true);
                    from.close();
                    to.close();
                    return;
                }
            }
        } catch (IOException | InterruptedException ended) {
            // either side ended the connection
        } finally {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // closing is all that is left
            }
        }
    }

    private boolean contains(byte[] buffer, int length) {
        byte[] wanted = marker;
        outer:
        for (int i = 0; i + wanted.length <= length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (buffer[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
