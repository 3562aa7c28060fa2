package dev.rein.otel;

import dev.rein.internal.text.FileProblems;
import dev.rein.otel.internal.LinkFiles;
import io.opentelemetry.api.trace.SpanContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Remembers the span of each run's latest segment, so the span of a resumed run can link to the
 * one it continues. In memory by default (a run paused and resumed in the same process);
 * {@link #directory} keeps the links across processes (the CLI's {@code rein resume}).
 */
public interface SpanLinkStore {
    /**
     * Keeps {@code span}, the {@code invoke_agent} span of run {@code runId}'s segment that just began, in
     * place of the one kept before: the next segment (a resumption, a reply, a cancellation) links to it.
     * The telemetry logs a failure here and goes on without the link.
     */
    void remember(String runId, SpanContext span);

    /** The span kept for run {@code runId}, the one its next segment links to; empty when none was kept. */
    Optional<SpanContext> recall(String runId);

    /** Keeps the links of the last 10,000 runs in memory. */
    static SpanLinkStore inMemory() {
        Map<String, SpanContext> links = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, SpanContext> eldest) {
                return size() > 10_000;
            }
        };
        return new SpanLinkStore() {
            @Override
            public synchronized void remember(String runId, SpanContext span) {
                links.put(runId, span);
            }

            @Override
            public synchronized Optional<SpanContext> recall(String runId) {
                return Optional.ofNullable(links.get(runId));
            }
        };
    }

    /**
     * One small file per run in {@code dir} ("traceId spanId traceFlags", and the span's W3C tracestate on a second
     * line when it has one, so the link carries it as one kept in memory does), created when first needed. Any run id
     * has a file of its own in {@code dir}: its name is the id's UTF-8 bytes with all but {@code [a-z0-9_-]} written
     * {@code %XX} ({@code .} is {@code %2E}, {@code 注文} is {@code %E6%B3%A8%E6%96%87}), and a long id's ends in a
     * hash of it, so no id names the directory, its parent or another run's file, also where file names ignore case.
     * A link kept before names were encoded (the id itself, when made of {@code [A-Za-z0-9._-]}) is still found.
     * An id that is null, empty or holds half a surrogate pair (which no run has) is refused with a
     * {@link dev.rein.ReinException} saying so.
     */
    static SpanLinkStore directory(Path dir) {
        ReinTelemetry.given(dir, "SpanLinkStore.directory", "pass the directory to keep the links in, e.g. Path.of(\"otel-links\")");
        return new SpanLinkStore() {
            @Override
            public void remember(String runId, SpanContext span) {
                Path file = dir.resolve(LinkFiles.name(runId));
                if (span == null || !span.isValid()) {
                    return; // no span to link to (telemetry off): nothing to keep
                }
                Path tmp = null;
                try {
                    Files.createDirectories(dir);
                    tmp = Files.createTempFile(dir, ".link", ".tmp");
                    // the flags too: a link to a segment that was not sampled must not say it was; and its tracestate
                    Files.writeString(tmp, LinkFiles.content(span), StandardCharsets.UTF_8);
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    // not left behind: every segment whose link fails would add one for good
                    deleteQuietly(tmp, e);
                    // the telemetry's warning names the run: "could not remember the span of run …: {this}"
                    throw new UncheckedIOException("the link file " + file + " could not be written: " + why(e, tmp), e);
                }
            }

            @Override
            public Optional<SpanContext> recall(String runId) {
                String legacy = LinkFiles.legacyName(runId);
                Path file;
                try {
                    file = dir.resolve(LinkFiles.name(runId));
                } catch (dev.rein.ReinException e) {
                    return Optional.empty(); // an id no run has: no link was kept for it
                }
                if (!Files.isRegularFile(file) && legacy != null) {
                    file = dir.resolve(legacy);
                }
                if (!Files.isRegularFile(file)) {
                    return Optional.empty();
                }
                try {
                    SpanContext span = LinkFiles.read(Files.readString(file, StandardCharsets.UTF_8));
                    return span.isValid() ? Optional.of(span) : Optional.empty();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        };
    }

    /**
     * What {@code e} says went wrong, for a message that names the link's file: the file system's reason alone when it
     * names the temporary file (the move onto the link's place), or the kind of refusal when it gives no reason, else {@link FileProblems#why}'s words.
     */
    static String why(IOException e, Path tmp) {
        if (e instanceof FileSystemException fs && tmp != null && tmp.toString().equals(fs.getFile())) {
            // the temporary file is deleted by now: naming it would send the reader after a file that is gone
            if (fs.getReason() != null) {
                return fs.getReason();
            }
            return e instanceof AccessDeniedException ? "permission denied (moving the written link into its place)"
                    : "the file system refused to move the written link into its place (" + e.getClass().getSimpleName() + ")";
        }
        return FileProblems.why(e);
    }

    /** Deletes {@code file} (null: none), a failure to do so added to {@code failure}, which is what gets reported. */
    private static void deleteQuietly(Path file, IOException failure) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}
