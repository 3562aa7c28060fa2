package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.rein.agent.Agent;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ReinTelemetry#global()} and an application that registers its SDK as the global one. */
class GlobalTelemetryTest {
    @BeforeEach
    @AfterEach
    void noGlobal() {
        GlobalOpenTelemetry.resetForTest();
        System.clearProperty("otel.java.global-autoconfigure.enabled");
    }

    @Test
    void globalWithTheAutoconfigureSwitchButNoAutoconfigureModuleDoesNotBlockALaterRegistration() {
        // GlobalOpenTelemetry.get() with the switch on but without opentelemetry-sdk-extension-autoconfigure (not on
        // this module's test class path) configures nothing and sets a no-op as the global
        System.setProperty("otel.java.global-autoconfigure.enabled", "true");
        ReinTelemetry.global();
        assertThatCode(() -> OpenTelemetrySdk.builder().buildAndRegisterGlobal())
                .as("the application registers its SDK after ReinTelemetry.global()").doesNotThrowAnyException();
    }

    @Test
    void globalTelemetryMadeBeforeTheSdkIsRegisteredDoesNotBlockItsRegistration() {
        // GlobalOpenTelemetry: "Native instrumentation should use getOrNoop() as the default OpenTelemetry
        // instance"; get() sets a no-op as the global when none is set, and a later set() then throws.
        ReinTelemetry early = ReinTelemetry.global();
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        SdkTracerProvider tracing = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
        assertThatCode(() -> OpenTelemetrySdk.builder().setTracerProvider(tracing).buildAndRegisterGlobal())
                .as("the application registers its SDK after Rein's global telemetry was made").doesNotThrowAnyException();

        early.install(agent()).build().run("say hello");
        assertThat(spans.getFinishedSpanItems()).as("made before the SDK was registered: no-op").isEmpty();
        ReinTelemetry.global().install(agent()).build().run("say hello");
        assertThat(spans.getFinishedSpanItems()).extracting(s -> s.getName()).contains("invoke_agent rein");
        tracing.close();
    }

    private static Agent.Builder agent() {
        return Agent.builder().model(ScriptedModel.of(text("Hello."))).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES);
    }

    /**
     * The switch is read as GlobalOpenTelemetry.get() reads it (SDK 1.68 ConfigUtil.getString, Boolean.parseBoolean):
     * "true " is off for the SDK, so Rein must not take it as on and call get(), which would set a no-op global.
     */
    @Test
    void theAutoconfigureSwitchIsReadAsTheSdkReadsIt() {
        assertThat(ReinTelemetry.autoconfigureSwitch(properties("otel.java.global-autoconfigure.enabled", "true "), Map.of()))
                .as("not trimmed").isFalse();
        assertThat(ReinTelemetry.autoconfigureSwitch(properties("otel.java.global-autoconfigure.enabled", "TRUE"), Map.of())).isTrue();
        assertThat(ReinTelemetry.autoconfigureSwitch(properties("otel.java.global.autoconfigure.enabled", "true"), Map.of()))
                .as("the key normalised, '-' as '.'").isTrue();
        assertThat(ReinTelemetry.autoconfigureSwitch(new java.util.Properties(), Map.of("OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED", "true")))
                .isTrue();
        assertThat(ReinTelemetry.autoconfigureSwitch(new java.util.Properties(), Map.of("OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED", " true")))
                .isFalse();
        assertThat(ReinTelemetry.autoconfigureSwitch(properties("otel.java.global-autoconfigure.enabled", "false"),
                Map.of("OTEL_JAVA_GLOBAL_AUTOCONFIGURE_ENABLED", "true"))).as("the system property first").isFalse();
        assertThat(ReinTelemetry.autoconfigureSwitch(new java.util.Properties(), Map.of())).isFalse();
    }

    private static java.util.Properties properties(String key, String value) {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty(key, value);
        return properties;
    }
}
