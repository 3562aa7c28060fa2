package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.testkit.SelfSignedCertificate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.time.Instant;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

/**
 * A gateway or a company proxy whose TLS certificate this JVM does not trust (self-signed, or signed
 * by a company's own authority) fails the handshake the same way on every attempt: the call fails at
 * once, not retried, saying what the certificate problem is and how to make the JVM trust it.
 */
class UntrustedCertificateTest {

    @Test
    void aServerWhoseCertificateIsNotTrustedFailsAtOnceSayingHowToTrustIt() throws Exception {
        KeyStore keys = SelfSignedCertificate.forLoopback().keyStore("gateway", "changeit".toCharArray());
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, "changeit".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(managers.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        String url = "https://127.0.0.1:" + server.getAddress().getPort();
        try (AnthropicModel model = AnthropicModel.builder().apiKey("test-key").baseUrl(url).build()) {
            ModelRequest request = ModelRequest.builder("claude-test").maxTokens(16).addMessage(Message.user("hi")).build();
            ModelException e = catchThrowableOfType(ModelException.class,
                    () -> model.call(request, ModelCallContext.until(Instant.now().plusSeconds(30))));
            assertThat(e.kind()).isEqualTo(ModelException.Kind.CONNECTION);
            assertThat(e.retryable()).as("every attempt meets the same certificate").isFalse();
            assertThat(e.getMessage()).startsWith("the connection to the server at " + url + " failed: its TLS certificate is"
                    + " not trusted by this JVM (")
                    .contains("if it is a gateway's or a company proxy's own certificate (or its authority), add it to a trust"
                            + " store and give it to Java with -Djavax.net.ssl.trustStore=FILE (for the rein command: in"
                            + " REIN_JAVA_OPTS)");
        } finally {
            server.stop(0);
        }
    }
}
