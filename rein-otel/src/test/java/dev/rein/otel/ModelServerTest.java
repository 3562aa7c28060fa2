package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.provider.ModelDefaults;
import dev.rein.provider.PricedModel;
import dev.rein.reflection.Reflection;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * server.address and server.port of a chat span and its metrics: the configured server when one is
 * (ReinTelemetry.Builder.server), else the server of the model the call went to (ModelDefaults.serverUri(),
 * rein-anthropic's and rein-openai's base URL), so a critic's or a fallback's on another endpoint names its own.
 */
class ModelServerTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    /** A model of some provider whose calls go to {@code server} (null: it does not say). */
    private static Model served(ScriptedModel script, String name, String server) {
        class Served implements Model, ModelDefaults {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                return script.call(request, context);
            }

            @Override
            public String defaultModelName() {
                return name;
            }

            @Override
            public PriceTable prices() {
                return PriceTable.empty().with(name, ModelPrice.of("3", "0.3", "15"));
            }

            @Override
            public URI serverUri() {
                return server == null ? null : URI.create(server);
            }
        }
        return PricedModel.of(new Served(), name, ModelPrice.of("3", "0.3", "15")); // the wrapper passes serverUri on
    }

    private static String server(Attributes attributes) {
        return attributes.get(GenAiConventions.SERVER_ADDRESS) + ":" + attributes.get(GenAiConventions.SERVER_PORT);
    }

    private static SpanData span(String name) {
        return OTEL.getSpans().stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    /** The operation-duration points' servers, by request model. */
    private static Map<String, String> durationServers() {
        Map<String, String> servers = new ConcurrentHashMap<>();
        OTEL.getMetrics().stream().filter(m -> m.getName().equals(GenAiConventions.METRIC_OPERATION_DURATION))
                .flatMap(m -> m.getHistogramData().getPoints().stream()).map(HistogramPointData::getAttributes)
                .forEach(a -> servers.put(a.get(GenAiConventions.REQUEST_MODEL), server(a)));
        return servers;
    }

    @Test
    void aCriticsChatSpanBeginsWithItsModelsServerWhichTheSamplerSees() {
        Map<String, String> sampled = new ConcurrentHashMap<>();
        Sampler recording = new Sampler() {
            @Override
            public SamplingResult shouldSample(io.opentelemetry.context.Context parent, String traceId, String name,
                    io.opentelemetry.api.trace.SpanKind kind, Attributes attributes, List<LinkData> links) {
                sampled.putIfAbsent(name, server(attributes));
                return SamplingResult.recordAndSample();
            }

            @Override
            public String getDescription() {
                return "recording";
            }
        };
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().setSampler(recording)
                .addSpanProcessor(SimpleSpanProcessor.create(InMemorySpanExporter.create())).build()).build();
        Agent agent = ReinTelemetry.create(sdk).install(Agent.builder()
                        .model(served(ScriptedModel.of(ScriptedModel.text("Done.")), "test-model", "https://api.acme.example/v1"))
                        .reflection(Reflection.critic(served(ScriptedModel.of(ScriptedModel.toolCalls(
                                ScriptedModel.call("verdict", "{\"approved\":true}"))), "critic-model", "http://[::1]:8080"), "critic-model"))
                        .price("critic-model", ModelPrice.of("1", "0.1", "5")))
                .build();
        assertThat(agent.run("answer").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sampled).containsEntry("chat test-model", "api.acme.example:443").containsEntry("chat critic-model", "::1:8080");
    }

    @Test
    void aCriticsAndAFallbacksSpansAndMetricsNameTheServerTheirCallWentTo() {
        Model backup = served(ScriptedModel.of(ScriptedModel.text("予備の答え")), "backup-model", "http://localhost:11434/v1");
        ModelInterceptor fallback = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                try {
                    return chain.proceed(call);
                } catch (ModelException e) {
                    return chain.proceed(call.withModel(backup).withRequest(call.request().withModel("backup-model")));
                }
            }

            @Override
            public boolean retries() {
                return true;
            }
        };
        Agent agent = ReinTelemetry.create(OTEL.getOpenTelemetry()).install(Agent.builder()
                        .model(served(ScriptedModel.of(ScriptedModel.fail(new ModelException(ModelException.Kind.AUTHENTICATION, 401,
                                "bad key"))), "test-model", "https://api.acme.example"))
                        .price("backup-model", ModelPrice.of("1", "0.1", "5"))
                        .reflection(Reflection.critic(served(ScriptedModel.of(ScriptedModel.toolCalls(
                                ScriptedModel.call("verdict", "{\"approved\":true}"))), "critic-model", "http://[::1]:8080"), "critic-model"))
                        .price("critic-model", ModelPrice.of("1", "0.1", "5")))
                .modelInterceptor(fallback).build();
        RunResult result = agent.run("answer");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);

        assertThat(server(span("chat backup-model").getAttributes())).isEqualTo("localhost:11434");
        assertThat(server(span("chat critic-model").getAttributes())).isEqualTo("::1:8080");
        assertThat(durationServers()).containsEntry("backup-model", "localhost:11434").containsEntry("critic-model", "::1:8080");
    }

    @Test
    void aConfiguredServerIsOnEveryChatSpanAndAModelThatNamesNoneLeavesItOut() {
        Agent configured = ReinTelemetry.builder(OTEL.getOpenTelemetry()).server("gateway.example", 8443).build().install(Agent.builder()
                        .model(served(ScriptedModel.of(ScriptedModel.text("Done.")), "test-model", "https://api.acme.example"))
                        .reflection(Reflection.critic(served(ScriptedModel.of(ScriptedModel.toolCalls(
                                ScriptedModel.call("verdict", "{\"approved\":true}"))), "critic-model", "http://[::1]:8080"), "critic-model"))
                        .price("critic-model", ModelPrice.of("1", "0.1", "5")))
                .build();
        assertThat(configured.run("answer").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(server(span("chat test-model").getAttributes())).isEqualTo("gateway.example:8443");
        assertThat(server(span("chat critic-model").getAttributes())).isEqualTo("gateway.example:8443");
        assertThat(durationServers()).containsEntry("test-model", "gateway.example:8443").containsEntry("critic-model", "gateway.example:8443");

        OTEL.clearSpans();
        Agent unknown = ReinTelemetry.create(OTEL.getOpenTelemetry())
                .install(Agent.builder().model(served(ScriptedModel.of(ScriptedModel.text("Done.")), "other-model", null))).build();
        assertThat(unknown.run("answer").status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(span("chat other-model").getAttributes().get(GenAiConventions.SERVER_ADDRESS)).isNull();
    }
}
