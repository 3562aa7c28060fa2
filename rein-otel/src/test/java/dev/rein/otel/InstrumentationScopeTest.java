package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Who made the telemetry: the instrumentation scope of every span and metric. */
class InstrumentationScopeTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    @Test
    void spansAndMetricsNameTheirInstrumentationScopeWithItsVersion() {
        // Tracer and Meter creation: "version (optional): Specifies the version of the instrumentation
        // scope if the scope has a version (e.g. a library version)". rein-otel has one.
        ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic").build()
                .install(Agent.builder().model(ScriptedModel.of(text("Hello."))).modelName(ScriptedModel.DEFAULT_NAME)
                        .prices(ScriptedModel.PRICES)).build().run("say hello");

        assertThat(OTEL.getSpans()).isNotEmpty().allSatisfy(span -> assertScope(span.getInstrumentationScopeInfo()));
        assertThat(OTEL.getMetrics()).isNotEmpty().extracting(MetricData::getInstrumentationScopeInfo)
                .allSatisfy(InstrumentationScopeTest::assertScope);
    }

    private static void assertScope(InstrumentationScopeInfo scope) {
        assertThat(scope.getName()).isEqualTo("dev.rein.otel");
        assertThat(scope.getVersion()).as("the scope's version").isNotNull().matches("\\d+\\.\\d+\\.\\d+.*");
    }
}
