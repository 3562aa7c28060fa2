package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AnthropicModelBuilderTest {

    @Test
    void configurationMistakesAreRejectedWithAClearMessage() {
        assertThatThrownBy(() -> AnthropicModel.builder().apiKey("  ").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("ANTHROPIC_API_KEY");
        assertThatThrownBy(() -> AnthropicModel.builder().authToken("").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("ANTHROPIC_AUTH_TOKEN");
        assertThatThrownBy(() -> AnthropicModel.builder().baseUrl("api.example.com").build())
                .isInstanceOf(ReinException.class).hasMessageContaining("http://");
        assertThatThrownBy(() -> AnthropicModel.builder().requestTimeout(Duration.ZERO).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("requestTimeout");
    }

    @Test
    void aBaseUrlWithoutAHostOrWithASpaceIsRefusedWhenBuiltNotAtTheFirstCall() {
        for (String url : new String[] {"http://", "https://", "http://api example.com", "http:///v1"}) {
            assertThatThrownBy(() -> AnthropicModel.builder().apiKey("k").baseUrl(url).build())
                    .as(url)
                    .isInstanceOf(ReinException.class)
                    .hasMessageContaining("URL with a host")
                    .hasMessageContaining("'" + url + "'");
        }
        // A Docker Compose service name with '_' resolves, but java.net.URI reads no host in it and the
        // JDK client refuses the request ("unsupported URI"): refused here, with what to do instead.
        assertThatThrownBy(() -> AnthropicModel.builder().apiKey("k").baseUrl("http://llm_proxy:8080").build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("cannot address a host name with '_'");
    }

    @Test
    void aKeyOrTokenWithACharacterNoHeaderCanCarryIsRefusedWhenBuiltWithoutShowingIt() {
        // A key pasted from a web page or a document may carry an invisible or typographic character;
        // the HTTP client refused it at the first call, and the run's message quoted the whole key
        // ('the model client failed with IllegalArgumentException: invalid header value: "sk-ant-…"').
        for (String key : new String[] {"sk-ant-abc\u200b", "sk-ant-キー", "sk-ant\nabc"}) {
            assertThatThrownBy(() -> AnthropicModel.builder().apiKey(key).build())
                    .as(key)
                    .isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("the API key has a character no HTTP header can carry")
                    .hasMessageContaining("copy the key again")
                    .hasMessageNotContaining("sk-ant");
        }
        assertThatThrownBy(() -> AnthropicModel.builder().authToken("token\u00a0x").build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the auth token has a character no HTTP header can carry (U+00A0, character 6 of 7)")
                .hasMessageNotContaining("token\u00a0x");
    }

    @Test
    void aBaseUrlWithCredentialsAQueryOrAFragmentIsRefusedWhenBuilt() {
        // Rein appends /v1/messages to the base URL: a query or fragment would swallow it, and the
        // JDK client sends no user name or password from a URL, while messages would show them.
        assertThatThrownBy(() -> AnthropicModel.builder().apiKey("k").baseUrl("https://user:s3cret@gw.example.com").build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the base URL must not carry a user name or password, was 'https://***@gw.example.com'")
                .hasMessageContaining("ANTHROPIC_AUTH_TOKEN")
                .hasMessageNotContaining("s3cret");
        for (String url : new String[] {"https://gw.example.com/?team=a", "https://gw.example.com#x"}) {
            assertThatThrownBy(() -> AnthropicModel.builder().apiKey("k").baseUrl(url).build())
                    .as(url)
                    .isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("the base URL must not have a query or fragment, was '" + url + "'")
                    .hasMessageContaining("/v1/messages");
        }
    }

    @Test
    void aSetterGivenNullSaysWhichAndWhatToPass() {
        assertThatThrownBy(() -> AnthropicModel.builder().clock(null))
                .isInstanceOf(ReinException.class).hasMessageContaining("clock(...) was given null").hasMessageContaining("Clock.systemUTC()");
        assertThatThrownBy(() -> AnthropicModel.builder().caching(null))
                .isInstanceOf(ReinException.class).hasMessageContaining("caching(...) was given null")
                .hasMessageContaining("PromptCaching.DISABLED");
        assertThatThrownBy(() -> new PromptCaching(true, null))
                .isInstanceOf(ReinException.class).hasMessageContaining("ttl").hasMessageContaining("CacheTtl.ONE_HOUR");
    }

    /**
     * The request options beside the builder's setters (caa2ce57 fixed caching(null) and new PromptCaching(enabled,
     * null) only): AnthropicOptions.caching(null) and AnthropicThinking.withDisplay(null) threw a bare
     * NullPointerException ('caching', 'display').
     */
    @Test
    void anOptionGivenNullSaysWhichAndWhatToPass() {
        assertThatThrownBy(() -> AnthropicOptions.caching(null))
                .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicOptions.caching(...) was given null")
                .hasMessageContaining("PromptCaching.DISABLED");
        assertThatThrownBy(() -> new AnthropicOptions(null))
                .isInstanceOf(ReinException.class).hasMessageContaining("PromptCaching.DEFAULT");
        assertThatThrownBy(() -> AnthropicThinking.adaptive().withDisplay(null))
                .isInstanceOf(ReinException.class).hasMessageContaining("withDisplay(...) was given null")
                .hasMessageContaining("Display.SUMMARIZED");
        // before: bare NullPointerExceptions "model" and "type"
        assertThatThrownBy(() -> AnthropicThinking.refusesBudgets(null))
                .isInstanceOf(ReinException.class).hasMessageContaining("refusesBudgets(...) was given no model name");
        assertThatThrownBy(() -> new AnthropicThinking(null, null, null))
                .isInstanceOf(ReinException.class).hasMessageContaining("AnthropicThinking was given no type");
    }
}
