package dev.rein.otel;

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
}
