package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The OTLP/HTTP requests the CLI sends as the standard variables configure them (OTLP exporter
 * spec: the general endpoint gets v1/traces and v1/metrics appended, a signal's own endpoint is
 * used as-is; headers are key=value pairs), seen by a receiver in this JVM that answers 200 to any path.
 */
class OtlpVariablesTest {
    record Request(String path, Map<String, List<String>> headers) {}

    private static final class Receiver implements AutoCloseable {
        final HttpServer server;
        final List<Request> requests = new CopyOnWriteArrayList<>();

        Receiver() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                exchange.getRequestBody().readAllBytes();
                requests.add(new Request(exchange.getRequestURI().getPath(), Map.copyOf(exchange.getRequestHeaders())));
                byte[] body = ExportTraceServiceResponse.getDefaultInstance().toByteArray(); // empty for metrics too
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
                exchange.close();
            });
            server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
            server.start();
        }

        String base() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        List<String> paths() {
            return requests.stream().map(Request::path).toList();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private static InProcessCli.Outcome run(Map<String, String> env) {
        InProcessCli cli = new InProcessCli();
        env.forEach(cli::env);
        cli.models((name, e) -> ScriptedModel.of(text("hi")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "hello");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        return outcome;
    }

    @Test
    void theGeneralEndpointGetsTheSignalPathsWithOrWithoutASlashAndASignalsOwnIsUsedAsIs() throws Exception {
        try (Receiver otlp = new Receiver()) {
            run(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.base() + "/"));
            assertThat(otlp.paths()).contains("/v1/traces", "/v1/metrics").doesNotContain("//v1/traces");
        }
        try (Receiver otlp = new Receiver()) {
            run(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.base() + "/otlp"));
            assertThat(otlp.paths()).contains("/otlp/v1/traces", "/otlp/v1/metrics");
        }
        try (Receiver otlp = new Receiver()) {
            run(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", otlp.base() + "/custom/t", "OTEL_METRICS_EXPORTER", "none"));
            assertThat(otlp.paths()).isNotEmpty().containsOnly("/custom/t");
        }
    }

    @Test
    void headersAreTrimmedAndUrlDecodedAndGzipIsDeclared() throws Exception {
        try (Receiver otlp = new Receiver()) {
            run(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.base(), "OTEL_EXPORTER_OTLP_HEADERS", " x-a = b%20c , x-b=d ",
                    "OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"));
            Request traces = otlp.requests.stream().filter(r -> r.path().equals("/v1/traces")).findFirst().orElseThrow();
            assertThat(traces.headers().get("X-a")).containsExactly("b c");
            assertThat(traces.headers().get("X-b")).containsExactly("d");
            assertThat(traces.headers().get("Content-encoding")).containsExactly("gzip");
        }
    }

    /**
     * The headers' values are W3C Baggage values, percent-encoded as RFC 3986 has it, where a plus
     * sign is a plus sign (the specification's Specifying headers via environment variables). The
     * SDK decodes them as HTML form data, so an API key "abc+def/ghi==" reached the collector as
     * "abc def/ghi==" and the export was refused as unauthorized; %2B and %20 still decode.
     */
    @Test
    void aPlusSignInAHeaderValueIsAPlusSign() throws Exception {
        try (Receiver otlp = new Receiver()) {
            run(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.base(),
                    "OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=abc+def/ghi==,x-b=a%2Bb%20c,x-c+d=e"));
            Request traces = otlp.requests.stream().filter(r -> r.path().equals("/v1/traces")).findFirst().orElseThrow();
            assertThat(traces.headers().get("X-api-key")).containsExactly("abc+def/ghi==");
            assertThat(traces.headers().get("X-b")).containsExactly("a+b c");
            assertThat(traces.headers().get("X-c+d")).containsExactly("e");
        }
    }
}
