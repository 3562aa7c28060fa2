package dev.rein.otel;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Remembers the span of each run's latest segment, so the span of a resumed run can link to the
 * one it continues. In memory by default (a run paused and resumed in the same process);
 * {@link #directory} keeps the links across processes (the CLI's {@code rein resume}).
 */
public interface SpanLinkStore {
    void remember(String runId, SpanContext span);

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

    /** One small file per run in {@code dir} ("traceId spanId traceFlags"), created when first needed. */
    static SpanLinkStore directory(Path dir) {
        ReinTelemetry.given(dir, "SpanLinkStore.directory", "pass the directory to keep the links in, e.g. Path.of(\"otel-links\")");
        Pattern safe = Pattern.compile("[A-Za-z0-9._-]{1,200}");
        return new SpanLinkStore() {
            @Override
            public void remember(String runId, SpanContext span) {
                if (!safe.matcher(runId).matches() || !span.isValid()) {
                    return;
                }
                try {
                    Files.createDirectories(dir);
                    Path tmp = Files.createTempFile(dir, ".link", ".tmp");
                    // the flags too: a link to a segment that was not sampled must not say it was
                    Files.writeString(tmp, span.getTraceId() + " " + span.getSpanId() + " " + span.getTraceFlags().asHex(),
                            StandardCharsets.UTF_8);
                    Files.move(tmp, dir.resolve(runId), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException e) {
                    throw new UncheckedIOException("could not remember the span of run " + runId + " in " + dir, e);
                }
            }

            @Override
            public Optional<SpanContext> recall(String runId) {
                Path file = dir.resolve(runId);
                if (!safe.matcher(runId).matches() || !Files.isRegularFile(file)) {
                    return Optional.empty();
                }
                try {
                    String[] ids = Files.readString(file, StandardCharsets.UTF_8).strip().split(" ");
                    // a file of two fields was written before the flags were kept: its segment is taken as sampled, as it was then
                    TraceFlags flags = ids.length == 3 && ids[2].matches("[0-9a-f]{2}")
                            ? TraceFlags.fromHex(ids[2], 0) : TraceFlags.getSampled();
                    SpanContext span = ids.length != 2 && ids.length != 3 ? SpanContext.getInvalid()
                            : SpanContext.createFromRemoteParent(ids[0], ids[1], flags, TraceState.getDefault());
                    return span.isValid() ? Optional.of(span) : Optional.empty();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        };
    }
}
