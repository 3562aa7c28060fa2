package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.openai.ChatReply;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * Every connection of the OpenAI provider has {@code TCP_NODELAY}: OkHttp leaves Nagle's algorithm
 * on, and a request body of a long run then waits for the server's delayed ACK on every call.
 */
class TcpNoDelayTest extends FakeChat {

    @Test
    void theConnectionAModelCallUsedHasTcpNoDelay() throws Exception {
        server.enqueue(ChatReply.text("見つかりました"));
        assertThat(call(request("検索して: " + "あ".repeat(30_000))).text()).isEqualTo("見つかりました");
        assertThat(model.http().connectionPool().connectionCount()).isEqualTo(1); // the SDK used this client

        // The same client with a listener: the next exchange takes the model call's pooled connection.
        List<Socket> sockets = new CopyOnWriteArrayList<>();
        OkHttpClient watched = model.http().newBuilder().eventListener(new EventListener() {
            @Override
            public void connectionAcquired(Call call, Connection connection) {
                sockets.add(connection.socket());
            }
        }).build();
        server.enqueue(ChatReply.text("again"));
        try (Response response = watched.newCall(new Request.Builder().url(server.baseUrl() + "/chat/completions")
                .post(RequestBody.create("{\"model\":\"gpt-test\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                        MediaType.get("application/json"))).build()).execute()) {
            assertThat(response.code()).isEqualTo(200);
        }

        assertThat(sockets).hasSize(1);
        assertThat(sockets.get(0).getOption(StandardSocketOptions.TCP_NODELAY)).isTrue();
        assertThat(model.http().connectionPool().connectionCount()).isEqualTo(1); // reused, not a new one
    }

    @Test
    void closingTheModelClosesItsPooledConnections() throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request("x"));
        assertThat(model.http().connectionPool().connectionCount()).isEqualTo(1);

        model.close();

        assertThat(model.http().connectionPool().connectionCount()).isZero();
        assertThat(model.http().dispatcher().executorService().isShutdown()).isTrue();
    }

    @Test
    void everyKindOfSocketTheFactoryMakesHasTcpNoDelay() throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            InetAddress host = InetAddress.getLoopbackAddress();
            int port = listener.getLocalPort();
            NoDelaySockets factory = NoDelaySockets.INSTANCE;
            for (Socket socket : List.of(factory.createSocket(), factory.createSocket(host, port),
                    factory.createSocket(host.getHostAddress(), port), factory.createSocket(host, port, host, 0),
                    factory.createSocket(host.getHostAddress(), port, host, 0))) {
                try (socket) {
                    assertThat(socket.getTcpNoDelay()).isTrue();
                }
            }
        }
    }
}
