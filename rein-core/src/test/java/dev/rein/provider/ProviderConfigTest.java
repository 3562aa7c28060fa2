package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProviderConfigTest {
    @Test
    void aBaseUrlNeedsAnHttpSchemeAndAHost() {
        assertThat(ProviderConfig.isHttpUrl("https://api.example.com/v1")).isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://127.0.0.1:11434/v1")).isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://[::1]:8080")).isTrue();
        // java.net.URI reads no host here, and the JDK client and the OpenAI SDK refuse such a URL
        assertThat(ProviderConfig.isHttpUrl("http://ollama_server:11434/v1")).as("a Docker Compose service name").isFalse();
        assertThat(ProviderConfig.isHttpUrl("http://user@my_host")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("http://")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("https://:80")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("http://exa mple")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("ftp://example.com")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("example.com")).isFalse();
        assertThat(ProviderConfig.isHttpUrl(null)).isFalse();
    }

    @Test
    void aHostWithAnUnderscoreGetsAdviceOtherMistakesNone() {
        assertThat(ProviderConfig.hostAdvice("http://ollama_server:11434/v1")).contains("'_'").contains("IP address");
        assertThat(ProviderConfig.hostAdvice("http://user_x@my_host")).contains("'_'");
        assertThat(ProviderConfig.hostAdvice("http://user_x@myhost")).isEmpty();
        assertThat(ProviderConfig.hostAdvice("http://localhost:11434/v1")).isEmpty();
        assertThat(ProviderConfig.hostAdvice("http://")).isEmpty();
        assertThat(ProviderConfig.hostAdvice("ftp://a_b")).isEmpty();
        assertThat(ProviderConfig.hostAdvice("http://a_b c")).isEmpty();
        assertThat(ProviderConfig.hostAdvice(null)).isEmpty();
    }
}
