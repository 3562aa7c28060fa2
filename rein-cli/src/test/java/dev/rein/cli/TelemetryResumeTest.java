package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** run → approve → resume as separate invocations: the resumed run's span links to the paused one's. */
class TelemetryResumeTest {
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";

    @Test
    void theResumedRunSpanLinksToThePausedOneAcrossInvocations() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
            cli.models((name, env) -> model);
            assertThat(cli.run("run", "--tools", "send_message", "佐藤さんに連絡して").exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);
            String id;
            try (var files = Files.list(cli.home().resolve("runs"))) {
                id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
            }
            assertThat(cli.run("approve", id).exitCode()).isZero();
            assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);

            otlp.awaitUntil(() -> otlp.spans().stream().filter(s -> s.getName().startsWith("invoke_agent")).count() == 2, Duration.ofSeconds(5));
            List<Span> runs = otlp.spans().stream().filter(s -> s.getName().equals("invoke_agent rein")).toList();
            assertThat(runs).hasSize(2);
            Span paused = runs.get(0);
            Span resumed = runs.get(1);
            assertThat(resumed.getLinksList()).singleElement().satisfies(link -> {
                assertThat(link.getSpanId()).isEqualTo(paused.getSpanId());
                assertThat(link.getTraceId()).isEqualTo(paused.getTraceId());
            });
            assertThat(runs).allSatisfy(r -> assertThat(OtlpReceiver.attribute(r.getAttributesList(), "gen_ai.conversation.id")
                    .orElseThrow().getStringValue()).isEqualTo(id));
            assertThat(otlp.spans()).filteredOn(s -> s.getName().equals("execute_tool send_message"))
                    .extracting(s -> OtlpReceiver.attribute(s.getAttributesList(), "rein.tool.outcome").orElseThrow().getStringValue())
                    .containsExactly("awaiting_approval", "success");
        }
    }

    /**
     * 'rein cancel' tells OpenTelemetry of the run's end as 'rein run' and 'rein resume' tell theirs (and as Ctrl-C at the
     * inline approval prompt does): a span of the cancellation linked to the paused segment's, with the decision made on
     * the pause, which no resumed run will count now. Before, 'rein cancel' exported nothing: the run's last span was
     * its paused segment's and its decision was never counted.
     */
    @Test
    void cancelExportsTheCancellationsSpanLinkedToThePausedOneWithTheDecisionMadeOnThePause() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
            cli.models((name, env) -> model);
            assertThat(cli.run("run", "--tools", "send_message", "佐藤さんに連絡して").exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);
            String id;
            try (var files = Files.list(cli.home().resolve("runs"))) {
                id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
            }
            assertThat(cli.run("approve", id, "--reject", "宛先が違います", "--as", "alice").exitCode()).isZero();
            InProcessCli.Outcome cancel = cli.run("cancel", id, "--reason", "不要になった");
            assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();

            otlp.awaitUntil(() -> otlp.spans().stream().filter(s -> s.getName().startsWith("invoke_agent")).count() == 2, Duration.ofSeconds(5));
            List<Span> runs = otlp.spans().stream().filter(s -> s.getName().equals("invoke_agent rein")).toList();
            assertThat(runs).hasSize(2);
            Span paused = runs.get(0);
            Span cancelled = runs.get(1);
            assertThat(cancelled.getLinksList()).singleElement().satisfies(link -> assertThat(link.getSpanId()).isEqualTo(paused.getSpanId()));
            assertThat(OtlpReceiver.attribute(cancelled.getAttributesList(), "rein.run.status").orElseThrow().getStringValue())
                    .isEqualTo("CANCELLED");
            assertThat(OtlpReceiver.attribute(cancelled.getAttributesList(), "gen_ai.conversation.id").orElseThrow().getStringValue())
                    .isEqualTo(id);
            assertThat(OtlpReceiver.attribute(cancelled.getAttributesList(), "gen_ai.provider.name").orElseThrow().getStringValue())
                    .isEqualTo("anthropic");
            assertThat(cancelled.getEventsList()).extracting(e -> e.getName()).contains("rein.approval.decided");
        }
    }

    /**
     * A run an application stored (no settings of 'rein run') is cancelled whatever REIN_PROVIDER says: a cancel calls
     * no model. Its span names the provider whose prices list the run's stored model, else none. Before, with an OTLP
     * endpoint set, REIN_PROVIDER=bogus refused the cancel (exit 2), and an unset one named 'anthropic' for any run.
     */
    @Test
    void anApplicationsRunIsCancelledWhateverReinProviderSaysAndItsSpanNamesTheProviderOfItsModelOrNone() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start()) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            cli.models((name, env) -> ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。")));
            String inHouse = pausedApplicationRun(cli, "in-house-llm");
            String gpt = pausedApplicationRun(cli, "gpt-4o");
            // a gateway's name, which Anthropic's table prices, though the run may have gone through OpenRouter: no guess
            String gateway = pausedApplicationRun(cli, "anthropic/claude-sonnet-4.5");

            InProcessCli bogus = cli.env("REIN_PROVIDER", "bogus");
            InProcessCli.Outcome cancel = bogus.run("cancel", inHouse);
            assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
            assertThat(bogus.run("show", inHouse).stdout()).contains("CANCELLED");
            InProcessCli.Outcome second = bogus.run("cancel", gpt);
            assertThat(second.exitCode()).as(second.stderr()).isZero();
            assertThat(cli.run("cancel", gateway).exitCode()).isZero();

            otlp.awaitUntil(() -> otlp.spans().stream().filter(s -> s.getName().startsWith("invoke_agent")).count() == 6, Duration.ofSeconds(5));
            List<Span> cancelled = otlp.spans().stream().filter(s -> s.getName().equals("invoke_agent rein"))
                    .filter(s -> OtlpReceiver.attribute(s.getAttributesList(), "rein.run.status").orElseThrow().getStringValue().equals("CANCELLED"))
                    .toList();
            assertThat(cancelled).hasSize(3);
            java.util.function.Function<String, Span> of = id -> cancelled.stream().filter(s -> OtlpReceiver.attribute(
                    s.getAttributesList(), "gen_ai.conversation.id").orElseThrow().getStringValue().equals(id)).findFirst().orElseThrow();
            Span first = of.apply(inHouse);
            Span other = of.apply(gpt);
            assertThat(OtlpReceiver.attribute(of.apply(gateway).getAttributesList(), "gen_ai.provider.name")).isEmpty();
            assertThat(OtlpReceiver.attribute(first.getAttributesList(), "gen_ai.provider.name")).isEmpty();
            assertThat(OtlpReceiver.attribute(other.getAttributesList(), "gen_ai.provider.name").orElseThrow().getStringValue())
                    .isEqualTo("openai");
        }
    }

    /** A run paused by 'rein run' whose settings are then deleted, as the CLI tells an application's run apart. */
    private static String pausedApplicationRun(InProcessCli cli, String model) throws Exception {
        java.util.Set<String> before;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            before = files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
        } catch (java.nio.file.NoSuchFileException e) {
            before = java.util.Set.of();
        }
        InProcessCli.Outcome run = cli.run("run", "--model", model, "--price", "0,0", "--tools", "send_message", "佐藤さんに連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        java.nio.file.Path settings;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            java.util.Set<String> known = before;
            settings = files.filter(f -> !known.contains(f.getFileName().toString())).findFirst().orElseThrow();
        }
        Files.delete(settings);
        return settings.getFileName().toString().replace(".json", "");
    }

    @Test
    void aResumeRefusedForItsOpenTelemetryConfigurationKeepsTheRunsMaxTokens() throws Exception {
        // A usage error (exit 2) changes nothing: the --max-tokens of a resume that did not run is not
        // kept for the next one, which resumes with the limit the run had.
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
        InProcessCli cli = new InProcessCli().models((name, env) -> model);
        assertThat(cli.run("run", "--max-tokens", "777", "--tools", "send_message", "佐藤さんに連絡して").exitCode())
                .isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        assertThat(cli.run("approve", id).exitCode()).isZero();

        // an endpoint without its scheme (an unknown exporter is no longer refused: it is said and ignored)
        cli.env("OTEL_EXPORTER_OTLP_ENDPOINT", "127.0.0.1:4318").env("OTEL_TRACES_EXPORTER", "otlp");
        InProcessCli.Outcome refused = cli.run("resume", "--max-tokens", "2000", id);
        assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(refused.stderr()).contains("OpenTelemetry is not configured correctly");

        cli.env("OTEL_EXPORTER_OTLP_ENDPOINT", "").env("OTEL_TRACES_EXPORTER", ""); // empty counts as unset
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(model.lastRequest().maxTokens()).isEqualTo(777);
    }

    @Test
    void aCollectorThatRefusesTheExportIsOneLineOnStderrAndTheRunIsUnaffected() throws Exception {
        try (OtlpReceiver otlp = OtlpReceiver.start().answering(400)) {
            InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
            cli.models((name, env) -> ScriptedModel.of(text("こんにちは")));
            InProcessCli.Outcome outcome = cli.run("run", "--json", "挨拶して");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stdout()).contains("こんにちは");
            assertThat(outcome.stderrLines()).anySatisfy(line -> assertThat(line).startsWith("rein: OpenTelemetry: Failed to export"));
            assertThat(outcome.stderr()).doesNotContain("\tat ").doesNotContain("Exception in");
        }
    }

    /**
     * A collector that answers 404 (no OTLP receiver at that path, typically an
     * OTEL_EXPORTER_OTLP_ENDPOINT that already ends in /v1/traces, so the SDK posts to
     * /v1/traces/v1/traces) or 401/403 (missing or wrong credentials) is one line that says what to
     * check, not only the SDK's "Server responded with HTTP status code 404".
     */
    @Test
    void aCollectorThatAnswers404Or401IsOneLineSayingWhatToCheck() throws Exception {
        for (int status : new int[] {404, 401}) {
            try (OtlpReceiver otlp = OtlpReceiver.start().answering(status)) {
                InProcessCli cli = new InProcessCli().env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint());
                cli.models((name, env) -> ScriptedModel.of(text("こんにちは")));
                InProcessCli.Outcome outcome = cli.run("run", "--json", "挨拶して");
                assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
                String check = status == 404 ? "OTEL_EXPORTER_OTLP_ENDPOINT" : "OTEL_EXPORTER_OTLP_HEADERS";
                assertThat(outcome.stderrLines()).as(outcome.stderr()).filteredOn(line -> line.startsWith("rein: OpenTelemetry: Failed to export"))
                        .isNotEmpty().allSatisfy(line -> assertThat(line).contains("HTTP status code " + status).contains(check));
                assertThat(outcome.stderr()).doesNotContain("\tat ");
            }
        }
    }
}
