package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.StreamObserver;
import dev.rein.model.Usage;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnthropicProviderTest {
    @Test
    void costCountsEveryTokenKind() {
        ModelPrice sonnet = AnthropicProvider.PRICES.find("claude-sonnet-5").orElseThrow();
        // 1M of each: input 2.00 + output 10.00 + cache read 0.20 + 5m write 2.50 + 1h write 4.00
        Usage usage = Usage.of(1_000_000, 1_000_000, 1_000_000, 2_000_000).withCacheWriteDetail(ResponseMapper.WRITE_1H, 1_000_000);
        assertThat(sonnet.cost(usage)).isEqualByComparingTo("18.70");
        ModelPrice haiku = AnthropicProvider.PRICES.find("claude-haiku-4-5").orElseThrow();
        assertThat(haiku.cost(Usage.of(2_000, 1_000, 10_000, 4_000))).isEqualByComparingTo("0.013");
    }

    @Test
    void datedModelIdsUseTheBasePrice() {
        PriceTable prices = AnthropicProvider.PRICES;
        assertThat(prices.find("claude-sonnet-5-20261015")).isPresent();
        assertThat(prices.find("gpt-9")).isEmpty();
        assertThat(prices.with("gpt-9", ModelPrice.of("1", "0.1", "2")).find("gpt-9")).isPresent();
    }

    @Test
    void theProviderIsFoundByNameAndChecksItsConfiguration() {
        ModelProvider provider = ModelProvider.require("anthropic");
        assertThat(provider).isInstanceOf(AnthropicProvider.class);
        assertThat(provider.defaultModel()).isEqualTo("claude-sonnet-5");
        assertThatThrownBy(() -> provider.create(ProviderConfig.of(Map.of())))
                .isInstanceOf(ReinException.class).hasMessageContaining("ANTHROPIC_API_KEY is not set");
        assertThatThrownBy(() -> provider.create(ProviderConfig.of(Map.of("ANTHROPIC_API_KEY", "k", "ANTHROPIC_BASE_URL", "ftp://x"))))
                .isInstanceOf(ReinException.class).hasMessageContaining("http:// or https://");
        try (AnthropicModel model = (AnthropicModel) provider.create(ProviderConfig.of(Map.of("ANTHROPIC_API_KEY", "k")))) {
            assertThat(model.defaultModelName()).isEqualTo(AnthropicProvider.DEFAULT_MODEL);
            assertThat(model.providerName()).as("gen_ai.provider.name").isEqualTo(provider.name());
            assertThat(model.serverUri()).as("server.address").isEqualTo(java.net.URI.create(AnthropicModel.DEFAULT_BASE_URL));
            assertThat(model.streams()).as("gen_ai.request.stream: every request is sent with stream true").isTrue();
        }
        try (AnthropicModel model = (AnthropicModel) provider.create(ProviderConfig.of(
                Map.of("ANTHROPIC_API_KEY", "k", "ANTHROPIC_BASE_URL", "http://[::1]:8080")))) {
            assertThat(model.serverUri()).as("server.address").isEqualTo(java.net.URI.create("http://[::1]:8080"));
        }
        assertThatThrownBy(() -> ModelProvider.require("nope")).isInstanceOf(ReinException.class)
                .hasMessageContaining("no model provider named 'nope'").hasMessageContaining("anthropic");
    }

    @Test
    void aKeySetButBlankIsCalledBlankNotUnset() {
        // 'export ANTHROPIC_API_KEY=' (a variable left empty by a script) is set: saying "not set" sends the user looking in the wrong place
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of("ANTHROPIC_API_KEY", "  "))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("ANTHROPIC_API_KEY is not set to a key (it is empty): set it with 'export ANTHROPIC_API_KEY=<your key>'")
                .hasMessageContaining("./rein demo");
    }

    @Test
    void aKeyWithACharacterNoHeaderCanCarryNamesTheVariableNotTheKey() {
        // The CLI turns this into one usage line (exit 2) before any request, instead of a FAILED run
        // whose message printed the key.
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of("ANTHROPIC_API_KEY", "sk-ant-api03-abc\u2026"))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("ANTHROPIC_API_KEY has a character no HTTP header can carry (U+2026, character 17 of 17)")
                .hasMessageNotContaining("sk-ant");
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of("ANTHROPIC_AUTH_TOKEN", "トークン"))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("ANTHROPIC_AUTH_TOKEN has a character no HTTP header can carry (U+30C8, character 1 of 4)")
                .hasMessageNotContaining("トークン");
    }

    @Test
    void aTokenGivenWithItsBearerPrefixIsToldToLeaveThePrefixOut() {
        // Gateways' docs write the header ('Authorization: Bearer sk-...'); copied whole into the variable,
        // the space was reported as a character no header can carry and the user told to copy the token again.
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of("ANTHROPIC_AUTH_TOKEN", "Bearer sk-gw-123456"))))
                .isInstanceOf(ReinException.class)
                .hasMessage("ANTHROPIC_AUTH_TOKEN starts with 'Bearer ': give the token alone, Rein sends it as"
                        + " 'Authorization: Bearer <token>'")
                .hasMessageNotContaining("sk-gw");
        assertThatThrownBy(() -> AnthropicModel.builder().authToken("bearer sk-gw-123456").build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the auth token starts with 'bearer ': give the token alone");
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of("ANTHROPIC_API_KEY", "Bearer sk-ant-api03-x"))))
                .isInstanceOf(ReinException.class)
                .hasMessage("ANTHROPIC_API_KEY starts with 'Bearer ': give the key alone, Rein sends it as 'x-api-key: <key>'");
    }

    @Test
    void aBaseUrlWithAPasswordIsRefusedByItsVariableWithoutShowingThePassword() {
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of(
                "ANTHROPIC_API_KEY", "k", "ANTHROPIC_BASE_URL", "http://proxy:p%40ss@127.0.0.1:4000"))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("ANTHROPIC_BASE_URL must not carry a user name or password, was 'http://***@127.0.0.1:4000'")
                .hasMessageNotContaining("p%40ss");
    }

    @Test
    void anAuthTokenAloneIsEnoughForAGatewayThatTakesABearerToken() throws Exception {
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            Model model = new AnthropicProvider().create(ProviderConfig.of(Map.of(
                    "ANTHROPIC_AUTH_TOKEN", "gateway-token", "ANTHROPIC_BASE_URL", server.baseUrl())));
            try (AnthropicModel anthropic = (AnthropicModel) model) {
                server.enqueue(FakeReply.text("ok"));
                anthropic.call(ModelRequest.builder("claude-test").maxTokens(16).addMessage(Message.user("hi")).build(),
                        new ModelCallContext(Instant.now().plusSeconds(30), StreamObserver.NONE));
            }
            assertThat(server.lastRequest().header("authorization")).isEqualTo("Bearer gateway-token");
        }
        assertThatThrownBy(() -> new AnthropicProvider().create(ProviderConfig.of(Map.of())))
                .isInstanceOf(ReinException.class).hasMessageContaining("ANTHROPIC_AUTH_TOKEN");
    }

    @Test
    void wireStopReasonsMapToNeutralOnes() {
        assertThat(StopReasons.fromWire("max_tokens")).isEqualTo(dev.rein.model.StopReason.MAX_TOKENS);
        assertThat(StopReasons.fromWire("something_new")).isEqualTo(dev.rein.model.StopReason.UNKNOWN);
        assertThat(StopReasons.fromWire(null)).isEqualTo(dev.rein.model.StopReason.UNKNOWN);
    }
}
