package dev.rein.trace;

import dev.rein.ReinException;
import dev.rein.json.Json;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes each event as one JSON line (UTF-8), flushed per line so a crash or Ctrl-C loses nothing
 * already recorded. Appends when the file exists (a resumed run continues its trace).
 */
public final class JsonlTraceListener implements RunListener {
    private final Path file;
    private final BufferedWriter writer;

    public JsonlTraceListener(Path file) {
        this.file = file;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new ReinException("cannot open trace file " + file + ": " + e.getMessage(), e);
        }
    }

    /** A factory writing every run's trace to the same file. */
    public static RunListenerFactory to(Path file) {
        return runId -> new JsonlTraceListener(file);
    }

    @Override
    public synchronized void onEvent(TraceEvent event) {
        try {
            writer.write(Json.write(event));
            writer.newLine();
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace file " + file, e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close trace file " + file, e);
        }
    }
}
