package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenAiProviderTest {

    @Test
    void isFoundByNameWithItsDefaultModelAndPrices() {
        ModelProvider provider = ModelProvider.require("openai");
        assertThat(provider).isInstanceOf(OpenAiProvider.class);
        assertThat(provider.defaultModel()).isEqualTo("gpt-4.1-mini");
        assertThat(provider.prices().find("gpt-4.1-mini")).isPresent();
        assertThat(provider.prices().find("gpt-4o-2024-08-06")).as("dated names by their base").isPresent();
        assertThat(provider.prices().find("qwen3:8b")).isEmpty();
    }

    @Test
    void thePublicApiWithoutAKeyIsOneLineNamingTheVariable() {
        ModelProvider provider = new OpenAiProvider();
        for (Map<String, String> env : new Map[] {Map.of(), Map.of("OPENAI_API_KEY", " "),
                Map.of("OPENAI_BASE_URL", "https://api.openai.com/v1")}) {
            assertThatThrownBy(() -> provider.create(ProviderConfig.of(env)))
                    .isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("OPENAI_API_KEY is not set")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void aKeySetButBlankIsCalledEmptyNotUnset() {
        // 'export OPENAI_API_KEY=' (a variable a script left empty) is set: "is not set" alone sends the
        // user looking in the wrong place. Worded as for ANTHROPIC_API_KEY, still starting "... is not set".
        assertThatThrownBy(() -> new OpenAiProvider().create(ProviderConfig.of(Map.of("OPENAI_API_KEY", "  "))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("OPENAI_API_KEY is not set to a key (it is empty): set it with 'export OPENAI_API_KEY=<your key>'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> OpenAiModel.builder().environment(Map.of("OPENAI_API_KEY", "")::get).build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("OPENAI_API_KEY is not set to a key (it is empty)");
    }

    @Test
    void aLocalServerNeedsNoKeyAndSettingsWin() throws Exception {
        ModelProvider provider = new OpenAiProvider();
        Model local = provider.create(ProviderConfig.of(Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1")));
        try (OpenAiModel model = (OpenAiModel) local) {
            assertThat(model.baseUrl()).isEqualTo("http://localhost:11434/v1");
            assertThat(model.providerName()).as("gen_ai.provider.name").isEqualTo(provider.name());
        }
        Model set = provider.create(new ProviderConfig(Map.of("OPENAI_BASE_URL", "http://a:1/v1"),
                Map.of("base_url", "http://b:2/v1")));
        try (OpenAiModel model = (OpenAiModel) set) {
            assertThat(model.baseUrl()).isEqualTo("http://b:2/v1");
        }
        assertThatThrownBy(() -> provider.create(ProviderConfig.of(Map.of("OPENAI_BASE_URL", "localhost:11434"))))
                .isInstanceOf(ReinException.class).hasMessageContaining("http://");
    }
}
