package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
}
