package dev.rein.cli;

import static dev.rein.cli.OtlpReceiver.attribute;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.FakeUsage;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real export: {@code ./rein run} as a process against the fake Messages API, with
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT} pointing at an OTLP/HTTP receiver in this JVM.
 */
class OtlpExportTest {
    @TempDir
    Path dir;

    private static String hex(com.google.protobuf.ByteString id) {
        return java.util.HexFormat.of().formatHex(id.toByteArray());
    }

    private static String string(List<io.opentelemetry.proto.common.v1.KeyValue> attributes, String key) {
        return attribute(attributes, key).map(AnyValue::getStringValue).orElse(null);
    }

    @Test
    void aCliRunDeliversItsRunChatAndToolSpansAndTheMetrics() throws Exception {
        try (FakeMessagesServer api = FakeMessagesServer.start(); OtlpReceiver otlp = OtlpReceiver.start()) {
            api.enqueue(FakeReply.message().text("時刻を確認します。")
                    .toolUse("toolu_01", "get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")
                    .usage(FakeUsage.cached(120, 30, 1000, 0)).build());
            api.enqueue(FakeReply.message().text("今は東京で昼です。").usage(FakeUsage.cached(40, 25, 0, 1000)).build());

            LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", api.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment.name=test")
                    .env("OTEL_SERVICE_NAME", null)
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", null)
                    .run("run", "--json", "今は東京で何時?");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();

            otlp.awaitUntil(() -> otlp.spans().size() >= 4 && !otlp.metrics().isEmpty(), Duration.ofSeconds(10));
            List<Span> spans = otlp.spans();
            Map<String, Span> byName = spans.stream().collect(Collectors.toMap(Span::getName, s -> s, (a, b) -> a));
            assertThat(byName).containsKeys("invoke_agent rein", "execute_tool get_current_time");
            Span run = byName.get("invoke_agent rein");
            List<Span> chats = spans.stream().filter(s -> s.getName().startsWith("chat ")).toList();
            assertThat(chats).hasSize(2).allSatisfy(chat -> {
                assertThat(chat.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
                assertThat(chat.getParentSpanId()).isEqualTo(run.getSpanId());
                assertThat(chat.getTraceId()).isEqualTo(run.getTraceId());
                assertThat(string(chat.getAttributesList(), "gen_ai.provider.name")).isEqualTo("anthropic");
                assertThat(string(chat.getAttributesList(), "server.address")).isEqualTo("127.0.0.1");
                // The Messages API call is streamed.
                assertThat(attribute(chat.getAttributesList(), "gen_ai.request.stream").map(AnyValue::getBoolValue)).contains(true);
            });
            assertThat(attribute(chats.get(0).getAttributesList(), "gen_ai.usage.cache_read.input_tokens")
                    .map(AnyValue::getIntValue).orElse(-1L) + attribute(chats.get(1).getAttributesList(),
                    "gen_ai.usage.cache_read.input_tokens").map(AnyValue::getIntValue).orElse(-1L)).isEqualTo(1000L);
            // Each API request carried the traceparent of its chat span (W3C: version-traceid-spanid-flags).
            assertThat(api.requests()).hasSize(2);
            List<String> sent = api.requests().stream().map(r -> r.header("traceparent")).toList();
            List<String> expected = chats.stream().map(c -> "00-" + hex(c.getTraceId()) + "-" + hex(c.getSpanId())).toList();
            assertThat(sent).allSatisfy(h -> assertThat(h).isNotNull().matches("00-[0-9a-f]{32}-[0-9a-f]{16}-0[0-9a-f]"));
            assertThat(sent.stream().map(h -> h.substring(0, 52)).toList()).containsExactlyInAnyOrderElementsOf(expected);
            Span tool = byName.get("execute_tool get_current_time");
            assertThat(tool.getParentSpanId()).isEqualTo(run.getSpanId());
            assertThat(string(tool.getAttributesList(), "gen_ai.tool.call.id")).isEqualTo("toolu_01");
            assertThat(string(tool.getAttributesList(), "rein.tool.outcome")).isEqualTo("success");
            assertThat(string(run.getAttributesList(), "rein.run.status")).isEqualTo("SUCCEEDED");
            assertThat(string(run.getAttributesList(), "gen_ai.operation.name")).isEqualTo("invoke_agent");
            assertThat(string(run.getAttributesList(), "gen_ai.input.messages")).as("content is opt-in").isNull();

            assertThat(otlp.spanResources()).allSatisfy(resource -> {
                assertThat(string(resource.getAttributesList(), "service.name")).isEqualTo("rein");
                assertThat(string(resource.getAttributesList(), "deployment.environment.name")).isEqualTo("test");
            });
            assertThat(otlp.metrics()).extracting(Metric::getName).contains("gen_ai.client.token.usage",
                    "gen_ai.client.operation.duration", "rein.run.cost", "rein.run.steps", "rein.run.stops");
            assertThat(otlp.metrics()).filteredOn(m -> m.getName().equals("gen_ai.client.token.usage")).first()
                    .satisfies(m -> assertThat(m.getUnit()).isEqualTo("{token}"));
            assertThat(otlp.contentTypes()).allMatch(type -> type.startsWith("application/x-protobuf"));
        }
    }

    @Test
    void anEmptyServiceNameCountsAsUnsetAndAFailedRunIsStillDelivered() throws Exception {
        try (FakeMessagesServer api = FakeMessagesServer.start(); OtlpReceiver otlp = OtlpReceiver.start()) {
            api.enqueue(FakeReply.error(401, "authentication_error", "invalid x-api-key"));
            LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", api.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_SERVICE_NAME", "")
                    .env("OTEL_RESOURCE_ATTRIBUTES", null)
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", null)
                    .run("run", "--json", "hello");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isNotZero();
            otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(10));
            assertThat(otlp.spanResources()).allSatisfy(resource ->
                    assertThat(string(resource.getAttributesList(), "service.name")).isEqualTo("rein"));
        }
    }

    /**
     * SDK environment variables spec: "The SDK MUST interpret an empty value of an environment
     * variable the same way as when the variable is unset" (docs/observability.md: "an empty value
     * counts as unset, as for every OTEL_* variable"). The SDK's autoconfiguration reads the process
     * environment itself and took an empty value as given, so each of these refused the run with exit
     * code 2 ("Unsupported OTLP traces protocol:", "OTLP endpoint must be a valid URL:", ...).
     */
    @Test
    void emptyOtelVariablesCountAsUnsetAndTheRunIsExported() throws Exception {
        try (FakeMessagesServer api = FakeMessagesServer.start(); OtlpReceiver otlp = OtlpReceiver.start()) {
            api.enqueue(FakeReply.message().text("こんにちは").usage(FakeUsage.cached(40, 25, 0, 0)).build());
            LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", api.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", "")
                    .env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "")
                    .env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
                    .env("OTEL_EXPORTER_OTLP_COMPRESSION", "")
                    .env("OTEL_TRACES_SAMPLER", "")
                    .run("run", "--json", "hello");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderr()).doesNotContain("OpenTelemetry");
            otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(10));
            assertThat(otlp.contentTypes()).allMatch(type -> type.startsWith("application/x-protobuf"));
        }
    }

    @Test
    void ctrlCStillDeliversTheCancelledRunSpan() throws Exception {
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer api = FakeMessagesServer.start(); OtlpReceiver otlp = OtlpReceiver.start()) {
            api.enqueue(FakeReply.hang());
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", api.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", null)
                    .start("run", "--json", "wait for me");
            api.takeRequest(Duration.ofSeconds(30));
            started.signal(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.CANCELLED);

            otlp.awaitUntil(() -> otlp.spans().stream().anyMatch(s -> s.getName().startsWith("invoke_agent")), Duration.ofSeconds(5));
            Span run = otlp.spans().stream().filter(s -> s.getName().equals("invoke_agent rein")).findFirst().orElseThrow();
            assertThat(string(run.getAttributesList(), "rein.run.status")).isEqualTo("CANCELLED");
            assertThat(otlp.spans()).filteredOn(s -> s.getName().startsWith("chat ")).singleElement()
                    .satisfies(chat -> assertThat(chat.getStatus().getCode()).isEqualTo(
                            io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR));
            assertThat(otlp.metrics()).extracting(Metric::getName).contains("rein.run.stops");
        }
    }

    /**
     * Ctrl-C at the inline approval prompt cancels the paused run: its end reaches the collector as a segment of its
     * own, linked to the paused one, and the stop metric counts it, as a running run's cancel does. Before, the paused
     * span was the run's last, so a dashboard saw the run wait forever; the --trace file has the end once.
     */
    @Test
    void ctrlCAtTheApprovalPromptDeliversTheCancelledRunsEnd() throws Exception {
        boolean terminal = LauncherProcess.terminalAvailable();
        if (!terminal && "true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("util-linux script is needed for a terminal (.ci/run installs it)");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(terminal, "util-linux script is needed for a terminal");
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer api = FakeMessagesServer.start(); OtlpReceiver otlp = OtlpReceiver.start()) {
            api.enqueue(FakeReply.toolUse("toolu_01", "send_message",
                    "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}"));
            Path trace = dir.resolve("prompt.jsonl");
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", api.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", null)
                    .startOnTerminal("run", "--trace", trace.toString(), "--tools", "send_message", "佐藤さんに連絡して");
            started.awaitOutput("Approve?", Duration.ofSeconds(60));
            started.signalJava(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));
            assertThat(outcome.exitCode()).as(outcome.stdout()).isEqualTo(ExitCodes.CANCELLED);

            otlp.awaitUntil(() -> otlp.spans().stream().filter(s -> s.getName().equals("invoke_agent rein")).count() == 2
                    && otlp.metrics().stream().anyMatch(m -> m.getName().equals("rein.run.stops")
                            && m.getSum().getDataPointsList().stream().anyMatch(p -> "CANCELLED".equals(
                            attribute(p.getAttributesList(), "rein.run.status").map(AnyValue::getStringValue).orElse(null)))),
                    Duration.ofSeconds(10));
            List<Span> runs = otlp.spans().stream().filter(s -> s.getName().equals("invoke_agent rein")).toList();
            Span paused = runs.stream().filter(s -> "WAITING_APPROVAL".equals(string(s.getAttributesList(), "rein.run.status")))
                    .findFirst().orElseThrow();
            Span cancelled = runs.stream().filter(s -> "CANCELLED".equals(string(s.getAttributesList(), "rein.run.status")))
                    .findFirst().orElseThrow();
            assertThat(string(cancelled.getAttributesList(), "rein.run.reason")).isEqualTo("cancelled");
            assertThat(string(cancelled.getAttributesList(), "gen_ai.conversation.id"))
                    .isEqualTo(string(paused.getAttributesList(), "gen_ai.conversation.id"));
            assertThat(cancelled.getLinksList()).singleElement().satisfies(link -> assertThat(link.getSpanId()).isEqualTo(paused.getSpanId()));
            List<String> ends = java.nio.file.Files.readAllLines(trace).stream().filter(line -> line.contains("\"run_finished\"")).toList();
            assertThat(ends).hasSize(2); // the pause's and the cancellation's, each once
            assertThat(ends.get(1)).contains("\"CANCELLED\"");
        }
    }

    /**
     * OTLP/HTTP partial success: the collector answers 200 saying it rejected some spans; the packaged CLI says
     * so in one line (the SDK's exporter reads no 2xx answer), does not send them again, and the run succeeds.
     */
    @Test
    void aPartialSuccessIsSaidInOneLineAndTheRunSucceeds() throws Exception {
        try (FakeMessagesServer api = FakeMessagesServer.start(); OtlpReceiver otlp = OtlpReceiver.start().answeringWith(
                io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse.newBuilder().setPartialSuccess(
                        io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess.newBuilder()
                                .setRejectedSpans(1).setErrorMessage("span too large")).build().toByteArray(), null)) {
            api.enqueue(FakeReply.message().text("こんにちは").usage(FakeUsage.cached(40, 25, 0, 0)).build());
            LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", api.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", null)
                    .run("run", "--json", "hello");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stderr().lines().filter(line -> line.contains("OpenTelemetry")).toList()).containsExactly(
                    "rein: OpenTelemetry: the collector accepted the spans only in part: it rejected 1 span"
                            + " (its message: span too large); they are not sent again");
            List<Span> spans = otlp.spans();
            assertThat(spans.stream().map(Span::getSpanId).distinct().count()).as("sent once").isEqualTo(spans.size());
        }
    }

    @Test
    void grpcIsRefusedWithAClearMessageBeforeAnythingRuns() throws Exception {
        LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
                .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
                .env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
                .run("run", "hello");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported").doesNotContain("Exception");
    }
}
