package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** What the telemetry builder and the link store are not given is said, with what to give, as Rein's builders say it. */
class BuilderInputsTest {
    @Test
    void nullsAreRefusedSayingWhatToPassNotWithABareNullPointerException() {
        assertThatThrownBy(() -> ReinTelemetry.builder(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("builder(...) was given null").hasMessageContaining("ReinTelemetry.global()");
        assertThatThrownBy(() -> ReinTelemetry.create(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("create(...) was given null");
        ReinTelemetry.Builder builder = ReinTelemetry.builder(OpenTelemetry.noop());
        assertThatThrownBy(() -> builder.server((URI) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("server(...) was given null").hasMessageContaining("https://api.anthropic.com");
        assertThatThrownBy(() -> builder.spanLinks(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("spanLinks(...) was given null").hasMessageContaining("SpanLinkStore.inMemory()");
        assertThatThrownBy(() -> builder.propagator(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("propagator(...) was given null").hasMessageContaining("TextMapPropagator.noop()");
        assertThatThrownBy(() -> builder.build().install(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("install(...) was given null").hasMessageContaining("Agent.builder()");
        assertThatThrownBy(() -> SpanLinkStore.directory(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("directory(...) was given null");
    }

    /**
     * server(null, 443) was taken as "no server" and its port dropped without a word, so a user who meant to name the
     * server (an address read from a setting that was missing) got spans without it. server.port goes with
     * server.address (the conventions: conditionally required "if server.address is set"), so a port without an
     * address says nothing: it is refused, saying what to give or to leave server(...) out.
     */
    @Test
    void aServerWithoutAnAddressIsRefusedSayingToGiveOneOrLeaveItOut() {
        ReinTelemetry.Builder builder = ReinTelemetry.builder(OpenTelemetry.noop());
        assertThatThrownBy(() -> builder.server(null, 443)).isInstanceOf(ReinException.class)
                .hasMessageContaining("server(null, 443)").hasMessageContaining("no address")
                .hasMessageContaining("api.anthropic.com").hasMessageContaining("leave server(...) out");
        assertThatThrownBy(() -> builder.server(" ", 443)).isInstanceOf(ReinException.class)
                .hasMessageContaining("blank address");
        assertThatThrownBy(() -> builder.server("api.example.com", 0)).isInstanceOf(ReinException.class)
                .hasMessageContaining("port 0").hasMessageContaining("1-65535");
        assertThatThrownBy(() -> builder.server(URI.create("https://api.example.com:0"))).isInstanceOf(ReinException.class)
                .hasMessageContaining("port 0");
        assertThat(builder.server("api.example.com", 443).build()).isNotNull();
    }
}
