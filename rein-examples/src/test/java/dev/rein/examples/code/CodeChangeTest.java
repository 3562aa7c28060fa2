package dev.rein.examples.code;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.RunResult;
import dev.rein.eval.TrialModel;
import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import dev.rein.json.Json;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import dev.rein.tool.ToolContext;
import dev.rein.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeChangeTest {
    @Test
    void theDemoFixesTheBugAndCommitsOnTheWorkBranch() {
        DemoOutput demo = SuiteRuns.demo(CodeChange.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("FAIL slugify 'Hello, World!'")
                .contains("← ok                     PASSED")
                .contains("= SUCCEEDED (completed)")
                .contains("-  printf '%s' \"$1\" | tr '[:upper:]' '[:lower:]' | tr ' ' '-'")
                .contains("Fix slugify");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new CodeChange().suite());
    }

    @Test
    void aProgramThatIsMissingIsOneSentenceNamingItWithoutASpaceBeforeItsFullStop(@TempDir Path dir) {
        // The JDK's "Cannot run program" message ends in a space; quoted as it is, the line read "directory) . The".
        assertThatThrownBy(() -> ProcessRunner.run(java.util.List.of("rein-no-such-program"), dir, Duration.ofSeconds(5), 1000))
                .isInstanceOf(dev.rein.examples.ExampleSetupException.class)
                .hasMessageStartingWith("cannot run 'rein-no-such-program': Cannot run program \"rein-no-such-program\"")
                .hasMessageContaining("(No such file or directory). The code-change example needs git and a POSIX shell")
                .hasMessageNotContaining(" .");
    }

    @Test
    void pathsStayInsideTheWorkspace(@TempDir Path outside) throws Exception {
        try (GitWorkspace ws = new GitWorkspace()) {
            Tool read = new CodeTools(ws, Duration.ofSeconds(5)).all().stream().filter(t -> t.name().equals("read_file"))
                    .findFirst().orElseThrow();
            for (String path : new String[] {"../etc/passwd", "/etc/passwd", ".git/config", "src/../../x"}) {
                assertThatThrownBy(() -> read.handler().handle(Json.object().put("path", path), ToolContext.standalone("r")))
                        .as(path).isInstanceOf(IllegalArgumentException.class);
            }
            Files.createSymbolicLink(ws.dir().resolve("src/link"), Files.writeString(outside.resolve("secret.txt"), "x"));
            assertThatThrownBy(() -> read.handler().handle(Json.object().put("path", "src/link"), ToolContext.standalone("r")))
                    .hasMessageContaining("links outside");
        }
    }

    @Test
    void everySpellingOfATestPathIsProtected() throws Exception {
        try (GitWorkspace ws = new GitWorkspace()) {
            ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(new CodeTools(ws, Duration.ofSeconds(5)).all()))
                    .interceptor(new ProtectedPaths(ws.dir())).build();
            Files.createSymbolicLink(ws.dir().resolve("src/t"), Path.of("../tests"));
            for (String path : new String[] {"tests/test_slug.sh", "./tests/test_slug.sh", ".//tests/test_slug.sh",
                    "././tests/test_slug.sh", "src/../tests/test_slug.sh", " tests//test_slug.sh", "src/t/test_slug.sh"}) {
                String args = Json.write(Json.object().put("path", path).put("old_text", "#").put("new_text", "# edited"));
                ToolResult result = executor.execute(new ToolCall("c", CodeTools.EDIT_FILE, Json.parse(args), 0),
                        ToolContext.standalone("c"));
                assertThat(result.errorClass()).as(path + ": " + result.content()).isEqualTo(ErrorClass.PERMISSION_DENIED);
            }
            assertThat(ws.testsUnchanged()).isTrue();
            String src = Json.write(Json.object().put("path", ".//src/slug.sh").put("old_text", "#!/bin/sh").put("new_text", "#!/bin/sh"));
            assertThat(executor.execute(new ToolCall("d", CodeTools.EDIT_FILE, Json.parse(src), 0), ToolContext.standalone("d"))
                    .isError()).isFalse();
        }
    }

    @Test
    void searchAndListingDoNotFollowALinkOutOfTheWorkspace(@TempDir Path outside) throws Exception {
        try (GitWorkspace ws = new GitWorkspace()) {
            Path secret = Files.writeString(outside.resolve("passwd"), "root:x:0:0:secret-line\n");
            Files.createSymbolicLink(ws.dir().resolve("src/notes.txt"), secret);
            Map<String, Tool> tools = new java.util.HashMap<>();
            new CodeTools(ws, Duration.ofSeconds(5)).all().forEach(t -> tools.put(t.name(), t));
            String found = tools.get("search").handler().handle(Json.object().put("pattern", "secret"), ToolContext.standalone("s"))
                    .toString();
            assertThat(found).doesNotContain("secret-line").contains("no matches");
            String listed = tools.get("list_files").handler().handle(Json.object(), ToolContext.standalone("l")).toString();
            assertThat(listed).doesNotContain("notes.txt");
            assertThatThrownBy(() -> tools.get("read_file").handler().handle(Json.object().put("path", "src/notes.txt"),
                    ToolContext.standalone("r"))).hasMessageContaining("links outside");
            assertThat(ws.files()).doesNotContainKey("src/notes.txt");
        } finally {
            Files.deleteIfExists(outside.resolve("passwd"));
        }
    }

    @Test
    void aHangingTestIsKilledAtTheLimit() throws Exception {
        try (GitWorkspace ws = new GitWorkspace(Map.of("tests/test_hang.sh", "#!/bin/sh\nsleep 30\n"))) {
            long start = System.nanoTime();
            TestRunner.Report report = TestRunner.run(ws.dir(), Duration.ofMillis(500));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(report.passed()).isFalse();
            assertThat(report.timedOut()).isTrue();
            assertThat(report.output()).contains("was killed");
        }
    }

    @Test
    void anEditThatRestoresAnEarlierVersionIsNoticed() {
        try (GitWorkspace ws = new GitWorkspace()) {
            ScriptedModel model = ScriptedModel.of(
                    ScriptedModel.toolCalls(CodeChange.fix()),
                    ScriptedModel.toolCalls(ScriptedModel.call(CodeTools.EDIT_FILE, Json.write(Json.object().put("path", "src/slug.sh")
                            .put("old_text", GitWorkspace.FIXED_LINE).put("new_text", GitWorkspace.BUGGY_LINE)))),
                    ScriptedModel.toolCalls(CodeChange.fix()),
                    ScriptedModel.toolCalls(ScriptedModel.call("run_tests", "{}")),
                    ScriptedModel.text(CodeChange.SUMMARY));
            RecordingListener trace = new RecordingListener();
            RunResult result = CodeChange.agent(ws, new TrialModel(model, "claude-sonnet-5")).withListener(trace).run(CodeChange.GOAL);
            assertThat(result.succeeded()).as(result.message()).isTrue();
            assertThat(trace.events(TraceEvent.StallDetected.class)).extracting(TraceEvent.StallDetected::detector)
                    .contains("edit_revert");
        }
    }

    @Test
    void discardRestoresTheCommittedProject() {
        try (GitWorkspace ws = new GitWorkspace()) {
            assertThat(ws.testsPass()).isFalse();
            ws.files();
            ws.git("rm", "-q", "README.md");
            ws.discard();
            assertThat(ws.files()).isEqualTo(GitWorkspace.PROJECT);
            assertThat(ws.snapshot().path("branch").asText()).isEqualTo(GitWorkspace.BRANCH);
        }
    }
}
