package dev.rein.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP receiver in the test JVM: {@code POST /v1/traces} and {@code /v1/metrics} with
 * protobuf bodies, decoded with the official {@code opentelemetry-proto} classes, answered 200.
 */
final class OtlpReceiver implements AutoCloseable {
    private final HttpServer server;
    private final List<ExportTraceServiceRequest> traces = new CopyOnWriteArrayList<>();
    private final List<ExportMetricsServiceRequest> metrics = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    private final List<String> contentEncodings = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile Duration tracesDelay = Duration.ZERO;
    private volatile Duration metricsDelay = Duration.ZERO;
    /** What each trace export is answered with; null: the empty response (full success). */
    private volatile byte[] tracesResponse;
    /** What each metrics export is answered with; null: the empty response (full success). */
    private volatile byte[] metricsResponse;

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    static OtlpReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        OtlpReceiver receiver = new OtlpReceiver(server);
        server.createContext("/v1/traces", receiver::traces);
        server.createContext("/v1/metrics", receiver::metrics);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        return receiver;
    }

    /** Answers every export with {@code code} from now on (e.g. 400 to see how the CLI reports a refusing collector). */
    OtlpReceiver answering(int code) {
        this.status = code;
        return this;
    }

    /**
     * Answers each trace export with {@code traces} and each metrics export with {@code metrics} as the body
     * (an encoded ExportTraceServiceResponse with partial_success, say); null keeps the empty response.
     */
    OtlpReceiver answeringWith(byte[] traces, byte[] metrics) {
        this.tracesResponse = traces;
        this.metricsResponse = metrics;
        return this;
    }

    /** Answers each trace export only after {@code delay} (a slow collector, or one far away). */
    OtlpReceiver delayingTraces(Duration delay) {
        this.tracesDelay = delay;
        return this;
    }

    /** Answers each metrics export only after {@code delay}. */
    OtlpReceiver delayingMetrics(Duration delay) {
        this.metricsDelay = delay;
        return this;
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void traces(HttpExchange exchange) throws IOException {
        traces.add(ExportTraceServiceRequest.parseFrom(body(exchange)));
        try {
            Thread.sleep(tracesDelay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] response = tracesResponse;
        answer(exchange, response != null ? response : ExportTraceServiceResponse.getDefaultInstance().toByteArray());
    }

    private void metrics(HttpExchange exchange) throws IOException {
        metrics.add(ExportMetricsServiceRequest.parseFrom(body(exchange)));
        try {
            Thread.sleep(metricsDelay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        byte[] response = metricsResponse;
        answer(exchange, response != null ? response : ExportMetricsServiceResponse.getDefaultInstance().toByteArray());
    }

    private byte[] body(HttpExchange exchange) throws IOException {
        contentTypes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")));
        contentEncodings.add(java.util.Objects.requireNonNullElse(exchange.getRequestHeaders().getFirst("Content-Encoding"), ""));
        InputStream in = exchange.getRequestBody();
        if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
            in = new GZIPInputStream(in);
        }
        return in.readAllBytes();
    }

    private void answer(HttpExchange exchange, byte[] response) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
        exchange.sendResponseHeaders(status, response.length);
        exchange.getResponseBody().write(response);
        exchange.close();
    }

    List<Span> spans() {
        return traces.stream().flatMap(r -> r.getResourceSpansList().stream())
                .flatMap(rs -> rs.getScopeSpansList().stream()).flatMap(ss -> ss.getSpansList().stream()).toList();
    }

    List<Resource> spanResources() {
        return traces.stream().flatMap(r -> r.getResourceSpansList().stream()).map(rs -> rs.getResource()).toList();
    }

    List<Metric> metrics() {
        return metrics.stream().flatMap(r -> r.getResourceMetricsList().stream())
                .flatMap(rm -> rm.getScopeMetricsList().stream()).flatMap(sm -> sm.getMetricsList().stream()).toList();
    }

    /** Each metric's instrumentation scope name, by metric name. */
    java.util.Map<String, String> metricScopes() {
        java.util.Map<String, String> scopes = new java.util.TreeMap<>();
        metrics.stream().flatMap(r -> r.getResourceMetricsList().stream()).flatMap(rm -> rm.getScopeMetricsList().stream())
                .forEach(sm -> sm.getMetricsList().forEach(m -> scopes.put(m.getName(), sm.getScope().getName())));
        return scopes;
    }

    List<String> contentTypes() {
        return List.copyOf(contentTypes);
    }

    /** The Content-Encoding of each export ("" for none, "gzip"). */
    List<String> contentEncodings() {
        return List.copyOf(contentEncodings);
    }

    /** Waits (briefly) for what the exporter may still be sending; the CLI flushes before it exits, so this rarely waits. */
    void awaitUntil(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (!condition.getAsBoolean() && Instant.now().isBefore(end)) {
            Thread.sleep(20);
        }
    }

    static Optional<AnyValue> attribute(List<KeyValue> attributes, String key) {
        return attributes.stream().filter(kv -> kv.getKey().equals(key)).map(KeyValue::getValue).findFirst();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
