package dev.rein.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Hashing;
import dev.rein.json.Json;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolOutput;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputTruncationTest {
    private final RecordingTracer tracer = new RecordingTracer();

    private ToolResult run(String output, int limit, OutputStore store) throws InterruptedException {
        return run(Tool.builder("dump").description("dumps").handler((a, c) -> output).build(), limit, store);
    }

    private ToolResult run(Tool tool, int limit, OutputStore store) throws InterruptedException {
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(tool))
                .outputStage(new OutputTruncation(limit, store, tracer)).build();
        return executor.execute(new ToolCall("call_1", tool.name(), Json.object(), 0), ToolContext.standalone("call_1"));
    }

    @Test
    void aLongOutputIsCutWithANoticeAndKeptWholeInTheStore() throws Exception {
        String output = "x".repeat(20_000);
        InMemoryOutputStore store = new InMemoryOutputStore();
        ToolResult result = run(output, 4_000, store);

        assertThat(result.isError()).isFalse();
        assertThat(result.content()).startsWith("x".repeat(4_000) + "\n\n[rein] Output truncated");
        assertThat(result.content()).contains("first 4,000 of 20,000 characters").contains("16,000 characters were omitted")
                .contains("narrow the request").contains("sha256:" + Hashing.sha256(output).substring(0, 16));
        assertThat(store.get(Hashing.sha256(output))).contains(output);
        assertThat(tracer.events(TraceEvent.OutputTruncated.class)).singleElement().satisfies(e -> {
            assertThat(e.callId()).isEqualTo("call_1");
            assertThat(e.tool()).isEqualTo("dump");
            assertThat(e.totalChars()).isEqualTo(20_000);
            assertThat(e.shownChars()).isEqualTo(4_000);
            assertThat(e.sha256()).isEqualTo(Hashing.sha256(output));
            assertThat(e.stored()).isTrue();
            assertThat(e.location()).isEqualTo("memory");
        });
    }

    @Test
    void aNegativeLimitOrAMissingStoreOrTracerIsRefusedWhenTheStageIsMade() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        // a limit of -1 was taken, and every output longer than it then failed its call (the handler had run) with
        // "could not be run: StringIndexOutOfBoundsException"
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OutputTruncation(-1, store, tracer))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessageContaining("limit").hasMessageContaining("-1").hasMessageContaining("0 turns truncation off");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OutputTruncation(4_000, null, tracer))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("store").hasMessageContaining("OutputStore.inMemory()");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new OutputTruncation(4_000, store, null))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("tracer");
    }

    @Test
    void shortOutputsPassUntouchedAndZeroTurnsTruncationOff() throws Exception {
        InMemoryOutputStore store = new InMemoryOutputStore();
        assertThat(run("short", 4_000, store).content()).isEqualTo("short");
        assertThat(run("y".repeat(10_000), 0, store).content()).hasSize(10_000);
        assertThat(store.size()).isZero();
        assertThat(tracer.events).isEmpty();
    }

    @Test
    void theCutNeverSplitsACharacterAndCountsCodePoints() throws Exception {
        String output = "配送状況😀".repeat(1_000);
        ToolResult result = run(output, 10, new InMemoryOutputStore());
        assertThat(result.content()).startsWith("配送状況😀配送状況😀\n\n[rein]");
        assertThat(result.content()).contains("first 10 of 5,000 characters");
    }

    @Test
    void errorsAreTruncatedTooAndKeepTheirFlag() throws Exception {
        Tool failing = Tool.builder("dump").description("fails").handler((a, c) -> ToolOutput.error("E".repeat(9_000))).build();
        ToolResult result = run(failing, 100, new InMemoryOutputStore());
        assertThat(result.isError()).isTrue();
        assertThat(result.content()).startsWith("E".repeat(100) + "\n\n[rein] Output truncated");
    }

    @Test
    void whenTheStoreFailsTheOutputIsStillCutAndTheTraceSaysSo() throws Exception {
        OutputStore broken = new dev.rein.testkit.BrokenOutputStore();
        ToolResult result = run("z".repeat(5_000), 1_000, broken);
        assertThat(result.content()).contains("4,000 characters were omitted").doesNotContain("out of band");
        assertThat(tracer.events(TraceEvent.OutputTruncated.class)).singleElement()
                .satisfies(e -> assertThat(e.stored()).isFalse()).satisfies(e -> assertThat(e.location()).contains("disk full"));
    }

    @Test
    void theDirectoryStoreKeepsUtf8FilesByHash(@TempDir Path dir) throws Exception {
        OutputStore store = OutputStore.directory(dir);
        String text = "注文番号 A-100 の配送状況: 出荷済み\n".repeat(500);
        String hash = store.put(text);
        assertThat(store.put(text)).isEqualTo(hash);
        assertThat(store.get(hash)).contains(text);
        assertThat(Path.of(store.location(hash))).exists().hasParent(dir.toAbsolutePath().resolve(hash.substring(0, 2)));
        assertThat(Files.readString(Path.of(store.location(hash)))).isEqualTo(text);
        assertThat(store.get("0".repeat(64))).isEmpty();
        assertThat(store.get("../../etc/passwd")).isEmpty();
        try (var files = Files.walk(dir)) {
            assertThat(files.filter(p -> p.toString().endsWith(".tmp"))).isEmpty();
        }
    }

    /** Rein's own note cut to the limit is still Rein's words (its own stage, not an application's change of content). */
    @Test
    void reinsOwnNoteCutToTheLimitStaysReins() throws Exception {
        Tool chart = Tool.builder("chart").description("draws").handler((a, c) -> ToolOutput.text("").withUserContent("chart")).build();
        ToolResult result = run(chart, 10, new InMemoryOutputStore());

        assertThat(result.content()).startsWith("(the tool ").contains("[rein] Output truncated");
        assertThat(result.reinMessage()).isTrue();
    }

    /**
     * Both parts cut at once (Rein's note for the model, the tool's long part for the person): one copy of the result with
     * both cuts, Rein's mark kept, an output_truncated event for each. Pins the fold of the two copies into one (core45;
     * a refactoring, so this passed before too).
     */
    @Test
    void bothPartsCutInOneCopyKeepReinsMark() throws Exception {
        Tool chart = Tool.builder("chart").description("draws")
                .handler((a, c) -> ToolOutput.text("").withUserContent("a long chart for the person")).build();
        ToolResult result = run(chart, 10, new InMemoryOutputStore());

        assertThat(result.content()).startsWith("(the tool ").contains("[rein] Output truncated");
        assertThat(result.userContent()).startsWith("a long cha").contains("[rein] Cut: showing the first 10 of 27 characters.");
        assertThat(result.reinMessage()).isTrue();
        assertThat(tracer.events(TraceEvent.OutputTruncated.class)).hasSize(2);
    }

    public static final class Booking {
        @dev.rein.tool.ToolMethod(description = "Books a day.")
        public String book(@dev.rein.tool.ToolParam(name = "day", value = "the day") java.time.LocalDate day) {
            return "booked " + day;
        }
    }

    /**
     * Rein's refusal quoting the model's value fenced as data, cut inside the fence: the cut closes the fence before
     * Rein's notice, which would otherwise stand inside the open fence, read as data (rev109: the 500-character cap of a
     * quote does not keep a shorter limit from cutting inside it).
     */
    @Test
    void reinsMessageCutInsideAFenceHasTheFenceClosedBeforeTheNotice() throws Exception {
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(dev.rein.tool.AnnotatedTools.from(new Booking())))
                .outputStage(new OutputTruncation(300, new InMemoryOutputStore(), tracer)).build();
        ToolResult result = executor.execute(new ToolCall("call_1", "book", Json.object().put("day", "2026-02-30 " + "x".repeat(400)), 0),
                ToolContext.standalone("call_1"));

        String content = result.content();
        assertThat(result.reinMessage()).isTrue();
        assertThat(content).contains("<untrusted_data source=\"argument reader\"").contains("[rein] Output truncated");
        String beforeNotice = content.substring(0, content.indexOf("[rein] Output truncated"));
        assertThat(beforeNotice.lastIndexOf("</untrusted_data>")).isGreaterThan(beforeNotice.lastIndexOf("<untrusted_data "));
    }

    /** A cut inside the fence's opening tag leaves the partial tag out rather than closing a fence never opened. */
    @Test
    void aCutInsideTheOpeningTagLeavesThePartialTagOut() {
        String text = "Rein says: <untrusted_data source=\"x\" note=\"n\">\nquoted\n</untrusted_data>\nadvice";
        assertThat(OutputTruncation.closingOpenFence("Rein says: <untrusted_da", text)).isEqualTo("Rein says: ");
        assertThat(OutputTruncation.closingOpenFence("Rein says: <untrusted_data source=\"x\" note=\"n\">\nquo", text))
                .isEqualTo("Rein says: <untrusted_data source=\"x\" note=\"n\">\nquo\n</untrusted_data>");
        assertThat(OutputTruncation.closingOpenFence(text.substring(0, text.length() - 3), text)).isEqualTo(text.substring(0, text.length() - 3));
        assertThat(OutputTruncation.closingOpenFence("plain", "plain text")).isEqualTo("plain");
    }
}
