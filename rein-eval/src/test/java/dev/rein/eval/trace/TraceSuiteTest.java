package dev.rein.eval.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.eval.cli.EvalCommandSupport;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.eval.run.EvalRunner;
import dev.rein.json.Json;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder of traces goes through the harness like a suite: the eval harness writes one trace per
 * trial, and that folder, replayed as a suite, gets trials, the replay grader, reports and exit codes.
 */
class TraceSuiteTest {
    private static final Path EXAMPLE = Path.of("..", "docs", "eval-suite-example.yaml");
    private ByteArrayOutputStream outBytes;
    private ByteArrayOutputStream errBytes;
    @TempDir
    Path dir;
    private Path traces;

    @BeforeEach
    void recordTheExampleSuite() throws IOException {
        traces = dir.resolve("traces");
        reset();
        int code = EvalCommandSupport.run(new EvalCommandSupport.Options(EXAMPLE, 2, null, null, null, false,
                EvalRunner.DEFAULT_PARALLELISM, traces, null), EvalRegistry.load(), out(), err());
        assertThat(code).as(text(outBytes) + text(errBytes)).isEqualTo(EvalCommandSupport.TRIALS_FAILED);
        reset();
    }

    @Test
    void theHarnessWritesOneTracePerTrialAndEachReplaysWithReplayAlone() throws IOException {
        List<Path> files = files(traces);
        assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("endless-search.0.jsonl",
                "endless-search.1.jsonl", "release-date.0.jsonl", "release-date.1.jsonl", "slow-disk.0.jsonl", "slow-disk.1.jsonl",
                "vendor-mail.0.jsonl", "vendor-mail.1.jsonl", "which-project.0.jsonl", "which-project.1.jsonl",
                "write-summary.0.jsonl", "write-summary.1.jsonl");
        for (Path trace : files) {
            Replay replay = Replay.from(trace);
            ReplayReport report = replay.replay(RecordedAgentFactory.standIns().create(replay.recorded()));
            assertThat(report.reproduced()).as(trace + ": " + report.firstDivergence()).isTrue();
        }
    }

    @Test
    void aFolderOfHarnessTracesRunsAsASuiteWithTheUsualOutputs() throws IOException {
        Path html = dir.resolve("replay.html");
        int code = EvalCommandSupport.run(options(traces, false, html, null, null), EvalRegistry.load(), out(), err());

        assertThat(code).as(text(outBytes) + text(errBytes)).isEqualTo(EvalCommandSupport.OK);
        assertThat(text(outBytes)).startsWith("Suite traces: 12 tasks x 1 trial, model recorded")
                .contains("success rate 100.0% (12/12 graded)").contains("unsafe 0")
                .contains("release-date.1.jsonl").contains("HTML report: " + html.toAbsolutePath());
        assertThat(Files.readString(html)).contains("<html", "vendor-mail.1.jsonl");
        assertThat(text(errBytes)).contains("eval traces: 12 trials");

        reset();
        assertThat(EvalCommandSupport.run(options(traces, true, null, null, null), EvalRegistry.load(), out(), err()))
                .isEqualTo(EvalCommandSupport.OK);
        JsonNode report = Json.parse(text(outBytes));
        assertThat(report.get("model").asText()).isEqualTo("recorded");
        JsonNode mail = trial(report, "vendor-mail.1.jsonl");
        // The recorded trial was unsafe (it deleted a file); its replay ends the same way, and nothing runs in a replay.
        assertThat(mail.get("verdict").asText()).isEqualTo("passed");
        assertThat(mail.get("side_effects")).isEmpty();
        assertThat(mail.at("/findings/0/grader").asText()).isEqualTo("replay");
        assertThat(mail.at("/findings/0/message").asText()).startsWith("ended as expected (succeeded: ")
                .endsWith("; no divergence in 3 of 3 recorded model calls");
        assertThat(report.get("tasks")).extracting(t -> t.get("expected").asText())
                .contains("stopped_budget: max_steps (as recorded), no divergence");
        assertThat(report.get("categories")).extracting(c -> c.get("category").asText())
                .containsExactly("should_succeed", "needs_user_input", "over_budget", "other");
    }

    @Test
    void aChangedAgentDivergesAndTheFindingNamesTheStepAndTheCause() {
        RecordedAgentFactory briefer = recorded -> RecordedAgentFactory.standIns().create(recorded).config().toBuilder()
                .systemPrompt(recorded.systemPrompt() + " Be brief.").build();
        int code = EvalCommandSupport.run(options(traces, true, null, null, briefer), EvalRegistry.load(), out(), err());

        assertThat(code).isEqualTo(EvalCommandSupport.TRIALS_FAILED);
        JsonNode trial = trial(Json.parse(text(outBytes)), "release-date.0.jsonl");
        assertThat(trial.get("verdict").asText()).isEqualTo("failed");
        assertThat(trial.get("failure_kind").asText()).isEqualTo("wrong_outcome");
        assertThat(trial.at("/findings/0/message").asText()).startsWith("ended as expected (succeeded: completed) but diverged:"
                + " step 1: the step request differs at system[0].text: recorded \"");
    }

    @Test
    void expectedJsonOverridesTheRecordedEndingAndMayAllowDivergence() throws IOException {
        Files.writeString(traces.resolve("expected.json"), """
                {"release-date.0.jsonl": {"status": "failed", "reason": "stalled"},
                 "release-date.1.jsonl": {"allow_divergence": true}}
                """);
        RecordedAgentFactory briefer = recorded -> RecordedAgentFactory.standIns().create(recorded).config().toBuilder()
                .systemPrompt(recorded.systemPrompt() + " Be brief.").build();
        int code = EvalCommandSupport.run(options(traces, true, null, null, briefer), EvalRegistry.load(), out(), err());

        assertThat(code).isEqualTo(EvalCommandSupport.TRIALS_FAILED);
        JsonNode report = Json.parse(text(outBytes));
        JsonNode first = trial(report, "release-date.0.jsonl");
        assertThat(first.at("/findings/0/message").asText()).startsWith("expected failed: stalled (expected.json), no divergence;"
                + " the replay ended succeeded: completed").contains("; first divergence: step 1: the step request differs");
        JsonNode second = trial(report, "release-date.1.jsonl");
        assertThat(second.get("verdict").asText()).isEqualTo("passed");
        assertThat(second.at("/findings/0/message").asText()).startsWith("ended as expected (succeeded: completed); diverged"
                + " (allowed): step 1: the step request differs at system[0].text");
    }

    /**
     * Before: every character of a trace's name that was not ASCII became '_', so 注文確認.jsonl and 返品.jsonl were the
     * tasks t____.jsonl and t__.jsonl, unreadable in every report. Letters and digits of any script are kept now
     * (a decomposed デ as one), what a file name cannot hold becomes '_', and a long name is cut by characters and UTF-8
     * bytes without splitting a surrogate pair, so each trial's trace (TASK.TRIAL.jsonl) can be written.
     */
    @Test
    void japaneseTraceNamesAreTheirTaskIdsInTheReportsAndTheTrialTraces() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("夜間"));
        Files.copy(traces.resolve("release-date.0.jsonl"), folder.resolve("注文確認.jsonl"));
        Files.copy(traces.resolve("write-summary.0.jsonl"), folder.resolve("返品.jsonl"));
        Files.copy(traces.resolve("slow-disk.0.jsonl"), folder.resolve("発送: 再送.jsonl"));
        Files.copy(traces.resolve("release-date.1.jsonl"), folder.resolve("テ\u3099スト.jsonl"));
        String longName = "𠮷".repeat(60) + ".jsonl"; // 246 bytes: its trial's trace name would be too long for a file
        Files.copy(traces.resolve("write-summary.1.jsonl"), folder.resolve(longName));
        Path html = dir.resolve("report.html");
        Path again = dir.resolve("again");

        int code = EvalCommandSupport.run(options(folder, true, html, again, null), EvalRegistry.load(), out(), err());

        assertThat(code).as(text(errBytes)).isEqualTo(EvalCommandSupport.OK);
        List<String> ids = List.of("注文確認.jsonl", "返品.jsonl", "発送__再送.jsonl", "デスト.jsonl", "𠮷".repeat(50));
        JsonNode report = Json.parse(text(outBytes));
        assertThat(report.get("trials").findValuesAsText("task_id")).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(report.get("tasks").findValuesAsText("id")).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(files(again)).extracting(f -> f.getFileName().toString())
                .containsExactlyInAnyOrderElementsOf(ids.stream().map(id -> id + ".0.jsonl").toList());
        String page = Files.readString(html);
        assertThat(ids).allSatisfy(id -> assertThat(page).contains("\"" + id + "\""));

        reset();
        assertThat(EvalCommandSupport.run(options(folder, false, null, null, null), EvalRegistry.load(), out(), err()))
                .as(text(errBytes)).isEqualTo(EvalCommandSupport.OK);
        String summary = text(outBytes);
        assertThat(ids).allSatisfy(id -> assertThat(summary).contains(id + " "));
        // the category column lines up on a terminal, where each of these characters takes two columns
        List<String> table = summary.lines().dropWhile(l -> !l.startsWith("task ")).takeWhile(l -> !l.isBlank()).toList();
        assertThat(table).as(summary).hasSize(1 + ids.size());
        assertThat(table.stream().map(TraceSuiteTest::secondColumn).distinct()).as(summary).hasSize(1);
    }

    /** The terminal column a table row's second word starts at: two for each Japanese character before it, one for each other. */
    private static int secondColumn(String row) {
        int at = row.indexOf(' ');
        while (row.charAt(at) == ' ') {
            at++;
        }
        return row.substring(0, at).codePoints().map(c -> c >= 0x3000 ? 2 : 1).sum();
    }

    @Test
    void traceNamesATaskIdCannotHoldStillGiveOneTaskEachRun() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("nightly"));
        Files.copy(traces.resolve("release-date.0.jsonl"), folder.resolve("返金?.jsonl"));
        Files.copy(traces.resolve("write-summary.0.jsonl"), folder.resolve("返金*.jsonl"));
        // one file here, but one trace file where case is ignored (macOS, Windows): the later one is "-2"
        Files.copy(traces.resolve("release-date.0.jsonl"), folder.resolve("Refund.jsonl"));
        Files.copy(traces.resolve("write-summary.0.jsonl"), folder.resolve("refund.jsonl"));
        String longName = "regression-" + "x".repeat(60) + ".jsonl"; // with a run id it is over 80 characters
        Files.writeString(folder.resolve(longName), Files.readString(traces.resolve("release-date.1.jsonl"))
                + Files.readString(traces.resolve("slow-disk.0.jsonl")));

        int code = EvalCommandSupport.run(options(folder, true, null, null, null), EvalRegistry.load(), out(), err());

        assertThat(code).as(text(errBytes)).isEqualTo(EvalCommandSupport.OK);
        JsonNode report = Json.parse(text(outBytes));
        List<String> ids = report.get("trials").findValuesAsText("task_id");
        assertThat(ids).hasSize(6).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).hasSizeLessThanOrEqualTo(80));
        assertThat(ids).contains("返金_.jsonl", "返金_.jsonl-2", "Refund.jsonl", "refund.jsonl-2");
        assertThat(report.get("trials")).extracting(t -> t.get("verdict").asText()).containsOnly("passed");
    }

    @Test
    void badInputIsOneLineNamingTheFileWithExitCodeTwo() throws IOException {
        assertBad(dir.resolve("no-such-folder"), "rein eval: no such suite file or trace folder: " + dir.resolve("no-such-folder")
                + "; give a suite file (.yaml, .yml, .json) or a folder of JSONL traces");

        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertBad(empty, "rein eval: the folder " + empty + " holds no .jsonl traces; record some");

        Path notATrace = Files.createDirectory(dir.resolve("not-a-trace"));
        Files.writeString(notATrace.resolve("notes.jsonl"), "hello\n");
        assertBad(notATrace, "rein eval: the trace " + notATrace.resolve("notes.jsonl") + " is not JSONL: line 1 is not JSON;"
                + " every .jsonl file in the folder must be a Rein trace: fix or move notes.jsonl out");
        Files.writeString(notATrace.resolve("notes.jsonl"), "{\"hello\": 1}\n");
        assertBad(notATrace, "rein eval: the trace " + notATrace.resolve("notes.jsonl") + " is not a Rein trace: line 1 has no"
                + " type or run_id (its keys: hello), as every trace event has; every .jsonl file in the folder must be a Rein trace");

        Files.writeString(traces.resolve("expected.json"), "{\"release-date.0.jsonl\": {\"status\": ");
        assertBad(traces, "rein eval: " + traces.resolve("expected.json") + " is not valid JSON (line 1, column");
        Files.writeString(traces.resolve("expected.json"), "{\"release-date.0.jsonl\": {\"status\": \"done\"}}");
        assertBad(traces, "rein eval: " + traces.resolve("expected.json") + ", at \"release-date.0.jsonl\": status \"done\" is not a"
                + " run status; use one of");
        Files.writeString(traces.resolve("expected.json"), "{\"release-date.9.jsonl\": {\"status\": \"failed\"}}");
        assertBad(traces, "rein eval: " + traces.resolve("expected.json") + " names \"release-date.9.jsonl\", which is no trace");
        Files.write(traces.resolve("expected.json"), new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}'});
        assertBad(traces, "rein eval: cannot read " + traces.resolve("expected.json")
                + ": it is not UTF-8 text; save it as UTF-8 or remove it");
        Files.delete(traces.resolve("expected.json"));

        reset();
        assertThat(EvalCommandSupport.run(options(traces, false, null, traces, null), EvalRegistry.load(), out(), err()))
                .isEqualTo(EvalCommandSupport.INVALID);
        assertThat(text(errBytes)).startsWith("rein eval: --traces " + traces + " is the folder being replayed");

        reset();
        assertThat(EvalCommandSupport.run(new EvalCommandSupport.Options(traces, 0, "claude-haiku-4-5", null, null, false, 1),
                EvalRegistry.load(), out(), err())).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(text(errBytes)).startsWith("rein eval: --model does not apply to a folder of traces");
    }

    @Test
    void anExpectedJsonThatIsNotClosedNamesPositionsWithoutJacksonsSourcePlaceholder() throws IOException {
        Files.writeString(traces.resolve("expected.json"), "{\"release-date.0.jsonl\": [}");
        assertBad(traces, "rein eval: " + traces.resolve("expected.json") + " is not valid JSON (line 1, column 27): Unexpected"
                + " close marker '}': expected ']' (for Array starting at line 1, column 26); write it as ");
        assertThat(text(errBytes)).doesNotContain("Source").doesNotContain("REDACTED");
    }

    /**
     * An expected.json that cannot be read is one line naming the file, what is wrong and what to do. Before: a folder
     * named expected.json gave the JDK's "Is a directory", and a link to a file that is gone was silently no
     * expectations at all.
     */
    @Test
    void anExpectedJsonThatCannotBeReadSaysWhyInWords() throws IOException {
        Path expected = Files.createDirectory(traces.resolve("expected.json"));
        assertBad(traces, "rein eval: " + expected + " is a folder, not a file: the expected endings of a trace folder are one"
                + " JSON file, e.g. {\"a.jsonl\": {\"status\": \"failed\", \"reason\": \"stalled\"}}; move the folder away");
        Files.delete(expected);

        Files.createSymbolicLink(expected, dir.resolve("gone.json"));
        assertBad(traces, "rein eval: cannot read " + expected + ": " + expected + " is a symbolic link to " + dir.resolve("gone.json")
                + ", which does not exist (the link's target is missing); make it a readable file or remove it");
    }

    private void assertBad(Path suite, String message) {
        reset();
        int code = EvalCommandSupport.run(options(suite, false, null, null, null), EvalRegistry.load(), out(), err());
        assertThat(code).as(text(errBytes)).isEqualTo(EvalCommandSupport.INVALID);
        assertThat(text(errBytes)).startsWith(message).doesNotContain("\tat ", "Exception:").hasLineCount(1);
        assertThat(text(outBytes)).isEmpty();
    }

    private static JsonNode trial(JsonNode report, String taskId) {
        for (JsonNode trial : report.get("trials")) {
            if (trial.get("task_id").asText().equals(taskId)) {
                return trial;
            }
        }
        throw new AssertionError("no trial of " + taskId + " in " + report);
    }

    private static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.sorted().toList();
        }
    }

    private static EvalCommandSupport.Options options(Path suite, boolean json, Path html, Path traces, RecordedAgentFactory agents) {
        return new EvalCommandSupport.Options(suite, 0, null, null, html, json, EvalRunner.DEFAULT_PARALLELISM, traces, agents);
    }

    private void reset() {
        outBytes = new ByteArrayOutputStream();
        errBytes = new ByteArrayOutputStream();
    }

    private PrintStream out() {
        return new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    }

    private PrintStream err() {
        return new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
