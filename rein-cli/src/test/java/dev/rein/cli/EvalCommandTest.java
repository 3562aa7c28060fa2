package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandTest {
    private static final Path EXAMPLE_SUITE = Path.of("..", "docs", "eval-suite-example.yaml");
    private final InProcessCli cli = new InProcessCli();

    @Test
    void anOfflineSuiteRunsWithItsScriptedModelsAndWritesTheReports(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("report.html");
        InProcessCli.Outcome outcome = cli.run("eval", EXAMPLE_SUITE.toString(), "--trials", "2", "--json", "--report", html.toString());
        // The example suite contains a task whose scripted agent deletes a file without approval: never a pass.
        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(cli.modelsCreated()).isZero();
        var report = Json.parse(outcome.stdout());
        assertThat(report.at("/suite").isMissingNode()).isFalse();
        assertThat(Files.readString(html)).contains("<html");
    }

    /**
     * No SUITE says what to give. Before: picocli's "Missing required parameter: 'SUITE'", which named neither a suite file
     * nor a trace folder.
     */
    @Test
    void noSuiteSaysWhatToGive() {
        for (String[] args : new String[][] {{"eval"}, {"eval", "--trials", "2"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString().isEqualTo("rein eval: give the"
                    + " suite to run: a suite file (.yaml, .yml or .json, see docs/eval.md) or a folder of JSONL traces, e.g."
                    + " rein eval suite.yaml; the example agents' suites run with rein example NAME --eval");
        }
        assertThat(cli.run("eval", "--help").stdout()).containsPattern("(?s)Usage: rein eval .*\\] SUITE\\s").doesNotContain("[SUITE]");
    }

    @Test
    void aRealModelNeedsTheKeyAndNothingRunsWithoutIt() {
        InProcessCli.Outcome outcome = new InProcessCli()
                .models((name, env) -> ProviderModels.create(name, env))
                .run("eval", EXAMPLE_SUITE.toString(), "--model", "claude-sonnet-5");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("ANTHROPIC_API_KEY");
        assertThat(outcome.stdout()).isEmpty();
    }

    /**
     * A key the provider refuses fails every trial with HTTP 401; the API's words ('invalid x-api-key') do not say where
     * the CLI took the key from. Like rein run, rein eval names the variable. Before: only the provider's message.
     */
    @Test
    void aKeyTheProviderRefusesWith401NamesTheVariableTheKeyCameFrom(@TempDir Path dir) throws Exception {
        Path suite = dir.resolve("suite.yaml");
        Files.writeString(suite, """
                suite: one
                environment: {name: file_tree}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: hello
                    goal: say hello
                    script:
                      - text: hello
                """);
        try (dev.rein.testkit.FakeMessagesServer anthropic = dev.rein.testkit.FakeMessagesServer.start()) {
            anthropic.enqueue(dev.rein.testkit.FakeReply.error(401, "authentication_error", "invalid x-api-key"));
            InProcessCli.Outcome outcome = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-ant-wrong")
                    .run("eval", suite.toString(), "--model", "claude-sonnet-4-5", "--base-url", anthropic.baseUrl(), "--trials", "1");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(3);
            assertThat(outcome.stdout()).contains("invalid x-api-key");
            assertThat(outcome.stderrLines()).anySatisfy(line -> assertThat(line).startsWith("rein eval: ")
                    .contains("HTTP 401").contains("the provider refused the key: check ANTHROPIC_API_KEY"));
        }
    }

    /**
     * --provider, --base-url and --price choose and price the model --model names; without it the suite's scripted
     * models play the LLM. Before: they were checked and then ignored, so a run meant for a local server ran the
     * scripted models and exited as if it had been evaluated there.
     */
    @Test
    void providerOptionsWithoutAModelAreRefusedSayingToGiveOne(@TempDir Path traceDir) throws Exception {
        for (String[] options : new String[][] {{"--provider", "openai"}, {"--base-url", "http://localhost:11434/v1"},
                {"--price", "0,0"}}) {
            InProcessCli.Outcome outcome = cli.run("eval", EXAMPLE_SUITE.toString(), options[0], options[1]);
            assertThat(outcome.exitCode()).as(options[0]).isEqualTo(2);
            assertThat(outcome.stdout()).as(options[0]).isEmpty();
            assertThat(outcome.stderrLines()).as(options[0]).singleElement().asString()
                    .startsWith("rein eval: " + options[0] + " applies to the model given with --model")
                    .contains("add --model NAME").contains("leave " + options[0] + " out");
        }
        assertThat(cli.modelsCreated()).isZero();
        InProcessCli.Outcome folder = cli.run("eval", traceDir.toString(), "--price", "0,0");
        assertThat(folder.exitCode()).isEqualTo(2);
        assertThat(folder.stderrLines()).singleElement().asString()
                .startsWith("rein eval: --price does not apply to a folder of traces").contains("drop --price");
        // REIN_PROVIDER is the default of --provider: an offline suite does not read it
        InProcessCli offline = new InProcessCli().env("REIN_PROVIDER", "nonesuch");
        assertThat(offline.run("eval", EXAMPLE_SUITE.toString(), "--json").exitCode()).isEqualTo(1);
    }

    @Test
    void aTrialCountThatIsNotAWholeNumberSaysWhatToGive() {
        // picocli's own words were "'abc' is not an int", which says neither what --trials wants nor an example.
        for (String value : new String[] {"abc", "", "2.5", "99999999999"}) {
            for (String[] args : new String[][] {{"eval", EXAMPLE_SUITE.toString(), "--trials", value},
                    {"example", "date", "--eval", "--trials", value}}) {
                InProcessCli.Outcome outcome = cli.run(args);
                assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(2);
                assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
                assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                        .contains("Invalid value for option '--trials': '" + value + "' ")
                        .contains("; give how many trials each task runs, e.g. 3")
                        .doesNotContain("not an int");
            }
        }
    }

    @Test
    void badOptionsAreRefusedBeforeAnyTrialRuns(@TempDir Path dir) throws Exception {
        for (String[] args : new String[][] {{"--trials", "0"}, {"--report", dir.toString()}, {"--report", ""}}) {
            String[] full = new String[args.length + 2];
            full[0] = "eval";
            full[1] = EXAMPLE_SUITE.toString();
            System.arraycopy(args, 0, full, 2, args.length);
            InProcessCli.Outcome outcome = cli.run(full);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).hasSize(1);
        }
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "name: x\ntasks: [\n  - id: {\n");
        InProcessCli.Outcome malformed = cli.run("eval", broken.toString());
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.stderrLines()).hasSize(1);
        InProcessCli.Outcome unpriced = new InProcessCli().models((name, env) -> {
            throw new AssertionError("no model may be created for an unpriced name");
        }).run("eval", EXAMPLE_SUITE.toString(), "--model", "gpt-4o");
        assertThat(unpriced.exitCode()).isEqualTo(2);
        assertThat(unpriced.stderr()).contains("no price is known for model 'gpt-4o'");
    }

    /**
     * An unpriced --model of rein eval or rein example is refused with --price as the way out, without naming
     * --max-cost-usd, which neither command has (rein run's option). Before: "... so its cost cannot be counted against
     * --max-cost-usd; ...", and a user who tried --max-cost-usd got "unknown option".
     */
    @Test
    void anUnpricedModelOfEvalOrExampleDoesNotPointToAnOptionTheyLack() {
        for (String[] args : new String[][] {{"eval", EXAMPLE_SUITE.toString(), "--model", "my-model"},
                {"example", "orders", "--eval", "--model", "my-model"}, {"example", "date", "--model", "my-model"}}) {
            InProcessCli.Outcome outcome = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-ant-test").models((name, env) -> {
                throw new AssertionError("no model may be created for an unpriced name");
            }).run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .startsWith("rein " + args[0] + ": no price is known for model 'my-model', so the cost of its "
                            + (args[1].equals("date") ? "run" : "trials"))
                    .contains("--price INPUT,OUTPUT").doesNotContain("--max-cost-usd");
        }
    }

    /** A --traces that cannot be a folder is a usage error that says why, before any trial runs. */
    @Test
    void aTracesPathThatIsAFileIsRefusedSayingWhy(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "x");
        for (Path traces : new Path[] {file, file.resolve("sub")}) {
            InProcessCli.Outcome outcome = cli.run("eval", EXAMPLE_SUITE.toString(), "--traces", traces.toString());
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(2);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).singleElement().asString()
                    .contains("--traces").contains(file + " is not a directory");
        }
    }

    @Test
    void aMissingSuiteIsAOneLineUsageError() {
        InProcessCli.Outcome outcome = cli.run("eval", "no-such-suite.yaml");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderr()).contains("no-such-suite.yaml").doesNotContain("Exception");
    }

    /**
     * The real model the trials ran on is closed when the evaluation ends (its HTTP client released), as rein run's is,
     * and so is the one made to check the configuration. Before: only the latter, the trials' model never.
     */
    @Test
    void theRealModelIsClosedWhenTheEvaluationEnds(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("suite.yaml"), """
                suite: one
                environment: {name: file_tree}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: hello
                    goal: say hello
                    script:
                      - text: hello
                """);
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger closed = new java.util.concurrent.atomic.AtomicInteger();
        try (dev.rein.testkit.FakeMessagesServer anthropic = dev.rein.testkit.FakeMessagesServer.start()) {
            anthropic.enqueue(dev.rein.testkit.FakeReply.text("hello"));
            InProcessCli.Outcome outcome = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-ant-test").models((name, env) -> {
                created.incrementAndGet();
                return new ClosingModel(ProviderModels.create(name, env), closed);
            }).run("eval", suite.toString(), "--model", "claude-sonnet-4-5", "--price", "1,10", "--base-url", anthropic.baseUrl(),
                    "--trials", "1");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(anthropic.requestCount()).isEqualTo(1);
        }
        assertThat(created.get()).isEqualTo(2);
        assertThat(closed.get()).isEqualTo(created.get());
    }

    /** A model that counts its closes. */
    private record ClosingModel(dev.rein.model.Model model, java.util.concurrent.atomic.AtomicInteger closes)
            implements dev.rein.model.Model, AutoCloseable {
        @Override
        public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                throws dev.rein.model.ModelException, InterruptedException {
            return model.call(request, context);
        }

        @Override
        public void close() throws Exception {
            closes.incrementAndGet();
            ((AutoCloseable) model).close();
        }
    }

    /**
     * --parallel N runs at most N trials at a time (a provider's rate limit, a local server that serves one request at a
     * time): with 1, no two trials' runs overlap in their traces. Before: no such option; rein eval always ran 4 at once.
     */
    @Test
    void parallelOneRunsOneTrialAtATime(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("suite.yaml"), """
                suite: one-at-a-time
                trials: 3
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: a
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 150}]
                  - id: b
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 150}]
                """);
        Path traces = dir.resolve("traces");
        InProcessCli.Outcome outcome = cli.run("eval", suite.toString(), "--parallel", "1", "--traces", traces.toString());
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        java.util.List<java.time.Instant[]> runs = new java.util.ArrayList<>();
        try (var files = Files.list(traces)) {
            for (Path trace : files.toList()) {
                java.util.List<String> lines = Files.readAllLines(trace);
                runs.add(new java.time.Instant[] {java.time.Instant.parse(Json.parse(lines.getFirst()).get("time").asText()),
                        java.time.Instant.parse(Json.parse(lines.getLast()).get("time").asText())});
            }
        }
        assertThat(runs).hasSize(6);
        runs.sort(java.util.Comparator.comparing(run -> run[0]));
        for (int i = 1; i < runs.size(); i++) {
            assertThat(runs.get(i)[0]).as("trial %d starts after the one before ended", i).isAfterOrEqualTo(runs.get(i - 1)[1]);
        }
    }

    /** --parallel takes a whole number of at least 1, worded as --trials is. */
    @Test
    void aBadParallelIsAUsageErrorSayingWhatToGive() {
        for (String value : new String[] {"0", "-2", "many"}) {
            InProcessCli.Outcome outcome = cli.run("eval", EXAMPLE_SUITE.toString(), "--parallel", value);
            assertThat(outcome.exitCode()).as(value).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(value).isEmpty();
            assertThat(outcome.stderrLines()).as(value).singleElement().asString()
                    .startsWith("rein eval: Invalid value for option '--parallel': ")
                    .endsWith("; give how many trials run at once, e.g. 2 (see 'rein eval --help')");
        }
        assertThat(cli.run("eval", EXAMPLE_SUITE.toString(), "--parallel", "0").stderr()).contains("at least 1 trial must run at a time, got 0");
    }

    /**
     * The help's exit codes say what docs/cli.md's table says. Before: 2 was only a usage error, though it also ends an
     * evaluation whose every trial passed but whose --report could not be written after them; 130 did not say that the
     * reports say it was interrupted.
     */
    @Test
    void theHelpsExitCodesSayWhenTwoComesAfterTheTrialsAndWhatAnInterruptionLeaves() {
        String help = cli.run("eval", "--help").stdout().replaceAll("\\s+", " ");
        assertThat(help).contains("2 usage error: bad suite file, trace folder, option or report path (nothing was run); or"
                + " every graded trial passed but the --report file could not be written after them")
                .contains("130 interrupted: the summary, JSON report and --report file cover the trials that had ended and say"
                        + " it was interrupted");
    }
}
