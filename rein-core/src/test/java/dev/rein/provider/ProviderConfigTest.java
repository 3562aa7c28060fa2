package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProviderConfigTest {
    @Test
    void aBaseUrlNeedsAnHttpSchemeAndAHostButAHostMayHoldAnUnderscore() {
        assertThat(ProviderConfig.isHttpUrl("https://api.example.com/v1")).isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://127.0.0.1:11434/v1")).isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://[::1]:8080")).isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://ollama_server:11434/v1")).as("a Docker Compose service name").isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://user@my_host")).isTrue();
        assertThat(ProviderConfig.isHttpUrl("http://")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("https://:80")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("http://exa mple")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("ftp://example.com")).isFalse();
        assertThat(ProviderConfig.isHttpUrl("example.com")).isFalse();
        assertThat(ProviderConfig.isHttpUrl(null)).isFalse();
    }
}
