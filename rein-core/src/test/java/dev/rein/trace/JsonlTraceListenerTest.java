package dev.rein.trace;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.json.Json;
import dev.rein.replay.Replay;
import dev.rein.testkit.ScriptedModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One JSONL trace file shared by several runs ({@link JsonlTraceListener#to}): every line stays one whole event. */
class JsonlTraceListenerTest {
    @Test
    void concurrentRunsWritingLongEventsToOneFileNeverInterleaveWithinALine(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("runs.jsonl");
        String longGoal = "注文の履歴を調べて ".repeat(3_000); // each model_request line is far over the writers' 8 KB buffers
        List<RunHandle> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Agent agent = Agent.builder().model(ScriptedModel.of(text("答え " + i))).listener(JsonlTraceListener.to(trace)).build();
            runs.add(agent.start(longGoal + i));
        }
        runs.forEach(run -> run.future().join());

        List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
        for (String line : lines) {
            assertThat(Json.parse(line).path("type").isTextual()).as("a whole event per line").isTrue();
        }
        assertThat(Replay.runIds(trace)).hasSize(8);
    }
    private static boolean parses(String line) {
        try {
            Json.parse(line);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Test
    void aTraceFileThatCannotBeOpenedStopsTheRunSayingWhy(@TempDir Path dir) throws Exception {
        // README: agent.run throws a ReinException saying why; the message ended with the path alone
        Path plain = Files.writeString(dir.resolve("notes"), "x");
        Agent underAFile = Agent.builder().model(ScriptedModel.of(text("x"))).listener(JsonlTraceListener.to(plain.resolve("t.jsonl")))
                .build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> underAFile.run("go")).isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("cannot open trace file " + plain.resolve("t.jsonl") + ": " + plain + " is a file, not a directory");
        Agent onADirectory = Agent.builder().model(ScriptedModel.of(text("x"))).listener(JsonlTraceListener.to(dir)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> onADirectory.run("go")).isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("cannot open trace file " + dir + ": it is a directory; name a file in it, e.g. " + dir.resolve("trace.jsonl"));
    }

    @Test
    void aTraceFileThatIsADanglingLinkSaysItsTargetIsMissing(@TempDir Path dir) throws Exception {
        // Before: 'no such file or directory: .../trace.jsonl', of a file that ls shows is there (a link)
        Path target = dir.resolve("消えた").resolve("t.jsonl");
        Path link = Files.createSymbolicLink(dir.resolve("trace.jsonl"), target);
        Agent agent = Agent.builder().model(ScriptedModel.of(text("x"))).listener(JsonlTraceListener.to(link)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> agent.run("go")).isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("cannot open trace file " + link + ": " + link + " is a symbolic link to " + target
                        + ", which does not exist (the link's target is missing)");
        // a relative link is said as written, and where that is
        Path relative = Files.createSymbolicLink(dir.resolve("rel.jsonl"), Path.of("gone", "t.jsonl"));
        Agent viaRelative = Agent.builder().model(ScriptedModel.of(text("x"))).listener(JsonlTraceListener.to(relative)).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> viaRelative.run("go")).isInstanceOf(dev.rein.ReinException.class)
                .hasMessageEndingWith(relative + " is a symbolic link to gone/t.jsonl (" + dir.resolve("gone/t.jsonl")
                        + "), which does not exist (the link's target is missing)");
    }

    @Test
    void anEventWithHalfAnEmojiIsStillOneWholeLine(@TempDir Path dir) throws Exception {
        // a tool that cut its text by UTF-16 index returns half of a surrogate pair: no JSON writer
        // takes it, and the line must not end mid-string with the next event glued to it
        Path trace = dir.resolve("run.jsonl");
        dev.rein.tool.Tool cut = dev.rein.tool.Tool.builder("cut").description("Cuts.")
                .handler((args, ctx) -> "結果 " + "😀".substring(0, 1)).build();
        Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("cut", "{}")), text("終わり")))
                .tools(cut).listener(JsonlTraceListener.to(trace)).build().run("切る");

        List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
        assertThat(lines).allSatisfy(line -> assertThat(parses(line)).as("a whole event: %s", line).isTrue());
        // written as its JSON escape, read back as the same character (it was written as '?', another text)
        assertThat(lines).anySatisfy(line -> {
            assertThat(line).contains("\"type\":\"tool_result\"").contains("結果 \\ud83d");
            assertThat(Json.parse(line).path("content").asText()).isEqualTo("結果 " + "😀".substring(0, 1));
        });
        assertThat(lines.get(lines.size() - 1)).contains("\"type\":\"run_finished\"").contains("終わり");
    }

    @Test
    void eventsAppendedToATraceWhoseLastLineWasCutOffStartOnALineOfTheirOwn(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        Agent.builder().model(ScriptedModel.of(text("一つ目"))).listener(JsonlTraceListener.to(trace)).build().run("最初");
        byte[] whole = Files.readAllBytes(trace);
        Files.write(trace, java.util.Arrays.copyOf(whole, whole.length - 20)); // killed while writing run_finished

        Agent.builder().model(ScriptedModel.of(text("二つ目"))).listener(JsonlTraceListener.to(trace)).build().run("次");

        List<String> lines = Files.readAllLines(trace, StandardCharsets.UTF_8);
        assertThat(lines.stream().filter(l -> !parses(l))).as("only the cut line is not whole").hasSize(1);
        assertThat(lines.get(lines.size() - 1)).contains("\"type\":\"run_finished\"").contains("二つ目");
        assertThat(lines.stream().filter(l -> parses(l) && l.contains("\"type\":\"run_started\""))).as("the second run's start is whole")
                .hasSize(2);
    }
}
