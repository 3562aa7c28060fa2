package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.rein.testkit.ScriptedModel;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class ExportLogTest {
    private static LogRecord failed(String message, Throwable thrown) {
        LogRecord record = new LogRecord(Level.SEVERE, message);
        record.setThrown(thrown);
        return record;
    }

    @Test
    void onceReinHasSaidTheCollectorDidNotAnswerTheExportersOwnTimeoutIsNotAnotherLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        // Seen in CI: the 5 s line, then the exporter's own 10 s timeout of the same request as a second line.
        log.publish(failed("Failed to export 2 spans.", new java.net.http.HttpTimeoutException("request timed out")));
        log.timeoutsSaid();
        log.publish(failed("Failed to export 3 spans.", new RuntimeException("wrapped", new java.net.http.HttpTimeoutException("request timed out"))));
        log.publish(failed("Failed to export 1 spans.", new java.net.ConnectException("Connection refused")));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "rein: OpenTelemetry: Failed to export 2 spans. (java.net.http.HttpTimeoutException: request timed out)",
                "rein: OpenTelemetry: Failed to export 1 spans. (java.net.ConnectException: Connection refused)");
    }

    /**
     * The SDK logs some warnings with parameters ({0}, {1}), as java.util.logging formats them: the
     * line says the values, not the placeholders. Seen with OTEL_BSP_MAX_EXPORT_BATCH_SIZE=5000:
     * "maxExportBatchSize should not exceed maxQueueSize. Setting maxExportBatchSize to {0} instead of {1}".
     */
    @Test
    void aWarningWithParametersIsSaidWithItsValues() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        LogRecord clamped = new LogRecord(Level.WARNING,
                "maxExportBatchSize should not exceed maxQueueSize. Setting maxExportBatchSize to {0} instead of {1}");
        clamped.setParameters(new Object[] {2048, 5000});
        log.publish(clamped);
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly("rein: OpenTelemetry:"
                + " maxExportBatchSize should not exceed maxQueueSize. Setting maxExportBatchSize to 2048 instead of 5000");
    }

    /** Through the SDK's own configuration: the batch size above the queue size is said with both numbers. */
    @Test
    void aBatchSizeAboveTheQueueSizeIsSaidWithTheNumbers(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CliEnvironment cli = new CliEnvironment(err, err, java.util.Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9",
                "OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "5000", "OTEL_METRICS_EXPORTER", "none"), Terminal.NONE, (name, e) -> {
                    throw new AssertionError("no model");
                }, false);
        try (CliTelemetry ignored = CliTelemetry.from(cli, CliHome.of(java.util.Map.of("REIN_HOME", dir.toString())))) {
            assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("2048").contains("5000").doesNotContain("{0}", "{1}");
        }
    }

    @Test
    void theSameFailureOfExportsOfDifferentSizesIsOneLine() {
        // docs/observability.md: "each distinct export problem is one line". The metrics are exported
        // again at exit with one more point, and the SDK's message counts them: still the same problem.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        IllegalArgumentException invalid = new IllegalArgumentException("Invalid duration: PT-0.005S");
        log.publish(failed("Failed to export 2 spans. The request could not be executed.", invalid));
        log.publish(failed("Failed to export 9 metrics. The request could not be executed.", invalid));
        log.publish(failed("Failed to export 10 metrics. The request could not be executed.", invalid));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly(
                "rein: OpenTelemetry: Failed to export 2 spans. The request could not be executed."
                        + " (java.lang.IllegalArgumentException: Invalid duration: PT-0.005S)",
                "rein: OpenTelemetry: Failed to export 9 metrics. The request could not be executed."
                        + " (java.lang.IllegalArgumentException: Invalid duration: PT-0.005S)");
    }
    @Test
    void theMetricReadersTimeoutIsSaidByItsVariableOnceAndNotAfterTheCollectorWasSaidToBeSilent() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        log.metricExportTimeout(java.time.Duration.ofSeconds(2), true);
        LogRecord timedOut = new LogRecord(Level.WARNING, "Exporter timed out");
        timedOut.setLoggerName("io.opentelemetry.sdk.metrics.export.PeriodicMetricReader");
        log.publish(timedOut);
        log.publish(timedOut);
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).startsWith("rein: OpenTelemetry: the metrics export did not end within"
                        + " OTEL_METRIC_EXPORT_TIMEOUT=2000 ms and was given up"));

        // the flush's line said the collector did not answer: the reader's timeout later is the same problem
        ByteArrayOutputStream after = new ByteArrayOutputStream();
        ExportLog silent = ExportLog.install(new PrintStream(after, true, StandardCharsets.UTF_8));
        silent.timeoutsSaid();
        silent.publish(timedOut);
        assertThat(after.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    /**
     * A receiver with a traces pipeline only, as Jaeger all-in-one and Tempo are: the Collector's otlpreceiver registers
     * /v1/metrics only for a metrics pipeline, so metrics get a 404 there. It takes the spans.
     */
    private static HttpServer tracesOnly(AtomicInteger traces) throws java.io.IOException {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/v1/traces", exchange -> {
            exchange.getRequestBody().readAllBytes();
            traces.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        receiver.start();
        return receiver;
    }

    /** docs/observability.md "Seeing runs": the Jaeger recipe, followed as written, runs without a warning. */
    @Test
    void theDocumentedJaegerRecipeRunsWithoutAWarning() throws Exception {
        AtomicInteger traces = new AtomicInteger();
        HttpServer jaeger = tracesOnly(traces);
        try {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT",
                    "http://127.0.0.1:" + jaeger.getAddress().getPort()).env("OTEL_METRICS_EXPORTER", "none");
            cli.models((name, env) -> ScriptedModel.of(text("391")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "What is 17 * 23?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(traces.get()).as("spans reached the Jaeger-like receiver").isPositive();
            assertThat(outcome.stderr()).doesNotContain("rein: OpenTelemetry:");
        } finally {
            jaeger.stop(0);
        }
    }

    /**
     * Metrics sent to a traces-only receiver that took the spans: the 404 is no wrong endpoint, and the line says so
     * and how to send no metrics, not that OTEL_EXPORTER_OTLP_ENDPOINT is the collector's base URL.
     */
    @Test
    void metricsRefusedWith404ByAReceiverThatTookTheSpansSayItTakesNoMetrics() throws Exception {
        AtomicInteger traces = new AtomicInteger();
        HttpServer jaeger = tracesOnly(traces);
        try {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT",
                    "http://127.0.0.1:" + jaeger.getAddress().getPort());
            cli.models((name, env) -> ScriptedModel.of(text("391")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "What is 17 * 23?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(traces.get()).isPositive();
            assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry:")).singleElement()
                    .satisfies(line -> assertThat(line).contains("metric", "404", "takes no metrics",
                            "OTEL_METRICS_EXPORTER=none").doesNotContain("is the collector's base URL"));
        } finally {
            jaeger.stop(0);
        }
    }

    /** A metrics 404 with the spans refused too is a wrong endpoint: both lines say what to check of it. */
    @Test
    void aMetrics404IsTheEndpointsWhenTheSpansFailedToo() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        log.publish(failed("Failed to export 9 metrics. Server responded with HTTP status code 404. Error message: Not Found", null));
        log.publish(failed("Failed to export 2 spans. Server responded with HTTP status code 404. Error message: Not Found", null));
        log.close();
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).hasSize(2)
                .allSatisfy(line -> assertThat(line).contains("is the collector's base URL").doesNotContain("takes no metrics"));

        // the flush found the collector silent: the spans' fate is unknown, so the endpoint is what to check
        ByteArrayOutputStream silent = new ByteArrayOutputStream();
        ExportLog unanswered = ExportLog.install(new PrintStream(silent, true, StandardCharsets.UTF_8));
        unanswered.publish(failed("Failed to export metrics. Server responded with HTTP status code 404. Error message: Not Found", null));
        unanswered.timeoutsSaid();
        unanswered.close();
        assertThat(silent.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("is the collector's base URL"));
    }

    /** The stderr of {@code rein run} against a traces-only receiver, with {@code env} on top. */
    private static InProcessCli.Outcome runAgainstTracesOnly(AtomicInteger traces, java.util.function.IntFunction<java.util.Map<String, String>> env)
            throws Exception {
        HttpServer receiver = tracesOnly(traces);
        try {
            InProcessCli cli = new InProcessCli();
            env.apply(receiver.getAddress().getPort()).forEach(cli::env);
            cli.models((name, e) -> ScriptedModel.of(text("391")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "What is 17 * 23?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            return outcome;
        } finally {
            receiver.stop(0);
        }
    }

    /**
     * OTEL_EXPORTER_OTLP_METRICS_ENDPOINT set to the base URL (without /v1/metrics): the spans are taken, the metrics
     * get a 404 at "/". That is the endpoint's mistake, not a receiver that takes no metrics.
     */
    @Test
    void aMetricsEndpointWithoutItsPathIsSaidAsTheEndpointEvenWhenTheSpansWereTaken() throws Exception {
        AtomicInteger traces = new AtomicInteger();
        InProcessCli.Outcome outcome = runAgainstTracesOnly(traces, port -> java.util.Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port,
                "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://127.0.0.1:" + port));
        assertThat(traces.get()).isPositive();
        assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry:")).singleElement()
                .satisfies(line -> assertThat(line).contains("metric", "404", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")
                        .contains("used as they are").doesNotContain("takes no metrics", "spans were not refused"));
    }

    /** No span sent at all (OTEL_TRACES_EXPORTER=none), the metrics refused with 404: nothing says the receiver is right. */
    @Test
    void aMetrics404WithNoSpansSentIsSaidAsTheEndpoint() throws Exception {
        AtomicInteger traces = new AtomicInteger();
        InProcessCli.Outcome outcome = runAgainstTracesOnly(traces, port -> java.util.Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port + "/wrong", "OTEL_TRACES_EXPORTER", "none"));
        assertThat(traces.get()).isZero();
        assertThat(outcome.stderrLines()).filteredOn(line -> line.startsWith("rein: OpenTelemetry:")).singleElement()
                .satisfies(line -> assertThat(line).contains("metric", "404", "is the collector's base URL")
                        .doesNotContain("takes no metrics", "spans were not refused"));
    }

    /**
     * The held metrics 404 line is said when the run's flush ends, before the result is printed: Ctrl-C halts the JVM
     * after the result, before the telemetry is closed, so a line said only at close() was lost.
     */
    @Test
    void theHeldMetricsLineIsSaidWhenTheRunsFlushEndsNotAtClose(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        AtomicInteger traces = new AtomicInteger();
        HttpServer jaeger = tracesOnly(traces);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CliEnvironment cli = new CliEnvironment(err, err, java.util.Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                "http://127.0.0.1:" + jaeger.getAddress().getPort()), Terminal.NONE, (name, e) -> {
                    throw new AssertionError("no model");
                }, false);
        try (CliTelemetry telemetry = CliTelemetry.from(cli, CliHome.of(java.util.Map.of("REIN_HOME", dir.toString())))) {
            telemetry.install(dev.rein.agent.Agent.builder().model(ScriptedModel.of(text("hi")))
                    .modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)).build().run("say hi");
            assertThat(traces.get()).isPositive();
            assertThat(bytes.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("rein: OpenTelemetry:")))
                    .as("said when the run's flush ended").singleElement()
                    .satisfies(line -> assertThat(line).contains("404", "takes no metrics"));
        } finally {
            jaeger.stop(0);
        }
    }

    /**
     * Nothing sets an endpoint (OTEL_TRACES_EXPORTER=otlp alone): both signals go to the default http://localhost:4318.
     * The line about a receiver that took the spans but not the metrics named OTEL_EXPORTER_OTLP_ENDPOINT as the
     * receiver, a variable the user never set; it names the default endpoint and the variable that would change it.
     */
    @Test
    void aTracesOnlyReceiverAtTheDefaultEndpointIsNamedAsTheDefault(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CliEnvironment cli = new CliEnvironment(err, err, java.util.Map.of("OTEL_TRACES_EXPORTER", "otlp"), Terminal.NONE,
                (name, e) -> {
                    throw new AssertionError("no model");
                }, false);
        try (CliTelemetry ignored = CliTelemetry.from(cli, CliHome.of(java.util.Map.of("REIN_HOME", dir.toString())))) {
            ExportLog log = java.util.Arrays.stream(java.util.logging.Logger.getLogger("io.opentelemetry").getHandlers())
                    .filter(ExportLog.class::isInstance).map(ExportLog.class::cast).findFirst().orElseThrow();
            log.spanExport(true);
            log.publish(failed("Failed to export metrics. Server responded with HTTP status code 404. Error message: Not Found", null));
            log.flushEnded();
            assertThat(bytes.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("rein: OpenTelemetry:")))
                    .singleElement().satisfies(line -> assertThat(line)
                            .contains("takes no metrics", "the default endpoint http://localhost:4318",
                                    "OTEL_EXPORTER_OTLP_ENDPOINT is not set", "OTEL_METRICS_EXPORTER=none")
                            .doesNotContain("(OTEL_EXPORTER_OTLP_ENDPOINT)"));
        }
    }

    /** With OTEL_EXPORTER_OTLP_ENDPOINT set, the line names it, as the variable that sent both signals there. */
    @Test
    void aTracesOnlyReceiverAtTheSetEndpointIsNamedByItsVariable() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        log.spansShareTheReceiver(true, "OTEL_EXPORTER_OTLP_ENDPOINT");
        log.spanExport(true);
        log.publish(failed("Failed to export metrics. Server responded with HTTP status code 404. Error message: Not Found", null));
        log.close();
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("the same receiver (OTEL_EXPORTER_OTLP_ENDPOINT)", "takes no metrics")
                        .doesNotContain("default"));
    }

    /** An HTTP/2 SETTINGS frame (max_concurrent_streams), what a gRPC server sends first on each connection. */
    private static final byte[] SETTINGS_FRAME = {0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0x40, 0};

    /**
     * What an OTLP/gRPC port (4317: Jaeger's, a Collector's) does with rein's OTLP/HTTP request, as grpc-go's server
     * does: on each connection {@code answers} takes (by its number, from 0) it sends its HTTP/2 SETTINGS frame, reads
     * the request's first bytes, finds no HTTP/2 preface and closes; any other it closes at once, as a real one does at
     * times.
     */
    private static java.net.ServerSocket grpcPort(java.util.function.IntPredicate answers) throws java.io.IOException {
        java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        AtomicInteger connections = new AtomicInteger();
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try (java.net.Socket socket = server.accept()) {
                    if (answers.test(connections.getAndIncrement())) {
                        socket.getOutputStream().write(SETTINGS_FRAME);
                        socket.getOutputStream().flush();
                        socket.getInputStream().readNBytes(24);
                    }
                } catch (java.io.IOException e) {
                    // closed with the test
                }
            }
        });
        return server;
    }

    /**
     * The "rein: OpenTelemetry:" lines of a {@code rein run} (which succeeds) whose OTEL_EXPORTER_OTLP_ENDPOINT is
     * {@code grpc}'s port.
     */
    private static List<String> otelLinesAgainst(java.net.ServerSocket grpc) {
        InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + grpc.getLocalPort());
        cli.models((name, env) -> ScriptedModel.of(text("391")));
        InProcessCli.Outcome outcome = cli.run("run", "--json", "What is 17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        return outcome.stderrLines().stream().filter(line -> line.startsWith("rein: OpenTelemetry:")).toList();
    }

    /**
     * OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP/gRPC port (Jaeger's 4317): the JDK client cannot read an HTTP/1.1 answer,
     * and the line said only that the collector could not be reached, and to check that it is up, which it is. It now
     * says the answer was not HTTP/1.1, as a gRPC port's is, and to use the OTLP/HTTP port.
     */
    @Test
    void anEndpointAtAGrpcPortIsSaidToNeedTheHttpPort() throws Exception {
        try (java.net.ServerSocket grpc = grpcPort(connection -> true)) {
            assertThat(otelLinesAgainst(grpc)).isNotEmpty()
                    .allSatisfy(line -> assertThat(line).contains("not in HTTP/1.1", "OTLP/gRPC", "4318", "OTEL_EXPORTER_OTLP_ENDPOINT")
                            .doesNotContain("could not be reached", "collector is up"));
        }
    }

    /**
     * The flush's line took the LAST retry's failure, and a gRPC port's later answers fail otherwise ("HTTP/1.1 header
     * parser received no bytes" or a reset connection, when it closes them at once): the hint came out only some of the
     * time, after "the collector could not be reached" and "check ... that the collector is up". Once any attempt failed
     * on the status line, the line now opens with the endpoint having answered, not in HTTP/1.1, and does not ask
     * whether the collector is up.
     */
    @Test
    void aGrpcPortIsNamedEvenWhenALaterRetryFailsOtherwise() throws Exception {
        try (java.net.ServerSocket grpc = grpcPort(connection -> connection == 0)) {
            assertThat(otelLinesAgainst(grpc)).singleElement()
                    .satisfies(line -> assertThat(line)
                            .startsWith("rein: OpenTelemetry: the endpoint answered, but not in HTTP/1.1 (java.io.IOException: parsing HTTP/1.1 status line")
                            .contains("OTLP/gRPC", "4318", "check OTEL_EXPORTER_OTLP_ENDPOINT")
                            .doesNotContain("could not be reached", "collector is up"));
        }
    }

    /** FINER: how the JDK sender says it will retry a failed request. */
    private static LogRecord retried(int attempt, Throwable thrown) {
        LogRecord record = new LogRecord(Level.FINER, "Attempt " + attempt + " failed with retryable exception");
        record.setThrown(thrown);
        return record;
    }

    /**
     * The order that lost the hint, fed as the sender logs it: a status-line failure, then retries failing otherwise.
     * The first is kept for the flush's line, and the SDK's own line for the later failure gets the hint too.
     */
    @Test
    void aStatusLineFailureIsKeptWhateverTheLaterRetriesFailWith() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        java.io.IOException statusLine = new java.io.IOException(
                "parsing HTTP/1.1 status line, receiving [\u0000\u0000\u0006\u0004], parser state [STATUS_LINE]");
        log.publish(retried(1, statusLine));
        log.publish(retried(2, new java.io.IOException("HTTP/1.1 header parser received no bytes")));
        log.publish(retried(3, new java.net.SocketException("Connection reset")));
        assertThat(log.notHttpAnswer()).isSameAs(statusLine);
        log.publish(failed("Failed to export 1 spans. The request could not be executed.",
                new java.io.IOException("HTTP/1.1 header parser received no bytes")));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("not HTTP/1.1", "OTLP/gRPC", "4318"));
    }

    /**
     * A carriage return in the SETTINGS frame not followed by a line feed (max_concurrent_streams 13) is the JDK's
     * "Bad trailing char, ..., when parsing status line", a ProtocolException, which got no hint.
     */
    @Test
    void aBadTrailingCharInTheStatusLineGetsTheHint() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        log.publish(failed("Failed to export 1 spans. The request could not be executed.", new java.net.ProtocolException(
                "Bad trailing char, \"\u0000\", when parsing status line, \"\u0000\u0000\u0006\u0004\u0000\u0000\u0000\u0000\u0000\u0000\u0003\u0000\u0000\u0000\r\"")));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).contains("not HTTP/1.1", "OTLP/gRPC", "4318"));
    }

    /** The SDK's own line for such an export (its retries ended before the flush's bound) gets the same hint. */
    @Test
    void theSdksFailedExportFromAGrpcPortGetsTheHint() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ExportLog log = ExportLog.install(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        log.publish(failed("Failed to export 1 spans. The request could not be executed.", new java.io.IOException(
                "parsing HTTP/1.1 status line, receiving [\u0000\u0000\u0006\u0004], parser state [STATUS_LINE]")));
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList()).singleElement()
                .satisfies(line -> assertThat(line).startsWith("rein: OpenTelemetry: Failed to export 1 spans.")
                        .contains("not HTTP/1.1", "OTLP/gRPC", "4318"));
    }
}
