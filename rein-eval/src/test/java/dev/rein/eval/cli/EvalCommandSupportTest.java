package dev.rein.eval.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.rein.eval.file.EvalRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandSupportTest {
    private static final Path EXAMPLE = Path.of("..", "docs", "eval-suite-example.yaml");
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theExampleSuiteRunsOfflineAndPrintsASummary(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("reports").resolve("out.html");
        int code = EvalCommandSupport.run(EXAMPLE, 2, null, html, false, out, err);
        // Trial 1 of release-date guesses and trial 1 of vendor-mail follows the injection.
        assertThat(code).isEqualTo(EvalCommandSupport.TRIALS_FAILED);
        assertThat(out()).startsWith("Suite files-demo: 6 tasks x 2 trials, model scripted")
                .contains("success rate 83.3% (10/12 graded), pass@1 83.3%, pass@2 100.0%, pass^2 66.7%")
                .contains("unsafe 1 (1 would otherwise have passed), safe refusals 0, infrastructure errors 0")
                .contains("vendor-mail #1 unsafe (unsafe_action): must_not_call: ran forbidden tools: delete_file")
                .contains("release-date #1 failed (wrong_outcome): must_call: never ran: read_file; answer_contains: the answer lacks: 1月20日")
                .contains("HTML report: " + html.toAbsolutePath());
        assertThat(html).exists();
        assertThat(Files.readString(html)).contains("<html", "data-render-status=\"pending\"");
        assertThat(err()).contains("eval files-demo: 12 trials").contains("12/12 (100%)");
    }

    /**
     * Ctrl-C in rein eval interrupts the thread running it: the trials that had ended are summarised (and written to the
     * HTML report), with a line saying it was interrupted and what the summary covers. Before: only "rein eval:
     * interrupted", and the trial that had passed was lost.
     */
    @Test
    void anInterruptedEvaluationSummarisesTheTrialsThatEnded(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("s.yaml"), """
                suite: halted
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: quick
                    goal: Say alpha
                    expect: {answer_contains: [alpha]}
                    script: [{text: alpha}]
                  - id: slow
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 120000}]
                """);
        Path html = dir.resolve("report.html");
        Path traces = dir.resolve("traces");
        int[] code = new int[1];
        Thread evaluation = Thread.ofPlatform().start(() -> code[0] = EvalCommandSupport.run(
                new EvalCommandSupport.Options(suite, 1, null, null, html, false, 2, traces, null), EvalRegistry.load(), out, err));
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        // quick has ended and slow is in flight (its trace has its model call): on a busy machine slow may start late
        while (!(err().contains("1/2") && inModelCall(traces.resolve("slow.0.jsonl"))) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        evaluation.interrupt();
        evaluation.join(30_000);

        assertThat(evaluation.isAlive()).isFalse();
        assertThat(code[0]).isEqualTo(EvalCommandSupport.INTERRUPTED);
        assertThat(out()).startsWith("Suite halted: 2 tasks x 1 trial").contains("success rate 100.0% (1/1 graded)");
        assertThat(err()).contains("rein eval: interrupted after 1 of 2 trials: the summary covers the 1 that ended;"
                + " 1 in flight was cancelled and none was left to start\n");
        assertThat(Files.readString(html)).contains("halted");
        // on stdout too, where the summary may be kept apart from the line on stderr
        assertThat(out()).contains("\n  INTERRUPTED after 1 of 2 trials: the figures cover the 1 that ended; 1 in flight was"
                + " cancelled and none was left to start\n");
    }

    /**
     * The line on stderr, the summary and the JSON report say how many trials ended, how many were cancelled in flight and
     * how many had not started. Before: "the trials in flight were cancelled and the rest did not run" whatever the counts,
     * also when every trial was in flight (nothing was left that did not run), and the JSON report had no count of its own
     * of the trials that ended (only summary.trials) nor of those cancelled or never started.
     */
    @Test
    void anInterruptionSaysHowManyTrialsEndedWereCancelledInFlightAndHadNotStarted(@TempDir Path dir) throws Exception {
        String slow = """
                  - id: slow%d
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 120000}]
                """;
        Path suite = Files.writeString(dir.resolve("s.yaml"), """
                suite: halted
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: quick
                    goal: Say alpha
                    script: [{text: alpha}]
                """ + slow.formatted(1) + slow.formatted(2) + slow.formatted(3));
        // 4 trials, 2 at a time: quick ends, slow1 and slow2 are in flight, slow3 waits for a place
        interruptAfter(suite, 2, "1/4");
        assertThat(err()).contains("rein eval: interrupted after 1 of 4 trials: the summary covers the 1 that ended;"
                + " 2 in flight were cancelled and 1 had not started\n");
        assertThat(out()).contains("\n  INTERRUPTED after 1 of 4 trials: the figures cover the 1 that ended; 2 in flight were"
                + " cancelled and 1 had not started\n");

        // every trial in flight: nothing was left not to run
        Path allInFlight = Files.writeString(dir.resolve("t.yaml"), """
                suite: halted
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                """ + slow.formatted(1) + slow.formatted(2));
        outBytes.reset();
        errBytes.reset();
        interruptAfter(allInFlight, 2, "2 trials");
        assertThat(err()).contains("rein eval: interrupted after 0 of 2 trials: the summary covers the 0 that ended;"
                + " 2 in flight were cancelled and none was left to start\n").doesNotContain("did not run");
    }

    /** The JSON report counts the trials that ended, were cancelled in flight and had not started, beside trials_planned. */
    @Test
    void anInterruptedJsonReportCountsTheTrialsThatEndedWereCancelledAndHadNotStarted(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("s.yaml"), """
                suite: halted
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: quick
                    goal: Say alpha
                    script: [{text: alpha}]
                  - id: slow
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 120000}]
                  - id: later
                    goal: Say alpha
                    script: [{text: alpha}]
                """);
        // one at a time: quick ends, slow is in flight, later has not started
        int code = interruptAfterJson(suite, 1, "1/3");
        assertThat(code).isEqualTo(EvalCommandSupport.INTERRUPTED);
        JsonNode report = Json.parse(out());
        assertThat(report.get("trials_planned").asInt()).isEqualTo(3);
        assertThat(report.get("trials_ended").asInt()).isEqualTo(report.at("/summary/trials").asInt()).isEqualTo(1);
        assertThat(report.get("trials_cancelled").asInt()).isEqualTo(1);
        assertThat(report.get("trials_not_started").asInt()).isEqualTo(1);
    }

    /** Whether the trial writing {@code trace} has asked its model (and waits for the scripted answer). */
    private static boolean inModelCall(Path trace) {
        try {
            return Files.exists(trace) && Files.readString(trace).contains("\"type\":\"model_request\"");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private void interruptAfter(Path suite, int parallel, String progress) throws Exception {
        assertThat(interrupt(suite, parallel, progress, false)).isEqualTo(EvalCommandSupport.INTERRUPTED);
    }

    private int interruptAfterJson(Path suite, int parallel, String progress) throws Exception {
        return interrupt(suite, parallel, progress, true);
    }

    /** Runs the suite one trial per task, {@code parallel} at a time, and interrupts it once stderr shows {@code progress}. */
    private int interrupt(Path suite, int parallel, String progress, boolean json) throws Exception {
        int[] code = new int[1];
        Thread evaluation = Thread.ofPlatform().start(() -> code[0] = EvalCommandSupport.run(
                new EvalCommandSupport.Options(suite, 1, null, null, null, json, parallel), EvalRegistry.load(), out, err));
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (!err().contains(progress) && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        Thread.sleep(300); // the slow trials reach their model call
        evaluation.interrupt();
        evaluation.join(30_000);
        assertThat(evaluation.isAlive()).isFalse();
        return code[0];
    }

    /**
     * The JSON report and the --report file of an interrupted evaluation say it was interrupted, and how many trials were
     * planned (the summary's trials are those that ended). Before: nothing in them did; only the exit code (130) and the
     * line on stderr said so, and the report of 1 passed trial of 2 read as a suite that passed.
     */
    @Test
    void anInterruptedEvaluationsJsonReportAndReportFileSayItWasInterrupted(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("s.yaml"), """
                suite: halted
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: quick
                    goal: Say alpha
                    expect: {answer_contains: [alpha]}
                    script: [{text: alpha}]
                  - id: slow
                    goal: Say alpha
                    script: [{text: alpha, delay_ms: 120000}]
                """);
        Path html = dir.resolve("report.html");
        int[] code = new int[1];
        Thread evaluation = Thread.ofPlatform().start(() -> code[0] = EvalCommandSupport.run(
                new EvalCommandSupport.Options(suite, 1, null, null, html, true, 2), EvalRegistry.load(), out, err));
        long until = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
        while (!err().contains("1/2") && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        evaluation.interrupt();
        evaluation.join(30_000);

        assertThat(code[0]).isEqualTo(EvalCommandSupport.INTERRUPTED);
        JsonNode report = Json.parse(out());
        assertThat(report.get("interrupted").asBoolean()).isTrue();
        assertThat(report.get("trials_planned").asInt()).isEqualTo(2);
        assertThat(report.at("/summary/trials").asInt()).isEqualTo(1);
        assertThat(report.get("trials")).hasSize(1);
        String page = Files.readString(html);
        assertThat(page).contains("\"interrupted\":true", "\"trials_planned\":2"); // the page's banner: HtmlReportChromiumTest
    }

    /**
     * What the agent, its tools or the provider wrote reaches the summary inside a finding or an infrastructure error
     * (an agent's failure summary, a provider's message): an ESC [2J or OSC title sequence in it was printed raw on
     * stdout and stderr, where docs/cli.md promises every control character the CLI prints as an escape.
     */
    @Test
    void controlCharactersFromTheRunAreEscapedInTheSummaryAndTheProgressLines(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("s.yaml"), """
                suite: "esc\\e[2J"
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read], finish_tool: true}
                tasks:
                  - id: gave-up
                    goal: g
                    script: [{finish: {status: failed, summary: "cannot\\e]0;owned\\a do it", result: "\\e[31mred"}}]
                  - id: provider
                    goal: g
                    script: [{error: {kind: authentication, message: "bad key\\e[2J"}}]
                """);
        int code = EvalCommandSupport.run(suite, 1, null, null, false, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.INFRA_ERRORS);
        assertThat(out()).doesNotContain("\u001b").doesNotContain("\u0007")
                .contains("\\x1b]0;owned\\x07").contains("bad key\\x1b[2J").contains("esc\\x1b[2J");
        assertThat(err()).doesNotContain("\u001b").contains("esc\\x1b[2J");
    }

    @Test
    void jsonOutputHasStableSnakeCaseFields() throws Exception {
        int code = EvalCommandSupport.run(EXAMPLE, 1, null, null, true, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.OK);
        JsonNode report = Json.parse(out());
        assertThat(names(report)).containsExactly("schema_version", "suite", "description", "model", "started_at", "finished_at",
                "duration_ms", "trials_per_task", "trials_planned", "trials_ended", "trials_cancelled", "trials_not_started", "interrupted",
                "summary", "categories", "tasks", "trials");
        assertThat(report.get("interrupted").asBoolean(true)).isFalse();
        assertThat(report.get("trials_planned").asInt()).isEqualTo(report.at("/summary/trials").asInt()).isEqualTo(6);
        assertThat(report.get("trials_ended").asInt()).isEqualTo(6);
        assertThat(report.get("trials_cancelled").asInt()).isZero();
        assertThat(report.get("trials_not_started").asInt()).isZero();
        assertThat(report.get("categories")).extracting(c -> c.get("category").asText()).containsExactly("should_succeed",
                "needs_user_input", "tool_timeout", "prompt_injection", "over_budget");
        assertThat(report.at("/categories/0/tasks").toString()).isEqualTo("[\"release-date\",\"write-summary\"]");
        assertThat(names(report.get("summary"))).containsExactly("tasks", "trials", "graded", "passed", "failed", "unsafe",
                "unsafe_successes", "safe_refusals", "infra_errors", "success_rate", "unsafe_rate", "safe_refusal_rate",
                "pass_at_k", "pass_hat_k", "failure_kinds", "steps", "cost_usd", "total_cost_usd");
        assertThat(names(report.get("trials").get(0))).containsExactly("task_id", "category", "trial", "verdict", "failure_kind",
                "safe_refusal", "unsafe_success", "status", "reason", "message", "answer", "steps", "cost_usd", "duration_ms",
                "state_hash", "findings", "side_effects", "tool_calls", "run_id", "infra_error");
        assertThat(report.at("/summary/success_rate").asDouble()).isEqualTo(1.0);
        assertThat(report.at("/tasks/0/category").asText()).isEqualTo("should_succeed");
        assertThat(report.at("/trials/0/answer").asText()).contains("1月20日");
    }

    @Test
    void aRealModelNeedsAProvider() {
        int code = EvalCommandSupport.run(EXAMPLE, 1, "claude-haiku-4-5", null, false, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err()).contains("--model claude-haiku-4-5 needs a model provider");
        assertThat(out()).isEmpty();
    }

    /**
     * A model factory that makes no model for --model is one line saying which models the installed providers know and
     * how to go on, as the CLI's error for an unpriced model lists the priced ones. Before: only "no model provider
     * knows the model 'gpt-9'", with no next step.
     */
    @Test
    void aModelNoProviderKnowsIsOneLineNamingTheKnownModelsAndWhatToDo() {
        int code = EvalCommandSupport.run(EXAMPLE, 1, "gpt-9", name -> null, null, false, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(out()).isEmpty();
        assertThat(err().lines()).singleElement().asString()
                .startsWith("rein eval: no model provider knows the model 'gpt-9'; give --model a model an installed provider knows"
                        + " (anthropic: ")
                .contains("claude-haiku-4-5")
                .endsWith("), or leave --model out to run the suite offline on its scripted models");
    }

    @Test
    void aProvidedModelRunsEveryTrial() {
        List<String> asked = new ArrayList<>();
        int code = EvalCommandSupport.run(EXAMPLE, 1, "claude-haiku-4-5", name -> {
            asked.add(name);
            return ScriptedModel.of(ScriptedModel.text("a"), ScriptedModel.text("b"), ScriptedModel.text("c"),
                    ScriptedModel.text("d"), ScriptedModel.text("e"), ScriptedModel.text("f"), ScriptedModel.text("g"));
        }, null, true, out, err);
        assertThat(asked).containsExactly("claude-haiku-4-5");
        assertThat(code).isEqualTo(EvalCommandSupport.TRIALS_FAILED);
        assertThat(Json.parse(out()).get("model").asText()).isEqualTo("claude-haiku-4-5");
    }

    @Test
    void badInputIsAShortErrorWithoutAStackTrace(@TempDir Path dir) throws Exception {
        assertThat(EvalCommandSupport.run(dir.resolve("missing.yaml"), 1, null, null, false, out, err))
                .isEqualTo(EvalCommandSupport.INVALID);
        // where it looked, and what to give (before: only "suite file not found: PATH")
        assertThat(err()).isEqualTo("rein eval: suite file not found: " + dir.resolve("missing.yaml").toAbsolutePath()
                + "; give the path of a suite file (YAML or JSON, see docs/eval.md)" + System.lineSeparator());
        Path txt = Files.writeString(dir.resolve("suite.txt"), "x");
        assertThat(EvalCommandSupport.run(txt, 1, null, null, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err()).contains("name it .yaml, .yml or .json").doesNotContain("Exception", "\tat ");
        assertThat(EvalCommandSupport.run(EXAMPLE, -1, null, null, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
    }

    /**
     * A suite with unscripted tasks run without --model says which option gives them a real model and which key it takes.
     * Before: "... Add scripts or run with a real model (a suite of recorded runs runs with TrialModels.recorded())", the
     * library's words, naming neither --model nor a key variable.
     */
    @Test
    void unscriptedTasksWithoutAModelSayToGiveModelAndItsKey(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("live.yaml"), """
                suite: live
                environment: file_tree
                agent: {toolsets: [files_read]}
                tasks:
                  - id: scripted
                    goal: g
                    script: [{text: "done"}]
                  - id: first
                    goal: g
                  - id: second
                    goal: g
                """);
        assertThat(EvalCommandSupport.run(suite, 1, null, null, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err()).isEqualTo("rein eval: suite 'live' cannot run offline: these tasks have no script: first, second;"
                + " run it against a real model with --model NAME (an Anthropic model with ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN set, or with"
                + " --provider openai an OpenAI model with OPENAI_API_KEY set), or give these tasks scripts (see docs/eval.md)"
                + System.lineSeparator());
        assertThat(out()).isEmpty();
    }

    /**
     * A suite with unscripted tasks cannot run offline, so a --model no provider knows (or no provider at all) is not
     * told to leave --model out: it says what to give instead. Before, it said "leave --model out to run the suite
     * offline", which is the "cannot run offline" error.
     */
    @Test
    void aModelThatCannotBeMadeForAnUnscriptedSuiteIsNotToldToRunItOffline(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("live.yaml"), """
                suite: live
                environment: file_tree
                agent: {toolsets: [files_read]}
                tasks:
                  - id: first
                    goal: g
                """);
        assertThat(EvalCommandSupport.run(suite, 1, "gpt-9", name -> null, null, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err().lines()).singleElement().asString()
                .startsWith("rein eval: no model provider knows the model 'gpt-9'; give --model a model an installed provider knows")
                .endsWith(")").doesNotContain("offline");
        errBytes.reset();
        assertThat(EvalCommandSupport.run(suite, 1, "claude-haiku-4-5", null, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err()).contains("--model claude-haiku-4-5 needs a model provider").doesNotContain("offline");
        assertThat(out()).isEmpty();
    }

    @Test
    void anAnswerPatternThatIsNotARegularExpressionIsAnErrorInTheSuiteFile(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("regex.yaml"), """
                suite: regex
                environment: file_tree
                agent: {toolsets: [files_read]}
                tasks:
                  - id: t
                    goal: g
                    script: [{text: "2026-03-01"}]
                    expect: {answer_matches: "([0-9]{4}"}
                """);
        assertThat(EvalCommandSupport.run(suite, 1, null, null, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err()).startsWith("rein eval: " + suite + " (line 8, column 30): tasks[0] (t).expect.answer_matches '([0-9]{4}' is not a"
                + " regular expression: Unclosed group").doesNotContain("internal error", "Exception").hasLineCount(1);
        assertThat(out()).isEmpty();
    }

    @Test
    void aReportPathThatIsTheSuiteFileIsRefusedBeforeAnyTrialAndTheSuiteIsKept(@TempDir Path dir) throws Exception {
        // the HTML report replaced the suite file it was graded from: the suite was gone, exit 0
        Path suite = java.nio.file.Files.copy(EXAMPLE, dir.resolve("suite.yaml"));
        String before = java.nio.file.Files.readString(suite);
        int code = EvalCommandSupport.run(suite, 1, null, dir.resolve(".").resolve("suite.yaml"), false, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(err()).isEqualTo("rein eval: --report " + dir.resolve(".").resolve("suite.yaml")
                + " is the suite file; write the report to another file, such as report.html\n");
        assertThat(out()).isEmpty();
        assertThat(java.nio.file.Files.readString(suite)).isEqualTo(before);
    }

    @Test
    void aReportPathThatCannotBeWrittenIsRefusedBeforeAnyTrialRuns(@TempDir Path dir) throws Exception {
        // every trial ran (the time and the money spent) before the report path was found unwritable
        Path blocker = Files.writeString(dir.resolve("file"), "not a directory");
        int code = EvalCommandSupport.run(EXAMPLE, 1, null, blocker.resolve("out.html"), false, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(out()).isEmpty();
        assertThat(err()).isEqualTo("rein eval: cannot write the report to " + blocker.resolve("out.html").toAbsolutePath() + ": "
                + blocker.toAbsolutePath() + " is a file, not a directory; give --report a file in a folder you can write,"
                + " such as report.html (no trial was run)\n");
        // a name longer than the file system takes, and a folder, are found as early
        for (Path report : List.of(dir.resolve("r".repeat(300) + ".html"), Files.createDirectory(dir.resolve("folder")))) {
            errBytes.reset();
            assertThat(EvalCommandSupport.run(EXAMPLE, 1, null, report, false, out, err)).isEqualTo(EvalCommandSupport.INVALID);
            assertThat(err()).startsWith("rein eval: cannot write the report to " + report.toAbsolutePath() + ": ")
                    .endsWith("(no trial was run)\n").doesNotContain("eval files-demo").hasLineCount(1);
        }
        assertThat(out()).isEmpty();
        assertThat(dir.resolve("folder")).isEmptyDirectory();
    }

    @Test
    void aReportThatCannotBeWrittenAfterTheTrialsIsSavedElsewhereAndTheResultsArePrinted(@TempDir Path dir) throws Exception {
        // the folder the report was to go to turns into a file while the trials run (the check up front passed)
        Path reports = Files.createDirectory(dir.resolve("reports"));
        dev.rein.tool.Tool sabotage = dev.rein.tool.Tool.builder("sabotage").description("replaces the reports folder by a file")
                .handler((args, ctx) -> {
                    Files.delete(reports);
                    Files.writeString(reports, "no longer a folder");
                    return "done";
                }).build();
        EvalRegistry registry = EvalRegistry.loading().sharedToolset("sabotage", List.of(sabotage)).build();
        Path suite = Files.writeString(dir.resolve("s.yaml"), """
                suite: lost-report
                environment: file_tree
                agent: {toolsets: [files_read, sabotage]}
                tasks:
                  - id: t
                    goal: g
                    script: [{tool_calls: [{name: sabotage, input: {}}]}, {text: done}]
                """);
        Path html = reports.resolve("out.html");
        int code = EvalCommandSupport.run(new EvalCommandSupport.Options(suite, 1, null, null, html, false, 1), registry, out, err);
        assertThat(code).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(out()).contains("success rate 100.0%").doesNotContain("HTML report: " + html.toAbsolutePath());
        Matcher saved = Pattern.compile("rein eval: cannot write the report to " + Pattern.quote(html.toAbsolutePath().toString())
                + ": " + Pattern.quote(reports.toAbsolutePath().toString()) + " is a file, not a directory; it was saved to (\\S+) instead,"
                + " and the summary above holds the results\n").matcher(err());
        assertThat(saved.find()).as(err()).isTrue();
        Path fallback = Path.of(saved.group(1));
        try {
            assertThat(Files.readString(fallback)).contains("<html", "lost-report");
        } finally {
            Files.deleteIfExists(fallback);
        }
    }

    @Test
    void aReportThatCannotBeWrittenAfterTheTrialsKeepsTheTrialsOwnExitCode(@TempDir Path dir) throws Exception {
        // docs/eval.md: 1 is some trial failed, 3 infrastructure errors; a report that fails only after the trials
        // (saved elsewhere, the results printed) must not turn them into 2, which says nothing was run
        Path reports = Files.createDirectory(dir.resolve("reports"));
        dev.rein.tool.Tool sabotage = dev.rein.tool.Tool.builder("sabotage").description("replaces the reports folder by a file")
                .handler((args, ctx) -> {
                    if (Files.isDirectory(reports)) {
                        Files.delete(reports);
                        Files.writeString(reports, "no longer a folder");
                    }
                    return "done";
                }).build();
        EvalRegistry registry = EvalRegistry.loading().sharedToolset("sabotage", List.of(sabotage)).build();
        Path html = reports.resolve("out.html");
        Map<String, Integer> codes = new LinkedHashMap<>();
        codes.put("{tool_calls: [{name: sabotage, input: {}}]}, {text: wrong}", EvalCommandSupport.TRIALS_FAILED);
        codes.put("{tool_calls: [{name: sabotage, input: {}}]}", EvalCommandSupport.INFRA_ERRORS); // the script runs out
        for (Map.Entry<String, Integer> expected : codes.entrySet()) {
            Files.deleteIfExists(reports);
            Files.createDirectory(reports);
            Path suite = Files.writeString(dir.resolve("s.yaml"), """
                    suite: lost-report
                    environment: file_tree
                    agent: {toolsets: [files_read, sabotage]}
                    tasks:
                      - id: t
                        goal: g
                        script: [%s]
                        expect: {answer_contains: [right]}
                    """.formatted(expected.getKey()));
            outBytes.reset();
            errBytes.reset();
            int code = EvalCommandSupport.run(new EvalCommandSupport.Options(suite, 1, null, null, html, false, 1), registry, out, err);
            Matcher saved = Pattern.compile("rein eval: cannot write the report to .*; it was saved to (\\S+) instead").matcher(err());
            assertThat(saved.find()).as(err()).isTrue();
            Files.deleteIfExists(Path.of(saved.group(1)));
            assertThat(code).as(expected.getKey()).isEqualTo(expected.getValue());
        }
    }

    @Test
    void infrastructureErrorsGiveTheirOwnExitCode(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("short.yaml"), """
                suite: short
                environment: file_tree
                agent: {toolsets: [files_read]}
                tasks:
                  - id: t
                    goal: list the files
                    script: [{tool_calls: [{name: list_files, input: {}}]}]
                """);
        assertThat(EvalCommandSupport.run(suite, 1, null, null, false, out, err)).isEqualTo(EvalCommandSupport.INFRA_ERRORS);
        assertThat(out()).contains("infrastructure errors 1").contains("t #0 infra_error: provider_error");
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
