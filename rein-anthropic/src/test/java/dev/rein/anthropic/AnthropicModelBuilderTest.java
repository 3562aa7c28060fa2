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
}
