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
}
