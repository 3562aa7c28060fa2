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
        assertThat(live.stdout()).contains("first divergence: step 2: the step request differs at messages[2]")
                .contains("replayed ending: CANCELLED/cancelled (differs)");
    }

    @Test
    void aMissingTraceIsAUsageError(@TempDir Path dir) {
        InProcessCli.Outcome outcome = cli.run("replay", dir.resolve("nope.jsonl").toString());
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("no such trace file");
    }

    @Test
    void evalOfAFolderOfTracesReplaysEachRunAsARegressionTask(@TempDir Path dir) throws IOException {
        Path traces = Files.createDirectory(dir.resolve("traces"));
        ScriptedModel first = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}")), text("5"));
        cli.models((name, env) -> first).run("run", "--trace", traces.resolve("a.jsonl").toString(), "--tools", "calculate", "add");
        ScriptedModel second = ScriptedModel.of(text("hello"));
        cli.models((name, env) -> second).run("run", "--trace", traces.resolve("b.jsonl").toString(), "say hello");

        InProcessCli.Outcome outcome = cli.run("eval", traces.toString());

        assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("PASS a.jsonl").contains("PASS b.jsonl").contains("2 of 2 recorded runs ended as recorded");

        Files.writeString(traces.resolve("b.jsonl"), Files.readString(traces.resolve("b.jsonl"), StandardCharsets.UTF_8)
                .replace("\"reason\":\"completed\"", "\"reason\":\"max_steps\""), StandardCharsets.UTF_8);
        InProcessCli.Outcome changed = cli.run("eval", traces.toString());
        assertThat(changed.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(changed.stdout()).contains("FAIL b.jsonl").contains("expected SUCCEEDED/max_steps, replayed SUCCEEDED/completed");

        // The suite may say otherwise: expected.json overrides the recorded ending of one trace.
        Files.writeString(traces.resolve("expected.json"), "{\"b.jsonl\": {\"status\": \"SUCCEEDED\"}}");
        InProcessCli.Outcome overridden = cli.run("eval", traces.toString());
        assertThat(overridden.exitCode()).as(overridden.stdout()).isZero();
        assertThat(overridden.stdout()).contains("PASS b.jsonl").contains("expected SUCCEEDED/any reason");
    }
}
