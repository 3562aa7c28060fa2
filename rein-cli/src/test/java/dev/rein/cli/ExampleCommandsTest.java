package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ExampleCommandsTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void theExamplesAreListed() {
        InProcessCli.Outcome outcome = cli.run("examples");
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout()).contains("date").contains("orders").contains("expense").contains("assistant")
                .contains("code").contains("sql").contains("web").contains("npc").contains("workflow");
    }

    @Test
    void anExampleRunsOfflineWithoutAKey() {
        InProcessCli.Outcome outcome = cli.run("example", "date");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("scripted");
    }

    @Test
    void anExampleSuiteRunsWithEval() {
        InProcessCli.Outcome outcome = cli.run("example", "orders", "--eval", "--trials", "1");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("success rate");
    }

    @Test
    void theExamplesSuiteFilesRunThroughEval() {
        InProcessCli.Outcome outcome = cli.run("eval", Path.of("..", "rein-examples", "suites", "orders.yaml").toString(), "--trials", "1");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
    }

    @Test
    void trialsNeedEvalAndAPositiveCount() {
        assertThat(cli.run("example", "date", "--trials", "2").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("example", "date", "--eval", "--trials", "0").exitCode()).isEqualTo(ExitCodes.USAGE);
    }

    /**
     * A count below 1 is worded as every other bad option value, with the command's help: rein eval and rein example alike.
     * Before: "--trials must be 1 or more, was 0", the only value check of the CLI without what to give or where to look.
     */
    @Test
    void aTrialCountBelowOneSaysWhatToGive() {
        for (String value : new String[] {"0", "-2"}) {
            for (String[] args : new String[][] {{"example", "date", "--eval", "--trials", value},
                    {"eval", "../docs/eval-suite-example.yaml", "--trials", value}}) {
                InProcessCli.Outcome outcome = cli.run(args);
                assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
                assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
                assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString().isEqualTo("rein " + args[0]
                        + ": Invalid value for option '--trials': each task needs at least 1 trial, got " + value
                        + "; give how many trials each task runs, e.g. 3 (see 'rein " + args[0] + " --help')");
            }
        }
    }

    /**
     * rein example NAME --eval takes --parallel as rein eval does: the same values, the same message for a bad one, and
     * like --trials only with --eval. Before: "Unknown option: '--parallel'"; the example's suite always ran 4 trials at
     * once, with no way to run one at a time for a provider's rate limit or a local server.
     */
    @Test
    void parallelGoesWithEvalAsForReinEval() {
        InProcessCli.Outcome ran = cli.run("example", "orders", "--eval", "--trials", "1", "--parallel", "1");
        assertThat(ran.exitCode()).as(ran.stderr()).isZero();
        assertThat(ran.stdout()).contains("success rate");
        for (String value : new String[] {"0", "-2", "many"}) {
            InProcessCli.Outcome example = cli.run("example", "orders", "--eval", "--parallel", value);
            InProcessCli.Outcome eval = cli.run("eval", "../docs/eval-suite-example.yaml", "--parallel", value);
            assertThat(example.exitCode()).as(value).isEqualTo(ExitCodes.USAGE);
            assertThat(example.stdout()).as(value).isEmpty();
            assertThat(example.stderrLines()).as(value).singleElement().asString()
                    .isEqualTo(eval.stderrLines().getFirst().replace("rein eval", "rein example"));
        }
        InProcessCli.Outcome demo = cli.run("example", "date", "--parallel", "2");
        assertThat(demo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(demo.stdout()).isEmpty();
        assertThat(demo.stderrLines()).singleElement().asString()
                .isEqualTo("rein example: --parallel goes with --eval: rein example date --eval --parallel 2");
        assertThat(cli.run("example", "--help").stdout()).contains("--parallel=N");
    }

    /**
     * rein example NAME --eval writes the HTML report and the trials' traces as rein eval does (--report FILE, --traces
     * DIR), checked before any trial, and like --trials only with --eval. Before: "unknown option '--report'" (and
     * '--traces'): the report of an example's suite could only be had through rein eval with a suite file, which only
     * orders has.
     */
    @Test
    void reportAndTracesGoWithEvalAsForReinEval(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path report = dir.resolve("out").resolve("orders.html");
        Path traces = dir.resolve("traces");
        InProcessCli.Outcome ran = cli.run("example", "orders", "--eval", "--trials", "1", "--report", report.toString(),
                "--traces", traces.toString());
        assertThat(ran.exitCode()).as(ran.stderr()).isZero();
        assertThat(ran.stdout()).contains("success rate").endsWith("HTML report: " + report.toAbsolutePath() + "\n");
        assertThat(java.nio.file.Files.readString(report)).contains("<html", "order-a104");
        try (var files = java.nio.file.Files.list(traces)) {
            assertThat(files.map(f -> f.getFileName().toString()).toList()).isNotEmpty().allMatch(name -> name.endsWith(".0.jsonl"));
        }
        assertThat(java.nio.file.Files.readString(traces.resolve("investigate-a104.0.jsonl"))).contains("\"run_finished\"");

        for (String[] option : new String[][] {{"--report", "r.html"}, {"--traces", "traces"}}) {
            InProcessCli.Outcome demo = cli.run("example", "date", option[0], option[1]);
            assertThat(demo.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(demo.stdout()).isEmpty();
            assertThat(demo.stderrLines()).singleElement().asString()
                    .isEqualTo("rein example: " + option[0] + " goes with --eval: rein example date --eval " + option[0] + " " + option[1]);
        }
        // the path in the command as typed, quoted for the shell: before, 'my report $1.html' stood bare, three words to a
        // shell and the '$1' expanded
        String line = cli.run("example", "date", "--report", "月次 report $1.html").stderrLines().getFirst();
        assertThat(line).endsWith(": rein example date --eval --report '月次 report $1.html'");
        assertThat(ParsedBack.sh(line.substring(line.indexOf(": rein example") + 2))).containsExactly("rein", "example", "date",
                "--eval", "--report", "月次 report $1.html");
        // a report path that cannot be written, or a trace folder that is a file, is refused before any trial, as by rein eval
        for (String[] option : new String[][] {{"--report", dir.toString()}, {"--traces", report.toString()}}) {
            InProcessCli.Outcome bad = cli.run("example", "orders", "--eval", option[0], option[1]);
            assertThat(bad.exitCode()).as(option[0]).isEqualTo(ExitCodes.USAGE);
            assertThat(bad.stdout()).as(option[0]).isEmpty();
            assertThat(bad.stderrLines()).as(option[0]).singleElement().asString().startsWith("rein example: ")
                    .isEqualTo(cli.run("eval", "../docs/eval-suite-example.yaml", option[0], option[1]).stderrLines().getFirst()
                            .replace("rein eval: ", "rein example: "));
        }
    }

    /**
     * --offline runs the scripted model, so --model, --provider, --base-url and --price would choose a model that never
     * runs. Before: they were taken and ignored without a word, and the example ran offline as if they had not been given.
     */
    @Test
    void offlineWithAModelOrProviderOptionIsAUsageErrorSayingWhichToLeaveOut() {
        for (String[] option : new String[][] {{"--model", "claude-haiku-4-5"}, {"--provider", "openai"},
                {"--base-url", "http://localhost:11434/v1"}, {"--price", "0,0"}}) {
            for (String[] args : new String[][] {{"example", "date", "--offline", option[0], option[1]},
                    {"example", "orders", "--eval", "--offline", option[0], option[1]}}) {
                InProcessCli.Outcome outcome = cli.run(args);
                assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
                assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
                assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                        .startsWith("rein example: --offline runs the example on its scripted model, so " + option[0]
                                + " would not be used")
                        .contains("leave --offline out").contains("or leave " + option[0] + " out");
            }
        }
    }

    @Test
    void anUnknownExampleIsAUsageError() {
        InProcessCli.Outcome outcome = cli.run("example", "nothing");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("unknown example 'nothing'").contains("date");
    }

    /**
     * A word beyond NAME is named as one too many, with what rein example takes and a command to use, as for every other
     * command. Before: picocli's "Unmatched argument at index 2: 'a'", which said neither. The example is the first of
     * the list, as when NAME is left out, and no name has spaces to quote (before: "(quote a value that has spaces)").
     */
    @Test
    void aWordBeyondTheNameIsOneTooManyWithTheCommandToUse() {
        InProcessCli.Outcome outcome = cli.run("example", "a", "a");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).containsExactly("rein example: 'a' is one argument too many: rein example takes NAME,"
                + " the example to run (see 'rein examples'), e.g. rein example " + dev.rein.examples.Examples.list().getFirst().name()
                + " (see 'rein example --help')");
    }

    /**
     * No NAME lists the examples and says how to run one, as an unknown name lists them. Before: picocli's "Missing required
     * parameter: 'NAME'", which named neither.
     */
    @Test
    void noExampleNameListsTheExamplesAndSaysHowToRunOne() {
        for (String[] args : new String[][] {{"example"}, {"example", "--eval"}, {"example", "--offline"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(String.join(" ", args)).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString().isEqualTo(
                    "rein example: give the name of the example to run, e.g. rein example date; the examples are: date, orders,"
                            + " expense, assistant, code, sql, web, npc, workflow ('rein examples' describes them)");
        }
        // NAME is still shown as required in the help
        assertThat(cli.run("example", "--help").stdout()).containsPattern("(?s)Usage: rein example .*\\] NAME\\s").doesNotContain("[NAME]");
    }

    /**
     * A name with a stray space (a shell variable's trailing blank) is quoted as typed. Before: the space was stripped from
     * the quote, which read "unknown example 'date'; the examples are: date, ...", naming the example it refused.
     */
    @Test
    void anUnknownExampleNameIsQuotedAsTyped() {
        for (String[] args : new String[][] {{"example", "date ", "--offline"}, {"example", " date", "--offline", "--eval"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).singleElement().asString().isEqualTo("rein example: unknown example '" + args[1]
                    + "'; did you mean date?");
        }
    }

    /**
     * A name one or two letters from an example's names the example it may be, as a misspelled command does. Before: only
     * the list of every example.
     */
    @Test
    void anUnknownExampleNameNearOneSaysWhichItMayBe() {
        for (String[] args : new String[][] {{"example", "ordrs"}, {"example", "oders", "--eval"}, {"example", "Orders", "--offline"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).as(args[1]).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(args[1]).isEmpty();
            assertThat(outcome.stderrLines()).as(args[1]).containsExactly("rein example: unknown example '" + args[1]
                    + "'; did you mean orders?");
        }
        // one or two letters: a start is too short to guess from, as for a command (cli28); a slip of one is named
        assertThat(cli.run("example", "sq").stderrLines()).containsExactly("rein example: unknown example 'sq'; the only"
                + " example starting with 'sq' is sql; give the whole name");
        assertThat(cli.run("example", "w").stderrLines()).containsExactly("rein example: unknown example 'w'; too short to"
                + " tell which example was meant: the examples starting with 'w' are: web, workflow; give the whole name");
        assertThat(cli.run("example", "nc").stderrLines()).containsExactly("rein example: unknown example 'nc'; did you mean npc?");
        assertThat(cli.run("example", "weather").stderrLines()).containsExactly("rein example: unknown example 'weather'; the"
                + " examples are: date, orders, expense, assistant, code, sql, web, npc, workflow");
    }

    /**
     * A blank name is said to be empty, with the examples: it is no start of a name, too short to tell which was meant
     * (rev63). Before: "too short to tell which example was meant: the examples starting with '' are: ...".
     */
    @Test
    void aBlankExampleNameIsSaidToBeEmpty() {
        for (String name : new String[] {"", " "}) {
            assertThat(cli.run("example", name).stderrLines()).as("'" + name + "'").containsExactly("rein example: the"
                    + " example name is empty; the examples are: date, orders, expense, assistant, code, sql, web, npc, workflow");
        }
    }

    /**
     * A short name two letters from two examples is no near miss: the examples are listed. Before: "unknown example 'nope';
     * did you mean code or npc?".
     */
    @Test
    void aShortNameTwoLettersFromExamplesListsThem() {
        InProcessCli.Outcome outcome = cli.run("example", "nope");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).containsExactly("rein example: unknown example 'nope'; the"
                + " examples are: date, orders, expense, assistant, code, sql, web, npc, workflow");
        assertThat(cli.run("example", "cdoe").stderrLines()).containsExactly("rein example: unknown example 'cdoe'; did you mean code?");
    }

    /**
     * The name typed is quoted back with its control characters shown as escapes, as every other message of the CLI
     * quotes an argument. Before: the escape sequence reached the terminal raw (here it would clear the screen).
     */
    @Test
    void anUnknownExampleNameIsQuotedWithItsControlCharactersVisible() {
        for (String[] args : new String[][] {{"example", "da\u001b[2Jte"}, {"example", "da\u001b[2Jte", "--eval"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).singleElement().asString()
                    .contains("unknown example 'da\\x1b[2Jte'").doesNotContain("\u001b");
        }
    }
    /**
     * A key the provider refuses fails the suite's trials with HTTP 401, and the API's words ('invalid x-api-key') do not
     * say where the CLI took the key from. As rein run and rein eval --model do, rein example --eval names the variable
     * after the summary. Before: only the provider's message, in the summary.
     */
    @Test
    void anEvalWhoseKeyTheProviderRefusesNamesTheVariableTheKeyCameFrom() {
        try (dev.rein.testkit.FakeMessagesServer anthropic = dev.rein.testkit.FakeMessagesServer.start()) {
            for (int i = 0; i < 100; i++) {
                anthropic.enqueue(dev.rein.testkit.FakeReply.error(401, "authentication_error", "invalid x-api-key"));
            }
            InProcessCli.Outcome outcome = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-ant-wrong")
                    .run("example", "date", "--eval", "--trials", "1", "--base-url", anthropic.baseUrl());
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(dev.rein.examples.Examples.SETUP_FAILED);
            assertThat(outcome.stdout()).contains("invalid x-api-key");
            assertThat(outcome.stderrLines()).as(outcome.stderr()).anySatisfy(line -> assertThat(line)
                    .startsWith("rein example date: ").contains("ended in an infrastructure error: HTTP 401 from the provider:"
                            + " the provider refused the key: check ANTHROPIC_API_KEY"));
        }
    }
    /**
     * A key the provider refuses ends the demo's run FAILED (provider_error) before any step: an infrastructure failure, exit
     * 3 as documented ('3 setup or infrastructure failure', as --eval does), with the variable the key came from named on
     * stderr as rein run's summary names it. Before: exit 1, as if the example had run and not ended as intended, and
     * nothing said where the key came from.
     */
    @Test
    void aDemoWhoseKeyTheProviderRefusesIsASetupFailureNamingTheVariableTheKeyCameFrom() {
        try (dev.rein.testkit.FakeMessagesServer anthropic = dev.rein.testkit.FakeMessagesServer.start()) {
            for (int i = 0; i < 10; i++) {
                anthropic.enqueue(dev.rein.testkit.FakeReply.error(401, "authentication_error", "invalid x-api-key"));
            }
            InProcessCli.Outcome outcome = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-ant-wrong")
                    .run("example", "date", "--base-url", anthropic.baseUrl());
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(dev.rein.examples.Examples.SETUP_FAILED);
            assertThat(outcome.stdout()).contains("FAILED (provider_error)").contains("invalid x-api-key");
            assertThat(outcome.stderrLines()).as(outcome.stderr()).singleElement().asString()
                    .startsWith("rein example date: the demo ended in an infrastructure error: the model provider failed (HTTP 401")
                    .contains("invalid x-api-key").endsWith("(the provider refused the key: check ANTHROPIC_API_KEY)");
        }
    }

    /**
     * A demo whose provider failed once and then answered (an overloaded API, retried) is no infrastructure failure: it
     * ended as intended, exit 0 (a probe of the limit of the test above).
     */
    @Test
    void aDemoWhoseProviderAnsweredAfterARetryIsNoSetupFailure() {
        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneId.of("Asia/Tokyo"));
        java.time.LocalDate later = today.plusDays(100);
        try (dev.rein.testkit.FakeMessagesServer anthropic = dev.rein.testkit.FakeMessagesServer.start()) {
            anthropic.enqueue(dev.rein.testkit.FakeReply.error(529, "overloaded_error", "Overloaded"));
            anthropic.enqueue(dev.rein.testkit.FakeReply.toolUse("toolu_01", "get_current_time", "{\"timezone\":\"Asia/Tokyo\"}"));
            anthropic.enqueue(dev.rein.testkit.FakeReply.toolUse("toolu_02", "add_days",
                    "{\"date\":\"" + today + "\",\"days\":100}"));
            anthropic.enqueue(dev.rein.testkit.FakeReply.text("Today is " + today + " in Tokyo, so 100 days from today is "
                    + later + " (" + later.getDayOfWeek() + ")."));
            InProcessCli.Outcome outcome = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-ant-test")
                    .run("example", "date", "--base-url", anthropic.baseUrl());
            assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isEqualTo(dev.rein.examples.Examples.OK);
            assertThat(outcome.stderr()).doesNotContain("infrastructure");
        }
    }

    /**
     * --json prints the suite's JSON report on stdout instead of the text summary, as rein eval --json does, so a script
     * can read it; progress and advice stay on stderr. Before: --json was an unknown option (exit 2).
     */
    @Test
    void anEvalWithJsonPrintsTheJsonReportAlone() {
        InProcessCli.Outcome outcome = cli.run("example", "orders", "--eval", "--trials", "1", "--json");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        com.fasterxml.jackson.databind.JsonNode report = dev.rein.json.Json.parse(outcome.stdout());
        assertThat(report.get("suite").asText()).isNotBlank();
        assertThat(report.get("summary").get("graded").asInt()).isPositive();
        assertThat(outcome.stdout()).doesNotContain("success rate");
    }

    /** --json goes with --eval, as --trials does: the demo prints a console trace, not JSON. */
    @Test
    void jsonWithoutEvalIsAUsageErrorSayingToAddEval() {
        InProcessCli.Outcome outcome = cli.run("example", "date", "--json");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString().startsWith("rein example: --json goes with --eval")
                .contains("rein example date --eval --json");
    }

    /**
     * The workflow example has no tool-calling agent (docs/mcp.md): the tools of --mcp would never be offered. Before: the
     * servers were started and the demo ran without a word, as if their tools had been offered.
     */
    @Test
    void mcpWithAnExampleWithoutAToolCallingAgentIsAUsageError(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path servers = java.nio.file.Files.writeString(dir.resolve("servers.json"), "{\"mcpServers\": {}}");
        InProcessCli.Outcome outcome = cli.run("example", "workflow", "--offline", "--mcp", servers.toString());
        assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString()
                .startsWith("rein example: the workflow example has no tool-calling agent").contains("leave --mcp out");
    }

    /**
     * rein example's help describes only options it has: its --mcp (shared with rein run) said the servers' tools "are
     * offered next to --tools", an option rein example does not take. Before: the help named --tools.
     */
    @Test
    void theHelpNamesNoOptionTheCommandDoesNotTake() {
        InProcessCli.Outcome outcome = cli.run("example", "--help");
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout()).contains("--mcp").doesNotContain("--tools");
    }
}
