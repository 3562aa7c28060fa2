package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpanLinkStoreTest {
    private static final SpanContext SPAN = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
            TraceFlags.getSampled(), TraceState.getDefault());

    @TempDir
    Path dir;

    @Test
    void aDirectoryKeepsTheLinkForAnotherProcess() {
        SpanLinkStore.directory(dir.resolve("links")).remember("run-20261201-abc", SPAN);

        SpanContext recalled = SpanLinkStore.directory(dir.resolve("links")).recall("run-20261201-abc").orElseThrow();
        assertThat(recalled.getTraceId()).isEqualTo(SPAN.getTraceId());
        assertThat(recalled.getSpanId()).isEqualTo(SPAN.getSpanId());
        assertThat(SpanLinkStore.directory(dir.resolve("links")).recall("another-run")).isEmpty();
    }

    @Test
    void anUnsampledSegmentIsRecalledUnsampled() {
        // A link carries the linked span's trace flags: one to a segment that was not sampled must not claim it was.
        SpanContext unsampled = SpanContext.create("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331",
                TraceFlags.getDefault(), TraceState.getDefault());
        SpanLinkStore.directory(dir).remember("run-unsampled", unsampled);
        SpanLinkStore.directory(dir).remember("run-sampled", SPAN);

        assertThat(SpanLinkStore.directory(dir).recall("run-unsampled").orElseThrow().isSampled()).isFalse();
        assertThat(SpanLinkStore.directory(dir).recall("run-sampled").orElseThrow().isSampled()).isTrue();
    }

    /**
     * An OTLP link carries the linked span's trace_state (W3C tracestate) beside its ids and flags, and a link
     * kept in memory has it: one kept in a directory for another process (rein resume) must have it too. A
     * segment has one when its trace came with a tracestate (a caller's TRACESTATE, a request's header). Before,
     * the directory kept the ids and flags only, so the resumed run's link had an empty trace_state.
     */
    @Test
    void aDirectoryKeepsTheLinkedSpansTraceState() {
        TraceState state = TraceState.builder().put("congo", "t61rcWkgMzE").put("rojo", "00f067aa0ba902b7")
                .put("vendor@tenant", "a value with spaces").build();
        SpanContext withState = SpanContext.create(SPAN.getTraceId(), SPAN.getSpanId(), TraceFlags.getSampled(), state);
        SpanLinkStore.directory(dir).remember("run-with-state", withState);
        SpanLinkStore.directory(dir).remember("run-without", SPAN);

        SpanContext recalled = SpanLinkStore.directory(dir).recall("run-with-state").orElseThrow();
        assertThat(recalled.getTraceState().asMap()).containsExactlyEntriesOf(state.asMap());
        assertThat(recalled.getSpanId()).isEqualTo(SPAN.getSpanId());
        assertThat(recalled.isSampled()).isTrue();
        assertThat(SpanLinkStore.directory(dir).recall("run-without").orElseThrow().getTraceState().isEmpty()).isTrue();
        assertThat(SpanLinkStore.inMemory()).satisfies(memory -> {
            memory.remember("r", withState);
            assertThat(memory.recall("r").orElseThrow().getTraceState()).isEqualTo(recalled.getTraceState());
        });
    }

    /** A file with a tracestate line the W3C rules refuse (a damaged file) still links, without the state. */
    @Test
    void aTraceStateLineThatIsNotValidIsLeftOutAndTheLinkKept() throws Exception {
        Files.writeString(dir.resolve("run-bad-state"), SPAN.getTraceId() + " " + SPAN.getSpanId() + " 01\nnot a tracestate\n");
        SpanContext recalled = SpanLinkStore.directory(dir).recall("run-bad-state").orElseThrow();
        assertThat(recalled.getSpanId()).isEqualTo(SPAN.getSpanId());
        assertThat(recalled.getTraceState().isEmpty()).isTrue();
    }

    /**
     * A link that cannot be kept (its file's place is taken by a directory, say) fails, which the telemetry logs;
     * the temporary file it was written to first is not left behind. Before, each such segment left a
     * {@code .link…tmp} file in the directory for good.
     */
    @Test
    void aLinkThatCannotBeKeptLeavesNoTemporaryFileBehind() throws Exception {
        Files.createDirectories(dir.resolve("run-blocked").resolve("inside"));
        assertThatThrownBy(() -> SpanLinkStore.directory(dir).remember("run-blocked", SPAN))
                .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("run-blocked");
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("run-blocked");
        }
    }

    /**
     * The failure the telemetry logs (its warning: "could not remember the span of run …: {message}") says why,
     * not only where. Before, its message named the run and the directory again and left out what the file system said.
     */
    @Test
    void aLinkThatCannotBeKeptSaysWhy() throws Exception {
        Path file = Files.writeString(dir.resolve("state"), "a file");
        assertThatThrownBy(() -> SpanLinkStore.directory(file.resolve("otel-links")).remember("run-x", SPAN))
                .isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessage("the link file " + file.resolve("otel-links").resolve("run-x") + " could not be written: " + file
                        + " is a file, not a directory");
        Files.createDirectories(dir.resolve("links").resolve("run-blocked").resolve("inside"));
        assertThatThrownBy(() -> SpanLinkStore.directory(dir.resolve("links")).remember("run-blocked", SPAN))
                .hasMessageStartingWith("the link file " + dir.resolve("links").resolve("run-blocked") + " could not be written: ")
                .hasMessageNotContaining(".tmp");
    }

    /**
     * A move onto the link's place refused without a reason (a rename's EACCES: the JDK's AccessDeniedException names
     * the temporary file and has no reason) said "permission denied for …/.link123.tmp", a file already deleted.
     */
    @Test
    void aRefusedMoveWithoutAReasonDoesNotNameTheDeletedTemporaryFile() {
        Path tmp = dir.resolve(".link123.tmp");
        Path link = dir.resolve("run-x");
        assertThat(SpanLinkStore.why(new java.nio.file.AccessDeniedException(tmp.toString(), link.toString(), null), tmp))
                .isEqualTo("permission denied (moving the written link into its place)");
        assertThat(SpanLinkStore.why(new java.nio.file.FileSystemException(tmp.toString(), link.toString(), null), tmp))
                .isEqualTo("the file system refused to move the written link into its place (FileSystemException)");
        assertThat(SpanLinkStore.why(new java.nio.file.FileSystemException(tmp.toString(), link.toString(), "Read-only file system"), tmp))
                .isEqualTo("Read-only file system");
    }

    @Test
    void aLinkFileWrittenBeforeTheFlagsWereKeptIsRecalledSampled() throws Exception {
        Files.writeString(dir.resolve("old-run"), SPAN.getTraceId() + " " + SPAN.getSpanId());
        assertThat(SpanLinkStore.directory(dir).recall("old-run").orElseThrow().isSampled()).isTrue();
    }

    @Test
    void aDamagedFileIsIgnored() throws Exception {
        Files.writeString(dir.resolve("broken"), "not a span");
        assertThat(SpanLinkStore.directory(dir).recall("broken")).isEmpty();
    }

    /**
     * Every id a run can have (rein-core refuses only half a surrogate pair) keeps its link in a file of its own in the
     * directory. Before, "." and ".." were taken as file names (the directory itself and its parent: the move failed
     * and was logged) and any other id with a character outside [A-Za-z0-9._-] or over 200 characters (a Japanese id,
     * "tenant/42") was skipped without a word, so its resumed run's span had no link.
     */
    @Test
    void everyRunIdKeepsItsLinkInAFileOfItsOwnInTheDirectory() throws Exception {
        Path links = Files.createDirectories(dir.resolve("links"));
        SpanLinkStore store = SpanLinkStore.directory(links);
        List<String> ids = List.of(".", "..", "../escape", "tenant/42", "注文-123", "a b", "x".repeat(500), "%2E", "Run-A", "run-a",
                "run.1", "CON");
        for (int i = 0; i < ids.size(); i++) {
            store.remember(ids.get(i), span(i));
        }
        for (int i = 0; i < ids.size(); i++) {
            assertThat(SpanLinkStore.directory(links).recall(ids.get(i)).map(SpanContext::getSpanId)).as(ids.get(i))
                    .contains(span(i).getSpanId());
        }
        try (var files = Files.list(links)) {
            List<String> names = files.map(f -> f.getFileName().toString()).toList();
            assertThat(names).hasSize(ids.size())
                    .allSatisfy(name -> assertThat(name.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255))
                    .noneMatch(name -> name.startsWith("."));
            // distinct on a file system that ignores case too (macOS, Windows)
            assertThat(names.stream().map(name -> name.toLowerCase(Locale.ROOT)).distinct()).hasSize(ids.size());
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("links");
        }
    }

    @Test
    void aLinkKeptUnderTheRunIdItselfBeforeIsStillRecalled() throws Exception {
        // the file name was the id itself when it was made of [A-Za-z0-9._-]: a run paused then resumes after an upgrade
        Files.writeString(dir.resolve("run.1"), SPAN.getTraceId() + " " + SPAN.getSpanId() + " 01");
        Files.writeString(dir.resolve("Run-B"), SPAN.getTraceId() + " " + SPAN.getSpanId() + " 01");
        assertThat(SpanLinkStore.directory(dir).recall("run.1").map(SpanContext::getSpanId)).contains(SPAN.getSpanId());
        assertThat(SpanLinkStore.directory(dir).recall("Run-B").map(SpanContext::getSpanId)).contains(SPAN.getSpanId());
    }

    @Test
    void anIdNoFileCanBeNamedAfterIsRefusedSayingWhy() {
        SpanLinkStore store = SpanLinkStore.directory(dir);
        assertThatThrownBy(() -> store.remember("run_\ud83d", SPAN)).isInstanceOf(ReinException.class)
                .hasMessageContaining("run id 'run_\\ud83d'").hasMessageContaining("half a surrogate pair");
        assertThatThrownBy(() -> store.remember(null, SPAN)).isInstanceOf(ReinException.class)
                .hasMessageContaining("no run id (null)");
        assertThat(store.recall("run_\ud83d")).isEmpty();
    }

    private static SpanContext span(int i) {
        return SpanContext.create("0af7651916cd43dd8448eb211c80319c", String.format("%016x", i + 1), TraceFlags.getSampled(),
                TraceState.getDefault());
    }

    @Test
    void inMemoryRemembersTheLatestSegment() {
        SpanLinkStore store = SpanLinkStore.inMemory();
        store.remember("r1", SpanContext.getInvalid());
        store.remember("r1", SPAN);
        assertThat(store.recall("r1")).contains(SPAN);
    }
}
