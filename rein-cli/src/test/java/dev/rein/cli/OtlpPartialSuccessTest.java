package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OTLP/HTTP partial success (OTLP specification, "Partial Success"): a collector that takes only part of an
 * export answers 200 with {@code partial_success} (the rejected count and why); the client must not retry it,
 * and 0 rejected with a message is a warning. The SDK's exporter takes any 2xx as success without reading the
 * answer (opentelemetry-java#4706), so the rejected spans and data points were lost without a word.
 */
class OtlpPartialSuccessTest {
    private static byte[] traces(long rejected, String message) {
        return ExportTraceServiceResponse.newBuilder().setPartialSuccess(ExportTracePartialSuccess.newBuilder()
                .setRejectedSpans(rejected).setErrorMessage(message)).build().toByteArray();
    }

    private static byte[] metrics(long rejected, String message) {
        return ExportMetricsServiceResponse.newBuilder().setPartialSuccess(ExportMetricsPartialSuccess.newBuilder()
                .setRejectedDataPoints(rejected).setErrorMessage(message)).build().toByteArray();
    }

    private static List<String> telemetryLines(String stderr) {
        return stderr.lines().filter(line -> line.startsWith("rein: OpenTelemetry:")).toList();
    }

    @Test
    void aCollectorThatRejectsPartOfAnExportIsSaidOnceForEachSignalWithoutRetryingOrFailingTheRun() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start().answeringWith(traces(2, "span name too long"),
                metrics(1, "unit \"{tokens}\" is not allowed"))) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(telemetryLines(outcome.stderr())).containsExactlyInAnyOrder(
                    "rein: OpenTelemetry: the collector accepted the spans only in part: it rejected 2 spans"
                            + " (its message: span name too long); they are not sent again",
                    "rein: OpenTelemetry: the collector accepted the metrics only in part: it rejected 1 metric data point"
                            + " (its message: unit \"{tokens}\" is not allowed); they are not sent again");
            // a partial success is an answer, not a failure to retry: each span was sent once
            List<Span> spans = otlp.spans();
            assertThat(spans).isNotEmpty();
            assertThat(spans.stream().map(Span::getSpanId).distinct().count()).isEqualTo(spans.size());
        }
    }

    @Test
    void noneRejectedWithAMessageIsAWarningAndAnEmptyPartialSuccessIsSaidNothingOf() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start().answeringWith(traces(0, "attribute value truncated to 4096 bytes"),
                ExportMetricsServiceResponse.newBuilder().setPartialSuccess(ExportMetricsPartialSuccess.getDefaultInstance())
                        .build().toByteArray())) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .models((name, env) -> ScriptedModel.of(ScriptedModel.text("hi")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "say hi");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(telemetryLines(outcome.stderr())).containsExactly(
                    "rein: OpenTelemetry: the collector accepted the spans with a warning: attribute value truncated to 4096 bytes");
        }
    }

    @Test
    void theProtobufAnswerIsReadForTheRejectedCountAndMessage() {
        assertThat(PartialSuccess.decode(traces(3, "bad span"))).contains(new PartialSuccess(3, "bad span"));
        assertThat(PartialSuccess.decode(metrics(0, "deprecated unit"))).contains(new PartialSuccess(0, "deprecated unit"));
        // full success: no body, an empty response, an empty partial_success
        assertThat(PartialSuccess.decode(new byte[0])).isEmpty();
        assertThat(PartialSuccess.decode(null)).isEmpty();
        assertThat(PartialSuccess.decode(ExportTraceServiceResponse.getDefaultInstance().toByteArray())).isEmpty();
        assertThat(PartialSuccess.decode(traces(0, ""))).isEmpty();
        // a count past 2^31 and a message in Japanese
        assertThat(PartialSuccess.decode(traces(5_000_000_000L, "属性が長すぎます"))).contains(new PartialSuccess(5_000_000_000L, "属性が長すぎます"));
        // unknown fields before and after are skipped (a newer collector's answer)
        byte[] known = traces(4, "x");
        byte[] withUnknown = new byte[known.length + 6];
        withUnknown[0] = (byte) 0x10; // field 2, varint
        withUnknown[1] = 7;
        System.arraycopy(known, 0, withUnknown, 2, known.length);
        withUnknown[known.length + 2] = (byte) 0x1a; // field 3, length-delimited
        withUnknown[known.length + 3] = 2;
        withUnknown[known.length + 4] = 'o';
        withUnknown[known.length + 5] = 'k';
        assertThat(PartialSuccess.decode(withUnknown)).contains(new PartialSuccess(4, "x"));
        // a truncated or garbled answer is not taken for a rejection
        assertThat(PartialSuccess.decode(java.util.Arrays.copyOf(known, known.length - 1))).isEmpty();
        assertThat(PartialSuccess.decode(new byte[] {(byte) 0x0a, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f})).isEmpty();
        assertThat(PartialSuccess.decode("OK".getBytes(StandardCharsets.US_ASCII))).isEmpty();
    }

    @Test
    void aJsonAnswerIsReadWithItsCountAsAStringOrANumber() {
        assertThat(PartialSuccess.decode(json("{\"partialSuccess\":{\"rejectedSpans\":\"2\",\"errorMessage\":\"too long\"}}")))
                .contains(new PartialSuccess(2, "too long"));
        assertThat(PartialSuccess.decode(json(" {\"partialSuccess\":{\"rejectedDataPoints\":7}}")))
                .contains(new PartialSuccess(7, ""));
        assertThat(PartialSuccess.decode(json("{\"partialSuccess\":{\"rejectedLogRecords\":\"0\",\"errorMessage\":\"slow down\"}}")))
                .contains(new PartialSuccess(0, "slow down"));
        // OTLP/JSON also takes the proto field names
        assertThat(PartialSuccess.decode(json("{\"partial_success\":{\"rejected_spans\":1,\"error_message\":\"no\"}}")))
                .contains(new PartialSuccess(1, "no"));
        assertThat(PartialSuccess.decode(json("{}"))).isEmpty();
        assertThat(PartialSuccess.decode(json("{\"partialSuccess\":{}}"))).isEmpty();
        assertThat(PartialSuccess.decode(json("{\"partialSuccess\":{\"rejectedSpans\":\"many\"}}"))).isEmpty();
        assertThat(PartialSuccess.decode(json("{\"partialSuccess\":"))).isEmpty();
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theLineNamesTheSignalTheCountAndTheMessageShownOnOneVisibleLine() {
        assertThat(new PartialSuccess(1, "").line("spans")).isEqualTo(
                "rein: OpenTelemetry: the collector accepted the spans only in part: it rejected 1 span and gave no reason;"
                        + " they are not sent again");
        assertThat(new PartialSuccess(3, "first\nsecond\u001b[31m").line("metrics"))
                .startsWith("rein: OpenTelemetry: the collector accepted the metrics only in part: it rejected 3 metric data points"
                        + " (its message: first second")
                .endsWith("); they are not sent again").doesNotContain("\u001b", "\n");
        // a collector's message is bounded, saying how much was left out
        assertThat(new PartialSuccess(0, "x".repeat(5000)).line("spans")).hasSizeLessThan(1200).contains("… (+");
    }
}
