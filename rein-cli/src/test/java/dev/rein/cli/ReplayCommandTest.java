package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rein replay TRACE}: a trace written by {@code rein run --trace} replays exactly; changes are reported. */
class ReplayCommandTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void aCliTraceReplaysExactlyAndAnEditedOneShowsItsDivergence(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}")), text("2 + 3 = 5"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "--tools", "calculate",
                "--system", "簡潔に", "add 2 and 3").exitCode()).isZero();

        InProcessCli.Outcome replay = cli.run("replay", trace.toString());

        assertThat(replay.exitCode()).as(replay.stdout() + replay.stderr()).isZero();
        assertThat(replay.stdout()).contains("2 of 2 recorded model calls").contains("no divergence")
                .contains("replayed ending: SUCCEEDED/completed (as recorded)");

        // A recorded tool result that differs from what the calculator says now is no divergence (it is answered
        // from the trace) unless READ tools run live.
        java.util.List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8).stream()
                .map(l -> l.contains("\"type\":\"tool_result\"") ? l.replace("\"content\":\"", "\"content\":\"edited ") : l).toList();
        Files.write(trace, lines, StandardCharsets.UTF_8);
        InProcessCli.Outcome live = cli.run("replay", "--live-read-tools", "--stop-at-divergence", trace.toString());
        assertThat(live.exitCode()).as(live.stdout() + live.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(live.stdout()).contains("first divergence: step 2: the live READ tool `calculate` (its call ")
                .contains("now answers otherwise than recorded: it ran for real, on its data as it is now, so the step request"
                        + " differs at messages[2]")
                .contains("replayed ending: CANCELLED/cancelled (differs)");
    }

    @Test
    void aLiveReplayOfGetCurrentTimeAnswersWithTheRecordedTimeNotTheHourOfTheReplay(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")),
                text("今は 2026 年 3 月 1 日です"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "--tools", "get_current_time",
                "今日は何日?").exitCode()).isZero();
        // as if recorded in March: the call's start, and the time the tool told the model (in its result and the next request)
        String told = Files.readAllLines(trace, StandardCharsets.UTF_8).stream().filter(l -> l.contains("\"type\":\"tool_result\""))
                .map(l -> dev.rein.json.Json.parse(l).path("content").asText()).findFirst().orElseThrow();
        java.util.List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8).stream().map(l -> {
            com.fasterxml.jackson.databind.node.ObjectNode e = (com.fasterxml.jackson.databind.node.ObjectNode) dev.rein.json.Json.parse(l);
            if (e.path("type").asText().equals("tool_call")) {
                e.put("time", "2026-03-01T00:00:00.250Z");
            }
            return e.toString().replace(told, "2026-03-01T09:00:00+09:00[Asia/Tokyo] (Sunday)");
        }).toList();
        Files.write(trace, lines, StandardCharsets.UTF_8);

        InProcessCli.Outcome live = cli.run("replay", "--live-read-tools", trace.toString());

        assertThat(live.exitCode()).as(live.stdout() + live.stderr()).isZero();
        assertThat(live.stdout()).contains("no divergence").contains("replayed ending: SUCCEEDED/completed (as recorded)");
    }

    /**
     * A replay calls no model, so REIN_PROVIDER, which names the provider of runs that do, is no concern of it (nor of
     * rein eval DIR): the recorded model is priced by the installed provider whose price table lists it. Before: exit 2,
     * "rein replay: REIN_PROVIDER: no model provider named 'nope' is installed; ...".
     */
    @Test
    void aReplayNeedsNoProviderSoAnUnknownReinProviderIsNoError(@TempDir Path dir) throws IOException {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        Path trace = traces.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(text("こんにちは"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "--tools", "", "挨拶して").exitCode())
                .isZero();

        cli.env("REIN_PROVIDER", "nope");
        InProcessCli.Outcome replay = cli.run("replay", trace.toString());
        assertThat(replay.exitCode()).as(replay.stdout() + replay.stderr()).isZero();
        assertThat(replay.stdout()).contains("no divergence");
        InProcessCli.Outcome eval = cli.run("eval", traces.toString());
        assertThat(eval.exitCode()).as(eval.stdout() + eval.stderr()).isZero();
    }

    @Test
    void aMissingTraceIsAUsageError(@TempDir Path dir) {
        InProcessCli.Outcome outcome = cli.run("replay", dir.resolve("nope.jsonl").toString());
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        // before: "rein replay: no such trace file: .../nope.jsonl", saying nothing of what to give or where traces are
        assertThat(outcome.stderrLines()).singleElement().asString()
                .isEqualTo("rein replay: no such trace file: " + dir.resolve("nope.jsonl") + "; give TRACE, a JSONL trace file:"
                        + " 'rein run --trace FILE' writes one (so do rein resume and rein reply with --trace, 'rein demo', which"
                        + " prints where, and 'rein eval SUITE --traces DIR'); a run started without --trace has none to replay");
        InProcessCli.Outcome relative = cli.run("replay", "nosuch-トレース.jsonl");
        assertThat(relative.stderrLines()).singleElement().asString().startsWith("rein replay: no such trace file: nosuch-トレース.jsonl"
                + " (in " + Path.of("").toAbsolutePath() + "); give TRACE, a JSONL trace file: ");
    }

    /** A trace path that is a dangling link, or under a file, is said so (before: 'no such trace file', 'Not a directory'). */
    @Test
    void aTraceThatIsADanglingLinkOrUnderAFileIsSaidSo(@TempDir Path dir) throws IOException {
        Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("最後.jsonl"), dir.resolve("消えた.jsonl"));
        InProcessCli.Outcome dangling = cli.run("replay", link.toString());
        assertThat(dangling.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(dangling.stderr()).contains("cannot read the trace " + link + ": " + link + " is a symbolic link to "
                + dir.resolve("消えた.jsonl") + ", which does not exist (the link's target is missing)");
        Path file = java.nio.file.Files.writeString(dir.resolve("f"), "x");
        InProcessCli.Outcome underAFile = cli.run("replay", file.resolve("t.jsonl").toString());
        assertThat(underAFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(underAFile.stderr()).contains(file + " is a file, not a directory");
    }

    @Test
    void evalOfAFolderOfTracesRunsEachRecordedRunThroughTheHarness(@TempDir Path dir) throws IOException {
        Path traces = Files.createDirectory(dir.resolve("traces"));
        ScriptedModel first = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}")), text("5"));
        cli.models((name, env) -> first).run("run", "--trace", traces.resolve("a.jsonl").toString(), "--tools", "calculate", "add");
        ScriptedModel second = ScriptedModel.of(text("hello"));
        cli.models((name, env) -> second).run("run", "--trace", traces.resolve("b.jsonl").toString(), "say hello");

        InProcessCli.Outcome outcome = cli.run("eval", traces.toString());

        assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isZero();
        assertThat(outcome.stdout()).startsWith("Suite traces: 2 tasks x 1 trial, model recorded")
                .contains("success rate 100.0% (2/2 graded), pass@1 100.0%, pass^1 100.0%\n").contains("a.jsonl").contains("b.jsonl");

        Files.writeString(traces.resolve("b.jsonl"), Files.readString(traces.resolve("b.jsonl"), StandardCharsets.UTF_8)
                .replace("\"reason\":\"completed\"", "\"reason\":\"max_steps\""), StandardCharsets.UTF_8);
        Path html = dir.resolve("report.html");
        InProcessCli.Outcome changed = cli.run("eval", traces.toString(), "--report", html.toString());
        assertThat(changed.exitCode()).as(changed.stdout() + changed.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(changed.stdout()).contains("b.jsonl #0 failed (wrong_outcome): replay: expected succeeded: max_steps (as"
                + " recorded), no divergence; the replay ended succeeded: completed");
        assertThat(html).exists();

        // The suite may say otherwise: expected.json overrides the recorded ending of one trace.
        Files.writeString(traces.resolve("expected.json"), "{\"b.jsonl\": {\"status\": \"SUCCEEDED\"}}");
        InProcessCli.Outcome overridden = cli.run("eval", traces.toString(), "--json");
        assertThat(overridden.exitCode()).as(overridden.stdout()).isZero();
        assertThat(dev.rein.json.Json.parse(overridden.stdout()).at("/tasks/1/expected").asText())
                .isEqualTo("succeeded (expected.json), no divergence");
    }

    @Test
    void tracesWrittenByTheEvalHarnessReplayAndRunAsASuite(@TempDir Path dir) {
        Path traces = dir.resolve("eval-traces");
        InProcessCli.Outcome recorded = cli.run("eval", "../docs/eval-suite-example.yaml", "--trials", "1", "--traces",
                traces.toString());
        assertThat(recorded.exitCode()).as(recorded.stdout() + recorded.stderr()).isZero();
        assertThat(traces.resolve("release-date.0.jsonl")).exists();

        InProcessCli.Outcome replay = cli.run("replay", traces.resolve("release-date.0.jsonl").toString());
        assertThat(replay.exitCode()).as(replay.stdout() + replay.stderr()).isZero();
        assertThat(replay.stdout()).contains("tools this CLI does not have, answered from the trace only: list_files, read_file,"
                + " search_files").contains("no divergence");

        InProcessCli.Outcome suite = cli.run("eval", traces.toString());
        assertThat(suite.exitCode()).as(suite.stdout() + suite.stderr()).isZero();
        assertThat(suite.stdout()).contains("6 tasks x 1 trial, model recorded").contains("success rate 100.0% (6/6 graded)");
    }

    @Test
    void badTraceInputIsOneLineWithExitCodeTwo(@TempDir Path dir) throws IOException {
        assertUsage(cli.run("eval", dir.resolve("missing").toString()), "rein eval: no such suite file or trace folder: "
                + dir.resolve("missing"));
        Path folder = Files.createDirectory(dir.resolve("traces"));
        Files.writeString(folder.resolve("notes.jsonl"), "not json\n");
        assertUsage(cli.run("eval", folder.toString()), "rein eval: the trace " + folder.resolve("notes.jsonl")
                + " is not JSONL: line 1 is not JSON; every .jsonl file in the folder must be a Rein trace: fix or move");
        assertUsage(cli.run("replay", folder.resolve("notes.jsonl").toString()), "rein replay: the trace "
                + folder.resolve("notes.jsonl") + " is not JSONL: line 1 is not JSON");
        Files.delete(folder.resolve("notes.jsonl"));

        Path two = folder.resolve("two.jsonl");
        ScriptedModel model = ScriptedModel.of(text("one"), text("two"));
        cli.models((name, env) -> model).run("run", "--trace", dir.resolve("1.jsonl").toString(), "first");
        cli.models((name, env) -> model).run("run", "--trace", dir.resolve("2.jsonl").toString(), "second");
        Files.writeString(two, Files.readString(dir.resolve("1.jsonl")) + Files.readString(dir.resolve("2.jsonl")));
        InProcessCli.Outcome several = cli.run("replay", two.toString());
        assertUsage(several, "rein replay: the trace " + two + " holds 2 runs (");
        assertThat(several.stderr()).contains("say which to replay (--run ID)");

        Files.writeString(folder.resolve("expected.json"), "[1, 2");
        assertUsage(cli.run("eval", folder.toString()), "rein eval: " + folder.resolve("expected.json") + " is not valid JSON");
        Files.delete(folder.resolve("expected.json"));
        assertUsage(cli.run("eval", folder.toString(), "--model", "claude-haiku-4-5"),
                "rein eval: --model does not apply to a folder of traces");

        // A trace of several runs is one task per run in a folder.
        InProcessCli.Outcome runs = cli.run("eval", folder.toString());
        assertThat(runs.exitCode()).as(runs.stdout() + runs.stderr()).isZero();
        assertThat(runs.stdout()).contains("2 tasks x 1 trial").contains("two.jsonl.run_");
    }

    @Test
    void anEmptyRunIdSaysItIsEmptyAndWhichRunsTheTraceHolds(@TempDir Path dir) {
        cli.models((name, env) -> ScriptedModel.of(text("one"))).run("run", "--trace", dir.resolve("1.jsonl").toString(), "first");
        // it read "has no run ; it holds ...", as if a run had an empty id
        InProcessCli.Outcome empty = cli.run("replay", dir.resolve("1.jsonl").toString(), "--run", "");
        assertUsage(empty, "rein replay: --run is empty: give the id of a run of the trace " + dir.resolve("1.jsonl")
                + " (it holds run_");
        assertThat(empty.stderr()).contains("), or leave --run out");
    }

    @Test
    void aTraceThatIsNotUtf8IsAUsageErrorAndOneWithoutItsEndingSaysSo(@TempDir Path dir) throws IOException {
        Path binary = dir.resolve("binary.jsonl");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}', '\n'});
        assertUsage(cli.run("replay", binary.toString()), "rein replay: the trace " + binary + " is not UTF-8 text");

        // A process that died mid-run leaves a trace without run_finished: the replay says so instead of "null".
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(text("こんにちは"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "挨拶して").exitCode()).isZero();
        Files.write(trace, Files.readAllLines(trace, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.contains("\"type\":\"run_finished\"")).toList(), StandardCharsets.UTF_8);
        InProcessCli.Outcome replay = cli.run("replay", trace.toString());
        assertThat(replay.exitCode()).as(replay.stdout() + replay.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(replay.stdout()).contains("recorded ending: none (the trace has no run_finished").doesNotContain("null");
    }

    /** Runs a Japanese goal with one calculate call, traced to DIR/run.jsonl. */
    private Path recordJapaneseCalculation(Path dir) {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}")), text("答えは5です"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "--tools", "calculate",
                "2と3を足して").exitCode()).isZero();
        return trace;
    }

    @Test
    void aTraceCutOffMidLineOrWithAStrayByteOrAFolderSaysWhereAndWhatToDo(@TempDir Path dir) throws IOException {
        Path trace = recordJapaneseCalculation(dir);
        byte[] bytes = Files.readAllBytes(trace);
        int lines = Files.readAllLines(trace, StandardCharsets.UTF_8).size();

        // A process killed while writing a long event leaves its last line cut off.
        Path cut = dir.resolve("cut.jsonl");
        Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length - 30));
        assertUsage(cli.run("replay", cut.toString()), "rein replay: the trace " + cut + " is not JSONL: line " + lines
                + ", the last, is cut off (the recording stopped while writing it); remove that line to replay the run up to there");

        // A run resumed into that trace starts on a line of its own; the cut line is named wherever it is.
        Path resumed = dir.resolve("resumed.jsonl");
        Files.write(resumed, java.util.Arrays.copyOf(bytes, bytes.length - 30));
        Files.writeString(resumed, "\n", java.nio.file.StandardOpenOption.APPEND);
        Files.write(resumed, bytes, java.nio.file.StandardOpenOption.APPEND);
        assertUsage(cli.run("replay", "--run", "x", resumed.toString()), "rein replay: the trace " + resumed + " is not JSONL: line "
                + lines + " is cut off (the recording stopped while writing it); remove that line to replay the rest");

        // One byte that is not UTF-8, in line 2 of a Japanese trace: the line is named.
        Path stray = dir.resolve("stray.jsonl");
        byte[] strayBytes = bytes.clone();
        int line2 = 0;
        while (bytes[line2++] != '\n') {
            // to the first byte of line 2
        }
        strayBytes[line2 + 5] = (byte) 0xff;
        Files.write(stray, strayBytes);
        assertUsage(cli.run("replay", stray.toString()), "rein replay: the trace " + stray + " is not UTF-8 text: line 2 holds"
                + " a byte that is not UTF-8; a Rein trace is UTF-8 JSONL");

        // A whole line in the middle that is not JSON is no cut-off end.
        Path middle = dir.resolve("middle.jsonl");
        java.util.List<String> edited = new java.util.ArrayList<>(Files.readAllLines(trace, StandardCharsets.UTF_8));
        edited.set(1, "garbage");
        Files.write(middle, edited, StandardCharsets.UTF_8);
        assertUsage(cli.run("replay", middle.toString()), "rein replay: the trace " + middle + " is not JSONL: line 2 is not JSON");
        assertThat(cli.run("replay", middle.toString()).stderr()).doesNotContain("cut off");

        assertUsage(cli.run("replay", dir.toString()), "rein replay: " + dir + " is a folder, not a trace file: give one .jsonl"
                + " trace (rein eval " + dir + " replays every trace of a folder)");
    }

    /**
     * A file that is not a trace says what to give, as 'rein eval DIR' does for such a file in a folder. Before: only
     * "the trace F is not JSONL: line 1 is not JSON", with no next step.
     */
    @Test
    void aFileThatIsNotATraceSaysWhatToGive(@TempDir Path dir) throws IOException {
        Path notes = Files.writeString(dir.resolve("メモ.jsonl"), "会議のメモ\n");
        InProcessCli.Outcome replay = cli.run("replay", notes.toString());
        assertThat(replay.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(replay.stderrLines()).singleElement().asString().isEqualTo("rein replay: the trace " + notes + " is not JSONL:"
                + " line 1 is not JSON; give a trace 'rein run --trace FILE' wrote (one JSON event per line), or fix that line");
    }

    @Test
    void aTraceSavedWithAByteOrderMarkReplays(@TempDir Path dir) throws IOException {
        // Some Windows editors start a UTF-8 file they save with a byte order mark (EF BB BF).
        Path trace = recordJapaneseCalculation(dir);
        Path marked = dir.resolve("marked.jsonl");
        byte[] bytes = Files.readAllBytes(trace);
        byte[] withMark = new byte[bytes.length + 3];
        withMark[0] = (byte) 0xEF;
        withMark[1] = (byte) 0xBB;
        withMark[2] = (byte) 0xBF;
        System.arraycopy(bytes, 0, withMark, 3, bytes.length);
        Files.write(marked, withMark);
        InProcessCli.Outcome replay = cli.run("replay", marked.toString());
        assertThat(replay.exitCode()).as(replay.stderr()).isZero();
    }

    @Test
    void aRunPausedApprovedAndResumedIntoOneTraceReplaysAsOneRun(@TempDir Path dir) throws IOException {
        String send = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", send)), text("送りました"));
        cli.models((name, env) -> model);
        Path trace = dir.resolve("run.jsonl");
        assertThat(cli.run("run", "--trace", trace.toString(), "--tools", "send_message", "佐藤さんに送って").exitCode())
                .isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id = dev.rein.json.Json.parse(Files.readAllLines(trace, StandardCharsets.UTF_8).get(0)).path("run_id").asText();

        InProcessCli.Outcome paused = cli.run("replay", trace.toString());
        assertThat(paused.exitCode()).as(paused.stdout() + paused.stderr()).isZero();
        assertThat(paused.stdout()).contains("replayed ending: WAITING_APPROVAL/approval_required (as recorded)");

        assertThat(cli.run("approve", id).exitCode()).isZero();
        assertThat(cli.run("resume", "--trace", trace.toString(), id).exitCode()).isZero();
        InProcessCli.Outcome whole = cli.run("replay", trace.toString());
        assertThat(whole.exitCode()).as(whole.stdout() + whole.stderr()).isZero();
        assertThat(whole.stdout()).contains("2 of 2 recorded model calls").contains("no divergence")
                .contains("replayed ending: SUCCEEDED/completed (as recorded)");
    }

    @Test
    void anEndingThatDiffersOnlyInItsAnswerSaysSo(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(text("こんにちは"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "挨拶して").exitCode()).isZero();
        Files.writeString(trace, Files.readString(trace, StandardCharsets.UTF_8).replace("\"answer\":\"こんにちは\"",
                "\"answer\":\"こんばんは\""), StandardCharsets.UTF_8);

        InProcessCli.Outcome replay = cli.run("replay", trace.toString());

        assertThat(replay.exitCode()).as(replay.stdout() + replay.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(replay.stdout()).contains("no divergence").contains("replayed ending: SUCCEEDED/completed (differs: another answer)");
    }

    @Test
    void aRunWithAnOutputSchemaReplaysWithItsSchemaAndItsRepair(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("verdict.json");
        Files.writeString(schema, "{\"type\":\"object\",\"properties\":{\"理由\":{\"type\":\"string\"}},\"required\":[\"理由\"]}");
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(text("大丈夫です"), text("{\"理由\":\"問題なし\"}"));
        assertThat(cli.models((name, env) -> model).run("run", "--trace", trace.toString(), "--output-schema", schema.toString(),
                "--system", "簡潔に", "大丈夫?").exitCode()).isZero();

        InProcessCli.Outcome replay = cli.run("replay", trace.toString());

        assertThat(replay.exitCode()).as(replay.stdout() + replay.stderr()).isZero();
        assertThat(replay.stdout()).contains("2 of 2 recorded model calls").contains("no divergence")
                .contains("replayed ending: SUCCEEDED/completed (as recorded)");
        Path folder = Files.createDirectory(dir.resolve("traces"));
        Files.copy(trace, folder.resolve("run.jsonl"));
        InProcessCli.Outcome eval = cli.run("eval", folder.toString());
        assertThat(eval.exitCode()).as(eval.stdout() + eval.stderr()).isZero();
    }

    /**
     * What --json-stream printed, saved to a file, holds every trace event between the stream's own lines (text deltas,
     * the last result line): it replays, as a stream without text deltas did before (core34 had refused it). Only a
     * line saying events were left out (events_dropped) is refused, naming it. A file of other JSON names the line and
     * what it holds. Before: the whole stream refused at its first text delta.
     */
    @Test
    void aJsonStreamSavedToAFileReplaysUnlessEventsWereDropped(@TempDir Path dir) throws IOException {
        ScriptedModel model = ScriptedModel.of(text("2 + 3 = 5"));
        InProcessCli.Outcome streamed = cli.models((name, env) -> model).run("run", "--json-stream", "add 2 and 3");
        assertThat(streamed.exitCode()).as(streamed.stderr()).isZero();
        assertThat(streamed.stdout()).contains("\"type\":\"text_delta\"", "\"type\":\"result\"");
        Path saved = Files.writeString(dir.resolve("stream.jsonl"), streamed.stdout());
        InProcessCli.Outcome replayed = cli.run("replay", saved.toString());
        assertThat(replayed.exitCode()).as(replayed.stdout() + replayed.stderr()).isZero();
        assertThat(replayed.stdout()).contains("no divergence");

        java.util.List<String> lines = new java.util.ArrayList<>(streamed.stdout().lines().toList());
        // by_type counts trace events (RunStream joins text deltas, which are never dropped)
        lines.add(2, "{\"type\":\"events_dropped\",\"count\":3,\"by_type\":{\"tool_call\":3}}");
        Path dropped = Files.writeString(dir.resolve("dropped.jsonl"), String.join("\n", lines) + "\n");
        assertUsage(cli.run("replay", dropped.toString()), "rein replay: the trace " + dropped + " is not a Rein trace: line 3"
                + " is a --json-stream events_dropped line: events were left out here: replay the --trace file");

        Path other = Files.writeString(dir.resolve("other.jsonl"), "{\"run_id\":\"r1\",\"type\":\"run_started\"}\n"
                + "{\"ts\":1,\"level\":\"info\"}\n");
        assertUsage(cli.run("replay", other.toString()), "rein replay: the trace " + other + " is not a Rein trace: line 2 has"
                + " no type or run_id (its keys: ts, level), as every trace event has; give a trace 'rein run --trace FILE' wrote");
        Path array = Files.writeString(dir.resolve("array.jsonl"), "[1, 2]\n");
        assertUsage(cli.run("replay", array.toString()), "rein replay: the trace " + array + " is not a Rein trace: line 1 is a"
                + " JSON array, not a trace event (one JSON object per line); give a trace 'rein run --trace FILE' wrote");
        // a run_id that is no text is said as it is (before: "has no run_id (its keys: type, run_id)")
        Path number = Files.writeString(dir.resolve("num.jsonl"), "{\"type\":\"run_started\",\"run_id\":5}\n");
        assertUsage(cli.run("replay", number.toString()), "rein replay: the trace " + number + " is not a Rein trace: line 1's"
                + " run_id is a number (5), not the text every trace event has");
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "{\"type\":\"run_started\",\"run_id\":\"\"}\n");
        assertUsage(cli.run("replay", empty.toString()), "rein replay: the trace " + empty + " is not a Rein trace: line 1's"
                + " run_id is empty");
    }

    /**
     * An empty file, or one of --json-stream's own lines only (a run's text deltas and result, without its trace events),
     * says what to give, and why the lines it has are none. Before: only "the trace … holds no events".
     */
    @Test
    void aFileWithNoEventsSaysWhatToGiveAndWhyItsStreamLinesAreNone(@TempDir Path dir) throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n\n");
        assertUsage(cli.run("replay", empty.toString()), "rein replay: the trace " + empty + " holds no events; give a trace"
                + " 'rein run --trace FILE' wrote");
        Path streamOnly = Files.writeString(dir.resolve("stream.jsonl"), "{\"type\":\"text_delta\",\"text\":\"5\"}\n"
                + "{\"type\":\"result\",\"run_id\":\"r1\",\"status\":\"SUCCEEDED\"}\n");
        assertUsage(cli.run("replay", streamOnly.toString()), "rein replay: the trace " + streamOnly + " holds no events: its 2"
                + " lines are --json-stream's own (text_delta, result), not trace events; give a trace 'rein run --trace FILE'"
                + " wrote");
    }

    private static void assertUsage(InProcessCli.Outcome outcome, String message) {
        assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).startsWith(message).doesNotContain("\tat ", "Exception");
        assertThat(outcome.stderr().strip().lines()).hasSize(1);
    }
}
