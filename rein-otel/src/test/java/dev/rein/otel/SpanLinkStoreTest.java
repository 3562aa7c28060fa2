package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void aLinkFileWrittenBeforeTheFlagsWereKeptIsRecalledSampled() throws Exception {
        Files.writeString(dir.resolve("old-run"), SPAN.getTraceId() + " " + SPAN.getSpanId());
        assertThat(SpanLinkStore.directory(dir).recall("old-run").orElseThrow().isSampled()).isTrue();
    }

    @Test
    void runIdsThatAreNotFileNamesAndDamagedFilesAreIgnored() throws Exception {
        SpanLinkStore store = SpanLinkStore.directory(dir);
        store.remember("../escape", SPAN);
        assertThat(Files.exists(dir.resolveSibling("escape"))).isFalse();
        Files.writeString(dir.resolve("broken"), "not a span");
        assertThat(store.recall("broken")).isEmpty();
        assertThat(store.recall("../escape")).isEmpty();
    }

    @Test
    void inMemoryRemembersTheLatestSegment() {
        SpanLinkStore store = SpanLinkStore.inMemory();
        store.remember("r1", SpanContext.getInvalid());
        store.remember("r1", SPAN);
        assertThat(store.recall("r1")).contains(SPAN);
    }
}
