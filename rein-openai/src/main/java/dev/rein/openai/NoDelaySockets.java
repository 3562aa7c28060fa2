package dev.rein.openai;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * Plain sockets with {@code TCP_NODELAY} on, for the OkHttp client under the OpenAI SDK. OkHttp
 * leaves Nagle's algorithm on: a request body larger than a few segments then goes out in several
 * writes, and the last one waits for the server's delayed ACK (about 40 ms on loopback, a round
 * trip on a real network), on every call once the history is long enough. HTTPS wraps these
 * sockets, so the option holds for TLS connections too.
 */
final class NoDelaySockets extends SocketFactory {
    static final NoDelaySockets INSTANCE = new NoDelaySockets();

    private NoDelaySockets() {}

    @Override
    public Socket createSocket() throws IOException {
        return noDelay(new Socket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(new Socket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(new Socket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(new Socket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return noDelay(new Socket(address, port, localAddress, localPort));
    }

    private static Socket noDelay(Socket socket) throws IOException {
        socket.setTcpNoDelay(true);
        return socket;
    }
}
