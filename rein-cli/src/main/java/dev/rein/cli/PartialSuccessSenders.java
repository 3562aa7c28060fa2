package dev.rein.cli;

import io.opentelemetry.common.ComponentLoader;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.HttpResponse;
import io.opentelemetry.sdk.common.export.HttpSender;
import io.opentelemetry.sdk.common.export.HttpSenderConfig;
import io.opentelemetry.sdk.common.export.HttpSenderProvider;
import io.opentelemetry.sdk.common.export.MessageWriter;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * OTLP/HTTP exporters that read the partial success in a 2xx answer. The SDK's exporter (1.68) takes any
 * 2xx as success without reading the body (opentelemetry-java#4706), so a collector that rejected part of
 * an export said so to no one. The exporter gets its sender from the {@link HttpSenderProvider}s its
 * {@link ComponentLoader} loads; each OTLP exporter autoconfiguration built is built again with a loader
 * whose provider wraps the JDK sender's: the answer is given to the exporter as it came, after its
 * partial success, if any, was reported. Nothing is retried (OTLP: a partial success must not be) and
 * the export still counts as the success it is.
 */
final class PartialSuccessSenders {
    private PartialSuccessSenders() {
    }

    /** {@code exporter}, when it is OTLP/HTTP, built again to report partial successes as its {@code "spans"}. */
    static SpanExporter reporting(SpanExporter exporter, BiConsumer<String, PartialSuccess> report) {
        if (!(exporter instanceof OtlpHttpSpanExporter otlp)) {
            return exporter;
        }
        SpanExporter reporting = otlp.toBuilder().setComponentLoader(loader("spans", report)).build();
        otlp.shutdown(); // its sender's client, never used
        return reporting;
    }

    /** {@code exporter}, when it is OTLP/HTTP, built again to report partial successes as its {@code "metrics"}. */
    static MetricExporter reporting(MetricExporter exporter, BiConsumer<String, PartialSuccess> report) {
        if (!(exporter instanceof OtlpHttpMetricExporter otlp)) {
            return exporter;
        }
        MetricExporter reporting = otlp.toBuilder().setComponentLoader(loader("metrics", report)).build();
        otlp.shutdown();
        return reporting;
    }

    /**
     * The loader the SDK's own exporters use (this class loader's services), but the HTTP sender
     * provider wrapped. With one provider the exporter takes it and reads no setting; were there
     * several, it would choose by a system property, so those are left as they are.
     */
    static ComponentLoader loader(String signal, BiConsumer<String, PartialSuccess> report) {
        ComponentLoader services = ComponentLoader.forClassLoader(PartialSuccessSenders.class.getClassLoader());
        return new ComponentLoader() {
            @Override
            @SuppressWarnings("unchecked")
            public <T> Iterable<T> load(Class<T> type) {
                if (type != HttpSenderProvider.class) {
                    return services.load(type);
                }
                List<HttpSenderProvider> providers = ComponentLoader.loadList(services, HttpSenderProvider.class);
                if (providers.size() != 1) {
                    return (Iterable<T>) providers;
                }
                HttpSenderProvider provider = providers.get(0);
                return (Iterable<T>) List.<HttpSenderProvider>of(config -> new Reporting(provider.createSender(config), signal, report));
            }
        };
    }

    /** A sender whose 2xx answers' partial success is reported before the exporter gets the answer. */
    private record Reporting(HttpSender sender, String signal, BiConsumer<String, PartialSuccess> report) implements HttpSender {
        @Override
        public void send(MessageWriter writer, Consumer<HttpResponse> onResponse, Consumer<Throwable> onError) {
            sender.send(writer, response -> {
                try {
                    int status = response.getStatusCode();
                    if (status >= 200 && status < 300) { // the exporter's success, as it decides it
                        PartialSuccess.decode(response.getResponseBody()).ifPresent(partial -> report.accept(signal, partial));
                    }
                } catch (RuntimeException e) {
                    // reporting never stands in the export's way
                }
                onResponse.accept(response);
            }, onError);
        }

        @Override
        public CompletableResultCode shutdown() {
            return sender.shutdown();
        }
    }
}
