package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenAiModelBuilderTest {

    @Test
    void aBaseUrlWithoutAHostOrWithASpaceIsRefusedWhenBuiltNotAtTheFirstCall() {
        for (String url : new String[] {"http://", "https://", "http://local host:11434/v1", "http:///v1", "localhost:11434"}) {
            assertThatThrownBy(() -> OpenAiModel.builder().environment(name -> null).baseUrl(url).build())
                    .as(url)
                    .isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("the base URL must be an http:// or https:// URL with a host")
                    .hasMessageContaining("'" + url + "'");
        }
    }

    @Test
    void theVariableIsNamedWhenTheBaseUrlCameFromIt() {
        Map<String, String> env = Map.of("OPENAI_BASE_URL", "http://");
        assertThatThrownBy(() -> OpenAiModel.builder().environment(env::get).build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("OPENAI_BASE_URL must be an http:// or https:// URL with a host");
    }

    @Test
    void aHostNameWithAnUnderscoreIsRefusedWithWhatToDo() {
        // A Docker Compose service name with '_' resolves, but java.net.URI reads no host in it, and the
        // SDK then failed with "NullPointerException: host must not be null" from its Azure URL check.
        assertThatThrownBy(() -> OpenAiModel.builder().environment(name -> null).baseUrl("http://ollama_server:11434/v1").build())
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("cannot address a host name with '_'");
    }

    /** A builder setter given null: a ReinException naming it and what to pass, as Agent.builder()'s say; was a bare NPE. */
    @Test
    void aSetterGivenNullSaysWhichAndWhatToPass() {
        assertThatThrownBy(() -> OpenAiModel.builder().maxTokensField(null))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("maxTokensField(...) was given null")
                .hasMessageContaining("MaxTokensField.AUTO");
        assertThatThrownBy(() -> OpenAiModel.builder().clock(null))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining("clock(...) was given null")
                .hasMessageContaining("Clock.systemUTC()");
    }
}
