package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.FakeUsage;
import dev.rein.testkit.RecordedRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./rein} as a real process: the launcher, the JVM, stdout/stderr and exit codes, against
 * the fake Messages API server through {@code ANTHROPIC_BASE_URL}. Few on purpose: each one starts
 * a JVM. Parsing and formatting are covered in-process.
 */
class CliProcessTest {
    private static final String GOAL = "今日から100日後は何月何日?";

    @TempDir
    Path dir;

    /**
     * Output that cannot be written (a full disk) is not success: Java's print streams swallow the error, so the
     * process said exit 0 with nothing written. A reader that stopped reading ({@code | head}) is not an error.
     */
    @Test
    void outputThatCannotBeWrittenFailsTheCommandButAClosedPipeDoesNot() throws Exception {
        LauncherProcess.Outcome full = new LauncherProcess(dir).shell("./rein --version > /dev/full");

        assertThat(full.exitCode()).as(full.stderr()).isEqualTo(1);
        assertThat(full.stderrLines()).singleElement().asString()
                .startsWith("rein: could not write to standard output").contains("No space left on device");

        // a closed stdout (>&-) is no full disk: the line says what failed without sending the user to find room
        LauncherProcess.Outcome shut = new LauncherProcess(dir).shell("./rein --version >&-");
        assertThat(shut.exitCode()).as(shut.stderr()).isEqualTo(1);
        assertThat(shut.stderrLines()).singleElement().asString().startsWith("rein: could not write to standard output (")
                .doesNotContain("where there is room").contains("give the command a standard output it can write");

        LauncherProcess.Outcome closed = new LauncherProcess(dir).shell("{ ./rein --version; echo \"exit=$?\" >&2; } | true");

        assertThat(closed.stderr()).isEqualTo("exit=0\n");
    }

    @Test
    void runJsonAgainstTheApiPrintsOneObjectAndKeepsJapaneseIntact() throws Exception {
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.message().text("日付を確認します。")
                    .toolUse("toolu_01", "get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")
                    .usage(FakeUsage.cached(120, 30, 1000, 0)).build());
            server.enqueue(FakeReply.message().text("100日後は2027年3月11日(木)です。")
                    .usage(FakeUsage.cached(40, 25, 0, 1000)).build());
            Path trace = dir.resolve("run.jsonl");

            // A non-UTF-8 locale: the launcher must still hand the JVM the goal intact.
            LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                    .env("LANG", "C").env("LC_ALL", "C")
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .run("run", "--json", "--trace", trace.toString(), GOAL);

            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stdout().lines()).hasSize(1);
            JsonNode json = Json.parse(outcome.stdout());
            List<String> fields = new ArrayList<>();
            json.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).containsExactly("run_id", "status", "reason", "answer", "steps", "usage", "cost_usd");
            assertThat(json.get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(json.get("reason").asText()).isEqualTo("completed");
            assertThat(json.get("answer").asText()).isEqualTo("100日後は2027年3月11日(木)です。");
            assertThat(json.get("steps").asInt()).isEqualTo(2);
            assertThat(json.at("/usage/input_tokens").asLong()).isEqualTo(160);
            assertThat(json.at("/usage/output_tokens").asLong()).isEqualTo(55);
            assertThat(json.at("/usage/cache_creation_input_tokens").asLong()).isEqualTo(1000);
            assertThat(json.at("/usage/cache_read_input_tokens").asLong()).isEqualTo(1000);
            assertThat(json.get("cost_usd").isNumber()).isTrue();
            assertThat(json.get("cost_usd").decimalValue()).isPositive();

            // The goal reached the API intact, with the key from the environment.
            RecordedRequest first = server.requests().get(0);
            assertThat(first.header("x-api-key")).isEqualTo("sk-ant-test-dummy");
            JsonNode content = first.body().at("/messages/0/content");
            assertThat(content.isTextual() ? content.asText() : content.at("/0/text").asText()).isEqualTo(GOAL);
            assertThat(server.requests()).hasSize(2);

            // Progress went to stderr, and the trace recorded the run.
            assertThat(outcome.stderr()).contains("→ get_current_time {\"timezone\":\"Asia/Tokyo\"}").contains("rein: SUCCEEDED");
            List<String> types = Files.readAllLines(trace).stream().map(line -> Json.parse(line).get("type").asText()).toList();
            assertThat(types).startsWith("run_started").endsWith("run_finished").contains("tool_call", "tool_result");
            assertThat(Files.readString(trace)).contains(GOAL);
        }
    }

    @Test
    void ctrlCCancelsTheRunFlushesTheTraceAndExitsFive() throws Exception {
        // A test JVM started in the background by a non-interactive shell ignores SIGINT, and its children
        // inherit that; SIGTERM then takes the same path (the JVM's shutdown hooks) and is sent instead.
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.hang());
            Path trace = dir.resolve("cancelled.jsonl");
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .start("run", "--json", "--trace", trace.toString(), "wait for me");
            server.takeRequest(Duration.ofSeconds(30));

            started.signal(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));

            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.CANCELLED);
            JsonNode json = Json.parse(outcome.stdout());
            assertThat(json.get("status").asText()).isEqualTo("CANCELLED");
            assertThat(json.get("reason").asText()).isEqualTo("cancelled");
            List<String> lines = Files.readAllLines(trace);
            JsonNode last = Json.parse(lines.get(lines.size() - 1));
            assertThat(last.get("type").asText()).isEqualTo("run_finished");
            assertThat(last.get("status").asText()).isEqualTo("CANCELLED");
            assertThat(outcome.stderr()).contains("interrupted; cancelling the run").doesNotContain("Exception");
        }
    }

    @Test
    void ctrlCGivesTheFlushTheLongerExportTimeoutItWasGivenAndStillPrintsTheResult() throws Exception {
        // With OTEL_EXPORTER_OTLP_TIMEOUT=20000 the flush at the run's end waits up to 20 s for the collector;
        // Ctrl-C must not end the process after its usual 10 s grace in the middle of it, result unprinted.
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer server = FakeMessagesServer.start();
             OtlpReceiver otlp = OtlpReceiver.start().delayingTraces(Duration.ofSeconds(12))) {
            server.enqueue(FakeReply.hang());
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .env("OTEL_EXPORTER_OTLP_ENDPOINT", otlp.endpoint())
                    .env("OTEL_EXPORTER_OTLP_TIMEOUT", "20000")
                    .start("run", "--json", "wait for me");
            server.takeRequest(Duration.ofSeconds(30));

            started.signal(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(60));

            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.CANCELLED);
            assertThat(outcome.stderr()).doesNotContain("did not stop within").doesNotContain("rein: OpenTelemetry:");
            assertThat(Json.parse(outcome.stdout()).get("status").asText()).isEqualTo("CANCELLED");
        }
    }

    @Test
    void ctrlCDuringAnEvaluationCancelsTheTrialsClosesTheirTracesAndExits130() throws Exception {
        // a trace cut off at its model_request replayed later (rein eval DIR) as a run that diverged at step 1
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        Path suite = dir.resolve("slow.yaml");
        Files.writeString(suite, """
                suite: slow
                trials: 2
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: wait
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 120000}]
                """);
        Path traces = dir.resolve("traces");
        LauncherProcess.Started started = new LauncherProcess(dir)
                .start("eval", suite.toString(), "--traces", traces.toString());
        Path first = traces.resolve("wait.0.jsonl");
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!(Files.exists(first) && Files.readString(first).contains("\"model_request\"")) && System.nanoTime() < until) {
            Thread.sleep(100);
        }

        started.signal(signal);
        LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));

        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(130);
        assertThat(outcome.stderr()).contains("interrupted").doesNotContain("Exception");
        // what had ended is summarised, here nothing: the summary still says what the suite was
        assertThat(outcome.stdout()).startsWith("Suite slow: 1 task x 2 trials");
        assertThat(outcome.stderr()).contains("rein eval: interrupted after 0 of 2 trials: the summary covers the 0 that ended");
        for (String trial : List.of("wait.0.jsonl", "wait.1.jsonl")) {
            List<String> lines = Files.readAllLines(traces.resolve(trial));
            JsonNode last = Json.parse(lines.get(lines.size() - 1));
            assertThat(last.get("type").asText()).as(trial).isEqualTo("run_finished");
            assertThat(last.get("status").asText()).as(trial).isEqualTo("CANCELLED");
        }
    }

    /**
     * As for rein eval: the example's trials are cancelled through the runner, and the command says so, exit 130; its JSON
     * report says it was interrupted (before: nothing in it did, only the exit code and stderr).
     */
    @Test
    void ctrlCDuringAnExamplesEvaluationCancelsItsTrialsAndExits130SayingSo() throws Exception {
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            for (int i = 0; i < 64; i++) {
                server.enqueue(FakeReply.hang());
            }
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .start("example", "orders", "--eval", "--trials", "1", "--json");
            server.takeRequest(Duration.ofSeconds(30));

            started.signal(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));

            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(130);
            assertThat(outcome.stderr()).contains("rein example: interrupted; cancelling the trials")
                    .doesNotContain("Exception");
            JsonNode report = Json.parse(outcome.stdout());
            assertThat(report.get("interrupted").asBoolean()).isTrue();
            assertThat(report.get("trials_planned").asInt()).isGreaterThan(report.at("/summary/trials").asInt());
        }
    }

    /**
     * As with --eval: Ctrl-C during an example's demo cancels the run in flight (its ending shown) and exits 130 saying so.
     * Before: no guard, the JVM ended in the middle of the run (143 for SIGTERM), its ending never shown.
     */
    @Test
    void ctrlCDuringAnExamplesDemoCancelsItsRunAndExits130SayingSo() throws Exception {
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.hang());
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .start("example", "date");
            server.takeRequest(Duration.ofSeconds(30));

            started.signal(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));

            assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isEqualTo(130);
            assertThat(outcome.stdout()).contains("= CANCELLED (cancelled)");
            assertThat(outcome.stderr()).contains("rein example: interrupted; cancelling the run")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void ctrlCAtTheInlineApprovalPromptCancelsTheRunAndExitsFive() throws Exception {
        boolean terminal = LauncherProcess.terminalAvailable();
        if (!terminal && "true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("util-linux script is needed for a terminal (.ci/run installs it)");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(terminal, "util-linux script is needed for a terminal");
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.toolUse("toolu_01", "send_message",
                    "{\"to\":\"alice@example.com\",\"subject\":\"Meeting\",\"body\":\"Moved to 10:00\"}"));
            Path trace = dir.resolve("prompt.jsonl");
            LauncherProcess.Started started = new LauncherProcess(dir)
                    .env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .startOnTerminal("run", "--trace", trace.toString(), "--tools", "lookup_contact,send_message", "tell alice");
            started.awaitOutput("Approve?", Duration.ofSeconds(60));

            started.signalJava(signal); // Ctrl-C while the person is being asked
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));

            assertThat(outcome.exitCode()).as(outcome.stdout()).isEqualTo(ExitCodes.CANCELLED);
            assertThat(outcome.stdout()).contains("rein: CANCELLED (cancelled)").doesNotContain("Exception");
            JsonNode stored = Json.parse(new LauncherProcess(dir).run("runs", "--json").stdout());
            // the summary says how to go on, as for a run that asked for input: a cancelled run takes a reply
            assertThat(outcome.stdout()).contains("(continue it with: rein reply " + stored.at("/runs/0/run_id").asText() + " \"TEXT\")");
            List<String> lines = Files.readAllLines(trace);
            JsonNode last = Json.parse(lines.get(lines.size() - 1));
            assertThat(last.get("type").asText()).isEqualTo("run_finished");
            assertThat(last.get("status").asText()).isEqualTo("CANCELLED");
            JsonNode runs = Json.parse(new LauncherProcess(dir).run("runs", "--json").stdout());
            assertThat(runs.at("/runs/0/status").asText()).isEqualTo("CANCELLED");
            assertThat(server.requestCount()).isEqualTo(1);
        }
    }

    /**
     * The launcher measures the terminal's width on stderr (stty size) for the spinner, which the JVM cannot ask for:
     * on a 24-column terminal the demo's spinner ('⠋ step 1 the model is thinking 0.0s', 35 columns) wrapped, and
     * each redraw left a row behind.
     */
    @Test
    void theSpinnerFitsTheWidthOfTheTerminalTheLauncherMeasured() throws Exception {
        boolean terminal = LauncherProcess.terminalAvailable();
        if (!terminal && "true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.fail("util-linux script is needed for a terminal (.ci/run installs it)");
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(terminal, "util-linux script is needed for a terminal");
        LauncherProcess.Outcome outcome = new LauncherProcess(dir).env("COLUMNS", null).env("TERM", "xterm")
                .shell("exec script -qec 'stty cols 24 rows 10; exec " + LauncherProcess.LAUNCHER + " demo' /dev/null");
        assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isZero();
        List<String> spinner = java.util.Arrays.stream(outcome.stdout().split("\r\033\\[K"))
                .filter(s -> !s.isEmpty() && "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".indexOf(s.charAt(0)) >= 0).toList();
        assertThat(spinner).as(outcome.stdout()).isNotEmpty()
                .allSatisfy(s -> assertThat(s.codePointCount(0, s.length())).as(s).isLessThan(24));
    }

    @Test
    void withoutAnApiKeyNothingIsSentAndTheExitCodeIsTwo() throws Exception {
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                    .env("ANTHROPIC_BASE_URL", server.baseUrl())
                    .run("run", "--json", GOAL);

            assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("ANTHROPIC_API_KEY is not set").contains("export ANTHROPIC_API_KEY="));
            assertThat(server.requestCount()).isZero();
        }
    }

    @Test
    void aUsageErrorIsOneLineAndExitTwo() throws Exception {
        LauncherProcess.Outcome outcome = new LauncherProcess(dir).env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                .run("run", "--max-cost-usd", "lots", "x");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString().contains("--max-cost-usd");
    }

    @Test
    void demoRunsOfflineWithTheScriptedModelAndExitsZero() throws Exception {
        Path trace = dir.resolve("demo.jsonl");
        LauncherProcess.Outcome outcome = new LauncherProcess(dir)
                .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:9") // nothing listens there: the demo must not call out
                .run("demo", "--trace", trace.toString());

        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("SCRIPTED").contains(GOAL).contains(trace.toString());
        LocalDate target = LocalDate.now(ZoneId.of("Asia/Tokyo")).plusDays(100);
        assertThat(outcome.stdout()).contains(target.getYear() + "年" + target.getMonthValue() + "月" + target.getDayOfMonth() + "日");
        assertThat(outcome.stdout()).contains("1234 × 5678 = 7006652");
        List<JsonNode> finished = Files.readAllLines(trace).stream().map(Json::parse)
                .filter(e -> e.get("type").asText().equals("run_finished")).toList();
        assertThat(finished).hasSize(2).allSatisfy(e -> assertThat(e.get("status").asText()).isEqualTo("SUCCEEDED"));
    }

    @Test
    void withoutTheLauncherInAnAsciiLocaleArgumentsAndOutputAreStillUtf8() throws Exception {
        // The JVM started directly under LC_ALL=C decodes arguments and encodes output as ASCII by default.
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", LauncherProcess.classpath(), "dev.rein.cli.Rein", "run", "--tools", "今日", GOAL);
        builder.environment().put("LC_ALL", "C");
        builder.environment().put("LANG", "C");
        builder.environment().put("ANTHROPIC_API_KEY", "sk-ant-test-dummy");
        Process process = builder.start();
        String stderr = new String(process.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isEqualTo(ExitCodes.USAGE);
        assertThat(stderr).isEqualTo("rein run: unknown tool '今日' in --tools; the available tools are: calculate, get_current_time, lookup_contact, send_message, list_sent_messages, remember, recall, forget, search_documents\n");
    }

    @Test
    void bytesThatAreNotUtf8InTheGoalOrTheSystemPromptAreRefusedByName() throws Exception {
        LauncherProcess launcher = new LauncherProcess(dir).env("ANTHROPIC_API_KEY", "sk-ant-test-dummy")
                .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:9"); // nothing may be sent
        // 'café' in Latin-1: the é is the single byte 0xE9, which is not UTF-8.
        LauncherProcess.Outcome goal = launcher.shell("exec ./rein run --json \"$(printf 'caf\\351 au lait')\"");
        assertThat(goal.exitCode()).as(goal.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(goal.stdout()).isEmpty();
        assertThat(goal.stderrLines()).singleElement().asString()
                .startsWith("rein run: the GOAL is not valid UTF-8").contains("U+FFFD at character 4");

        LauncherProcess.Outcome system = launcher.shell("exec ./rein run --system \"$(printf 'be \\377\\376brief')\" hello");
        assertThat(system.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(system.stderrLines()).singleElement().asString().startsWith("rein run: --system is not valid UTF-8");

        // Without the launcher, in an ASCII locale: a valid Japanese goal is recovered, the bad prompt still refused.
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        LauncherProcess.Outcome direct = launcher.env("LC_ALL", "C").env("LANG", "C").shell("exec '" + java + "' -cp '"
                + LauncherProcess.classpath() + "' dev.rein.cli.Rein run --system \"$(printf '\\377')\" \"$(printf '\\344\\273\\212\\346\\227\\245')\"");
        assertThat(direct.exitCode()).as(direct.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(direct.stderrLines()).singleElement().asString().startsWith("rein run: --system is not valid UTF-8");
    }

    @Test
    void helpAndVersion() throws Exception {
        LauncherProcess launcher = new LauncherProcess(dir);
        LauncherProcess.Outcome help = launcher.run("--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout()).contains("run", "demo", "Exit codes:");

        LauncherProcess.Outcome runHelp = launcher.run("run", "--help");
        assertThat(runHelp.exitCode()).isZero();
        assertThat(runHelp.stdout()).contains("--model", "--tools", "--system", "--max-steps", "--max-cost-usd", "--max-seconds",
                "--max-tokens", "--as", "--trace", "--json", "GOAL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL");

        LauncherProcess.Outcome version = launcher.run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.stdout()).startsWith("rein " + Version.rein());
    }

    @Test
    void theLauncherFindsAJdk21OrNewerWhenJavaHomeAndPathHaveAnOlderOne() throws Exception {
        Path oldJdk = fakeJdk(dir.resolve("old-jdk"), "17.0.2");
        Path jdks = Files.createDirectories(dir.resolve("jdks"));
        Path link = Files.createSymbolicLink(jdks.resolve("current"), Path.of(System.getProperty("java.home")));
        String path = oldJdk.resolve("bin") + ":/usr/bin:/bin";
        try {
            LauncherProcess.Outcome found = new LauncherProcess(dir).env("JAVA_HOME", oldJdk.toString()).env("PATH", path)
                    .env("REIN_JDK_SEARCH", jdks + "/*").run("--version");
            assertThat(found.exitCode()).as(found.stderr()).isZero();
            assertThat(found.stdout()).startsWith("rein ");

            LauncherProcess.Outcome none = new LauncherProcess(dir).env("JAVA_HOME", oldJdk.toString()).env("PATH", path)
                    .env("REIN_JDK_SEARCH", dir.resolve("empty") + "/*").run("--version");
            assertThat(none.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(none.stdout()).isEmpty();
            assertThat(none.stderr()).contains("no JDK 21 or newer found").contains("JAVA_HOME=" + oldJdk + " (Java 17)")
                    .contains("set JAVA_HOME");

            // One JDK checked: its line and the advice, no line of spaces between them
            LauncherProcess.Outcome one = new LauncherProcess(dir).env("JAVA_HOME", null).env("PATH", path)
                    .env("REIN_JDK_SEARCH", dir.resolve("empty") + "/*").run("--version");
            assertThat(one.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(one.stderr().lines().toList()).as(one.stderr()).noneMatch(String::isBlank)
                    .contains("  checked: java on PATH: " + oldJdk + " (Java 17)");
        } finally {
            Files.delete(link); // JUnit would warn about a link leading out of the temporary directory
        }
    }

    /**
     * A REIN_JAVA_OPTS the JVM refuses is named in one line with the JVM's reason, exit 2, where the JVM's own
     * lines named no variable ('Unrecognized option: --no-such-option', exit 1), a word that is no option was taken
     * for the main class, and a second collector ended the command with exit 1 and its reason on stdout.
     */
    @Test
    void javaOptionsTheJvmRefusesAreNamedByTheirVariable() throws Exception {
        Map<String, String> reasons = Map.of("--no-such-option", "Unrecognized option: --no-such-option",
                "-XX:+UseG1GC", "Multiple garbage collectors selected",
                "-Xmx", "Invalid maximum heap size: -Xmx",
                "debug", "Could not find or load main class debug");
        for (var bad : reasons.entrySet()) {
            LauncherProcess.Outcome outcome = new LauncherProcess(dir).env("REIN_JAVA_OPTS", "-Dx=1 " + bad.getKey())
                    .run("--version");
            assertThat(outcome.exitCode()).as(bad.getKey() + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(bad.getKey()).isEmpty();
            assertThat(outcome.stderrLines()).as(bad.getKey()).singleElement().asString()
                    .startsWith("rein: REIN_JAVA_OPTS='-Dx=1 " + bad.getKey() + "' is refused by the JVM (" + bad.getValue())
                    .endsWith("; correct it or unset REIN_JAVA_OPTS");
        }
        // options of two words pass as before
        LauncherProcess.Outcome good = new LauncherProcess(dir)
                .env("REIN_JAVA_OPTS", "-Dx=1 --add-opens java.base/java.lang=ALL-UNNAMED").run("--version");
        assertThat(good.exitCode()).as(good.stderr()).isZero();
        assertThat(good.stdout()).startsWith("rein ");
        assertThat(good.stderr()).isEmpty();
    }

    /** A JAVA_HOME set on purpose but unusable is not passed over in silence: one line, then the JDK found runs. */
    @Test
    void anUnusableJavaHomeIsSaidInOneLineAndTheJdkFoundIsUsed() throws Exception {
        Path oldJdk = fakeJdk(dir.resolve("old-jdk"), "17.0.2");
        for (String javaHome : List.of(oldJdk.toString(), dir.resolve("no-such-jdk").toString())) {
            LauncherProcess.Outcome found = new LauncherProcess(dir).env("JAVA_HOME", javaHome).run("--version");

            assertThat(found.exitCode()).as(found.stderr()).isZero();
            assertThat(found.stdout()).startsWith("rein ");
            assertThat(found.stderrLines()).singleElement().asString()
                    .startsWith("rein: JAVA_HOME=" + javaHome + " is not a JDK 21+ (")
                    .contains("using ").contains("set JAVA_HOME to a JDK 21+, or unset it");
        }
        assertThat(new LauncherProcess(dir).run("--version").stderr()).isEmpty();
    }

    /**
     * A checkout that cannot be written (installed read-only) and needs a build: one line saying so, exit 2, where
     * mkdir or the lock file failed with a raw bash error and exit 1. {@code rein-cli/target} is a file here, since
     * the tests may run as root, whom permissions do not stop.
     */
    @Test
    void aCheckoutThatCannotBeBuiltInIsOneLineNotABashError() throws Exception {
        Path checkout = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(LauncherProcess.LAUNCHER, checkout.resolve("rein"));
        Files.createDirectories(checkout.resolve("bin"));
        Files.copy(LauncherProcess.ROOT.resolve("bin/find-jdk.sh"), checkout.resolve("bin/find-jdk.sh"));
        Files.createDirectories(checkout.resolve("rein-cli"));
        Files.writeString(checkout.resolve("rein-cli/target"), "");

        LauncherProcess.Outcome outcome = new LauncherProcess(dir).env("REIN_CLASSPATH", null).shell("exec " + checkout.resolve("rein") + " --version");

        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString()
                .startsWith("rein: Rein needs a build (first use) but " + checkout.resolve("rein-cli/target") + " cannot be written");
    }

    /**
     * The build lock is released once the build is done: the CLI the launcher then starts inherited it, so a second
     * launcher that needed a build waited for the whole first command (a run waiting at its approval prompt: forever),
     * not for the build. The build here is a stand-in mvn that leaves what the real one does for the launcher.
     */
    @Test
    void theCliStartedAfterABuildDoesNotHoldTheBuildLock() throws Exception {
        Path checkout = Files.createDirectories(dir.resolve("checkout"));
        Files.copy(LauncherProcess.LAUNCHER, checkout.resolve("rein"));
        Files.createDirectories(checkout.resolve("bin"));
        Files.copy(LauncherProcess.ROOT.resolve("bin/find-jdk.sh"), checkout.resolve("bin/find-jdk.sh"));
        String classpath = LauncherProcess.classpath();
        String jar = java.util.Arrays.stream(classpath.split(":")).filter(e -> e.endsWith(".jar")).findFirst().orElseThrow();
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Path mvn = Files.writeString(tools.resolve("mvn"), "#!/bin/sh\nmkdir -p rein-cli/target && cp '" + jar
                + "' rein-cli/target/rein-cli.jar && printf '%s' '" + classpath + "' > rein-cli/target/classpath.txt\n");
        mvn.toFile().setExecutable(true);
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.hang());
            ProcessBuilder builder = new ProcessBuilder(checkout.resolve("rein").toString(), "run", "-q", "wait for me")
                    .directory(checkout.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("checkout.txt").toFile());
            builder.environment().remove("REIN_CLASSPATH");
            builder.environment().put("PATH", tools + ":" + System.getenv("PATH"));
            builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
            builder.environment().put("REIN_HOME", dir.resolve("rein-home").toString());
            builder.environment().put("ANTHROPIC_API_KEY", "sk-ant-test-dummy");
            builder.environment().put("ANTHROPIC_BASE_URL", server.baseUrl());
            Process launcher = builder.start();
            try {
                server.takeRequest(Duration.ofSeconds(60));
                List<String> open = new ArrayList<>();
                try (var fds = Files.list(Path.of("/proc", Long.toString(launcher.pid()), "fd"))) {
                    for (Path fd : fds.toList()) {
                        try {
                            open.add(Files.readSymbolicLink(fd).toString());
                        } catch (IOException gone) {
                            // closed meanwhile
                        }
                    }
                }
                assertThat(open).as(Files.readString(dir.resolve("checkout.txt"))).isNotEmpty()
                        .noneMatch(target -> target.endsWith(".rein-launcher.lock"));
            } finally {
                launcher.destroyForcibly();
                launcher.waitFor();
            }
        }
    }

    /** A directory that looks like a JDK of {@code version} to the launcher (release file, bin/java). */
    private static Path fakeJdk(Path home, String version) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        Path java = home.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"" + version + "\"' >&2\nexit 1\n");
        java.toFile().setExecutable(true);
        return home;
    }
}
