package dev.rein.trace;

import dev.rein.ReinException;
import dev.rein.internal.text.FileProblems;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes each event as one JSON line (UTF-8), flushed per line so a crash or Ctrl-C loses nothing
 * already recorded. Appends when the file exists (a resumed run continues its trace). Listeners of
 * one file in one JVM (several runs through {@link #to}) write one whole line at a time, so lines
 * never interleave; a file whose last line was cut off (a process killed mid-write) gets a newline
 * before the first appended event, so that line stays the only one lost.
 */
public final class JsonlTraceListener implements RunListener {
    /** One lock per trace file, shared by every listener of this JVM that writes to it. */
    private static final ConcurrentHashMap<Path, ReentrantLock> FILES = new ConcurrentHashMap<>();

    private final Path file;
    private final ReentrantLock lock;
    private final OutputStream out;

    public JsonlTraceListener(Path file) {
        this.file = file;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            this.lock = FILES.computeIfAbsent(file.toAbsolutePath().normalize(), f -> new ReentrantLock());
            lock.lock();
            try {
                this.out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                        StandardOpenOption.WRITE);
                if (endsMidLine(file)) {
                    out.write(System.lineSeparator().getBytes(StandardCharsets.UTF_8));
                }
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            throw new ReinException("cannot open trace file " + file + ": " + why(file, e), e);
        }
    }

    /** What went wrong, in words; a directory given as the file gets the name of a file in it. */
    private static String why(Path file, IOException e) {
        return Files.isDirectory(file) ? "it is a directory; name a file in it, e.g. " + file.resolve("trace.jsonl")
                : FileProblems.why(e);
    }

    /** A factory writing every run's trace to the same file. */
    public static RunListenerFactory to(Path file) {
        return new ToFile(file);
    }

    /**
     * Whether {@code factory} is one {@link #to} made for {@code file} (the same file under another
     * spelling too), e.g. so that a replay is not appended to the trace it replays.
     */
    public static boolean writesTo(RunListenerFactory factory, Path file) {
        if (!(factory instanceof ToFile to)) {
            return false;
        }
        try {
            if (Files.exists(to.file()) && Files.exists(file)) {
                return Files.isSameFile(to.file(), file);
            }
        } catch (IOException e) { // cannot tell by the file system: compare the paths
        }
        return to.file().toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize());
    }

    /** What {@link #to} returns: its file can be told, which a lambda's cannot. */
    private record ToFile(Path file) implements RunListenerFactory {
        @Override
        public RunListener create(String runId) {
            return new JsonlTraceListener(file);
        }
    }

    private static boolean endsMidLine(Path file) throws IOException {
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ)) {
            if (channel.size() == 0) {
                return false;
            }
            ByteBuffer last = ByteBuffer.allocate(1);
            channel.position(channel.size() - 1).read(last);
            return last.get(0) != '\n';
        }
    }

    @Override
    public void onEvent(TraceEvent event) {
        // Encoded before writing, so the line goes out whole. Half a surrogate pair (a tool that cut a
        // string by UTF-16 index) has no UTF-8 form: written as its JSON escape, it reads back as it was.
        byte[] line = (Json.escapeHalfPairs(Json.write(event)) + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
        try {
            lock.lock();
            try {
                out.write(line);
                out.flush();
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace file " + file, e);
        }
    }

    @Override
    public void close() {
        try {
            lock.lock();
            try {
                out.close();
            } finally {
                lock.unlock();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close trace file " + file, e);
        }
    }
}
