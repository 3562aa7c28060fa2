package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.ModelCallContext;
import dev.rein.testkit.FakeReply;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Credential headers as the official SDKs send them: an API key as {@code x-api-key}, an auth
 * token as {@code Authorization: Bearer}, and both when both are configured.
 */
class CredentialsTest extends FakeApi {

    @AfterEach
    void clearProperty() {
        System.clearProperty("anthropic.authToken");
    }

    @Test
    void anAuthTokenFromTheEnvironmentIsSentNextToTheApiKey() throws Exception {
        System.setProperty("anthropic.authToken", "gateway-token");
        try (AnthropicModel both = AnthropicModel.builder().apiKey("key").baseUrl(server.baseUrl()).build()) {
            callWith(both);
        }
        assertThat(last().header("x-api-key")).isEqualTo("key");
        assertThat(last().header("authorization")).isEqualTo("Bearer gateway-token");
    }

    @Test
    void anExplicitAuthTokenAloneIsSentAsABearerToken() throws Exception {
        try (AnthropicModel tokenOnly = AnthropicModel.builder().apiKey(null).authToken("gateway-token")
                .baseUrl(server.baseUrl()).build()) {
            callWith(tokenOnly);
        }
        assertThat(last().header("authorization")).isEqualTo("Bearer gateway-token");
        if (System.getenv("ANTHROPIC_API_KEY") == null) {
            assertThat(last().header("x-api-key")).isNull();
        }
    }

    @Test
    void anExplicitAuthTokenWinsOverTheEnvironment() throws Exception {
        System.setProperty("anthropic.authToken", "from-environment");
        try (AnthropicModel explicit = AnthropicModel.builder().apiKey("key").authToken("explicit")
                .baseUrl(server.baseUrl()).build()) {
            callWith(explicit);
        }
        assertThat(last().header("authorization")).isEqualTo("Bearer explicit");
        assertThat(last().header("x-api-key")).isEqualTo("key");
    }

    private void callWith(AnthropicModel other) throws Exception {
        server.enqueue(FakeReply.text("ok"));
        other.call(request("hi").build(), new ModelCallContext(Instant.now().plusSeconds(30), stream));
    }
}
