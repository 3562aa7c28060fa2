package dev.rein.mcp;

import dev.rein.testkit.SelfSignedCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS front for a plain HTTP test server, as a load balancer terminating TLS is: it serves a
 * certificate for 127.0.0.1 made for it, and {@link #trustingClients()} makes the
 * JVM's default TLS context (the one the MCP transport's HTTP client takes) trust it until closed.
 * When {@link #breakOn} is set, a connection whose request holds that text is broken in the middle:
 * a TLS record the client cannot decrypt is written instead of the answer, as a faulty proxy or a
 * corrupted connection gives.
 */
final class TlsFront implements AutoCloseable {
    private static final char[] PASSWORD = "changeit".toCharArray();
    private final ServerSocket listener;
    private final SSLContext context;
    /** The context new connections are served with: {@link #context}, or one the clients do not trust. */
    private volatile SSLContext serving;
    private final java.util.Set<Socket> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final int backendPort;
    private SSLContext previousDefault;
    /** Text that, seen in a request, breaks its connection's TLS; null for none. */
    volatile String breakOn;
    /** Text that, seen in an answer, breaks its connection's TLS there, what came before it delivered; null for none. */
    volatile String breakAnswerOn;

    TlsFront(int backendPort) throws Exception {
        this.backendPort = backendPort;
        context = contextOf("front");
        serving = context;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    /**
     * A TLS context serving a new self-signed certificate for 127.0.0.1 and trusting only it. The
     * certificate is made in the JVM with public JDK APIs ({@link SelfSignedCertificate}): making it
     * with keytool started a JVM for each, about 8 s apiece on a loaded machine.
     */
    private static SSLContext contextOf(String name) throws Exception {
        SelfSignedCertificate made = SelfSignedCertificate.forLoopback();
        KeyStore keys = made.keyStore(name, PASSWORD);
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry(name, made.certificate());
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, PASSWORD);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    /**
     * From now on, new connections are served a certificate the clients do not trust (as after a
     * certificate was replaced by one from another CA), and the open ones are closed.
     */
    void serveAnUntrustedCertificate() throws Exception {
        serving = contextOf("other");
        for (Socket socket : open) {
            socket.close();
        }
    }

    String url(String path) {
        return "https://127.0.0.1:" + listener.getLocalPort() + path;
    }

    /**
     * What Rein says of a connection this front broke with a record no key decrypts (breakOn, breakAnswerOn), up to
     * the end of its sentence: the same words for a call and for a start.
     */
    String brokeDuringTheExchange() {
        return "the TLS connection with " + url("").substring("https://".length()) + " broke during the exchange (a record"
                + " could not be decrypted: it was damaged or altered on its way); check the network path to the server (a"
                + " proxy, load balancer or VPN between Rein and it) and the server's TLS setup";
    }

    /** Makes the JVM's default TLS context trust this front's certificate, until {@link #close()}. */
    TlsFront trustingClients() throws Exception {
        previousDefault = SSLContext.getDefault();
        SSLContext.setDefault(context);
        return this;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket raw = listener.accept();
                Thread.ofVirtual().start(() -> serve(raw));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(Socket raw) {
        open.add(raw);
        try (raw; SSLSocket tls = (SSLSocket) serving.getSocketFactory().createSocket(raw, null, true);
             Socket backend = new Socket(InetAddress.getLoopbackAddress(), backendPort)) {
            tls.setUseClientMode(false);
            tls.startHandshake();
            Thread.ofVirtual().start(() -> answer(backend, tls, raw));
            InputStream in = tls.getInputStream();
            OutputStream out = backend.getOutputStream();
            StringBuilder seen = new StringBuilder();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                seen.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
                String trigger = breakOn;
                if (trigger != null && seen.indexOf(trigger) >= 0) {
                    raw.getOutputStream().write(UNDECRYPTABLE);
                    raw.getOutputStream().flush();
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the client or the backend went away
        } finally {
            open.remove(raw);
        }
    }

    /** Relays the backend's answers to the client, breaking the connection at {@link #breakAnswerOn}. */
    private void answer(Socket backend, SSLSocket tls, Socket raw) {
        try {
            InputStream in = backend.getInputStream();
            OutputStream out = tls.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                String chunk = new String(buffer, 0, n, StandardCharsets.ISO_8859_1);
                String trigger = breakAnswerOn;
                int at = trigger == null ? -1 : chunk.indexOf(trigger);
                if (at >= 0) {
                    out.write(buffer, 0, at);
                    out.flush();
                    // Straight after the headers: the client may see the break as its event stream's end (Rein's own
                    // reading of the stream) or as the SDK's failure of the request, whichever comes first.
                    Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextInt(2) * 300L);
                    raw.getOutputStream().write(UNDECRYPTABLE);
                    raw.getOutputStream().flush();
                    raw.close();
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // either side closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An application-data record of TLS 1.2/1.3 framing whose bytes no key decrypts. */
    private static final byte[] UNDECRYPTABLE = new byte[5 + 48];

    static {
        UNDECRYPTABLE[0] = 0x17;
        UNDECRYPTABLE[1] = 0x03;
        UNDECRYPTABLE[2] = 0x03;
        UNDECRYPTABLE[4] = 48;
        java.util.Arrays.fill(UNDECRYPTABLE, 5, UNDECRYPTABLE.length, (byte) 0x5a);
    }

    @Override
    public void close() throws IOException {
        if (previousDefault != null) {
            SSLContext.setDefault(previousDefault);
        }
        listener.close();
    }
}
