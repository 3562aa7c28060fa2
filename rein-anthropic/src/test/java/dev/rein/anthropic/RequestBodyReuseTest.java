package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.SelfSignedCertificate;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * A request body is sent from its own pooled bytes and goes back to the pool when the exchange is closed, to be
 * rewritten at once by the next call. That is safe only because the JDK's HTTP/1.1 exchange delivers no response
 * before its connection writer has taken the body's end ({@code Exchange.startSendingBody}). A server that answers
 * before it has read the body is the case that rule must hold in: if a JDK ever delivered the response first, the
 * writer would still be sending bytes another call has overwritten, and a server would receive a body that is not
 * the one built. This test is there so that such a JDK fails the build.
 */
class RequestBodyReuseTest {
    private final Map<String, byte[]> received = new ConcurrentHashMap<>();

    @Test
    void bodiesReachAServerThatAnswersFirstByteForByteWhileTheirBuffersAreReused() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            sendAll(server, "http");
        }
    }

    /**
     * The real path (api.anthropic.com) is HTTPS: there the client's {@code SSLFlowDelegate} wraps the body's buffers
     * into encrypted copies before the socket takes them, a different writer than plain HTTP's.
     */
    @Test
    void overTlsToo() throws Exception {
        KeyStore keys = SelfSignedCertificate.forLoopback().keyStore("server", "changeit".toCharArray());
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, "changeit".toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(kmf.getKeyManagers(), null, null);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(keys);
        SSLContext clientTls = SSLContext.getInstance("TLS");
        clientTls.init(null, tmf.getTrustManagers(), null);
        // Transport's client takes the JVM's default context (it has no setting of its own): trust the certificate
        // there for this test only.
        SSLContext old = SSLContext.getDefault();
        SSLContext.setDefault(clientTls);
        try (ServerSocket server = serverTls.getServerSocketFactory().createServerSocket()) {
            sendAll(server, "https");
        } finally {
            SSLContext.setDefault(old);
        }
    }

    private void sendAll(ServerSocket server, String scheme) throws Exception {
        server.setReceiveBufferSize(4096); // small, so a body does not fit in the kernel's buffers
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofVirtual().start(() -> accept(server));
        Duration d = Duration.ofSeconds(30);
        Map<String, byte[]> built = new ConcurrentHashMap<>();
        List<String> errors = new CopyOnWriteArrayList<>();
        AtomicInteger answeredFirst = new AtomicInteger();
        try (Transport t = new Transport(scheme + "://127.0.0.1:" + server.getLocalPort(), "k", null, d, d, d);
                var calls = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int caller = 0; caller < 8; caller++) {
                int c = caller;
                calls.submit(() -> {
                    Random random = new Random(c);
                    for (int i = 0; i < 12; i++) {
                        String id = c + "-" + i;
                        byte[] bytes = body(id, 20_000 + random.nextInt(150_000), (char) ('a' + random.nextInt(26)));
                        built.put(id, bytes);
                        WireBuffer body = WireBuffer.take(1024); // most often one another call just gave back
                        body.write(bytes, 0, bytes.length);
                        try (Exchange x = t.stream(body, List.of(), Map.of())) {
                            if (!received.containsKey(id)) {
                                answeredFirst.incrementAndGet();
                            }
                            // Read whole, so the connection goes back to the client's pool instead of being
                            // reset with the rest of the body still in the kernel's buffers.
                            x.readAll();
                        } catch (Exception e) {
                            errors.add(id + ": " + e);
                        }
                    }
                    return null;
                });
            }
        }
        // The server reads each body after answering: wait until it has all of them (or a body went missing).
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (received.size() < built.size() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(errors).isEmpty();
        assertThat(answeredFirst.get()).as("sends that returned before the server had read the whole body").isPositive();
        List<String> notAsBuilt = built.entrySet().stream()
                .filter(e -> !Arrays.equals(received.get(e.getKey()), e.getValue())).map(Map.Entry::getKey).toList();
        assertThat(notAsBuilt).as("bodies the server did not receive as built (it received %d of %d ids)",
                received.size(), built.size()).isEmpty();
    }

    private static byte[] body(String id, int size, char fill) {
        StringBuilder json = new StringBuilder("{\"id\":\"").append(id).append("\",\"pad\":\"");
        while (json.length() < size) {
            json.append(fill).append(id);
        }
        return json.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private void accept(ServerSocket server) {
        int connection = 0;
        while (true) {
            try {
                Socket socket = server.accept();
                socket.setReceiveBufferSize(4096);
                int status = connection++ % 2 == 0 ? 200 : 400; // the release must hold whatever the answer
                Thread.ofVirtual().start(() -> serve(socket, status));
            } catch (IOException e) {
                return; // the server socket was closed
            }
        }
    }

    /** Answers each request whole before reading a byte of its body, then reads the body slowly. */
    private void serve(Socket socket, int status) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream(), 512);
            OutputStream out = socket.getOutputStream();
            for (String line; (line = line(in)) != null; ) {
                int length = 0;
                while (!(line = line(in)).isEmpty()) {
                    if (line.toLowerCase().startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                byte[] answer = (status == 200 ? "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
                        : "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"no\"}}")
                        .getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 " + status + " X\r\ncontent-type: "
                        + (status == 200 ? "text/event-stream" : "application/json") + "\r\ncontent-length: "
                        + answer.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(answer);
                out.flush();
                byte[] body = new byte[length];
                for (int n = 0; n < length; ) {
                    int r = in.read(body, n, Math.min(1024, length - n));
                    if (r < 0) {
                        throw new EOFException("body cut at " + n + " of " + length);
                    }
                    n += r;
                    Thread.sleep(0, 100_000);
                }
                String head = new String(body, 0, Math.min(40, length), StandardCharsets.UTF_8);
                int from = head.indexOf("\"id\":\"") + 6;
                received.put(head.substring(from, head.indexOf('"', from)), body);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // The connection ended; a body cut short is missing from what was received.
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) >= 0; ) {
            if (c == '\n') {
                return line.toString().strip();
            }
            line.append((char) c);
        }
        return line.isEmpty() ? null : line.toString();
    }
}
