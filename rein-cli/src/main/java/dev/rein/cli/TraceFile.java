package dev.rein.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Checks a {@code --trace} path before anything runs, so a run is never lost to an unwritable trace. */
final class TraceFile {
    private TraceFile() {}

    /**
     * Passes when {@code file} can be appended to, or created (with its missing parent directories).
     * Creates nothing.
     *
     * @throws UsageException saying why the path cannot be written
     */
    static void checkWritable(Path file) {
        checkWritable(file, "trace file", "run.jsonl");
    }

    /** Like {@link #checkWritable(Path)} for any output file, named {@code what} in messages. */
    static void checkWritable(Path file, String what, String example) {
        if (file.toString().isBlank()) {
            throw new UsageException("the " + what + " name is empty; give a file path such as " + example);
        }
        Path path = file.toAbsolutePath().normalize();
        String prefix = "cannot write the " + what + " " + file + ": ";
        if (Files.isDirectory(path)) {
            throw new UsageException(prefix + "it is a directory; give a file path such as " + example);
        }
        if (Files.exists(path)) {
            if (!Files.isRegularFile(path)) {
                throw new UsageException(prefix + "it is not a regular file but a device, pipe or terminal; give a file path such as "
                        + example);
            }
            if (!Files.isWritable(path)) {
                throw new UsageException(prefix + "the file is not writable");
            }
            return;
        }
        Path existing = path.getParent();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing)) {
            throw new UsageException(prefix + (existing == null ? "no parent directory exists" : existing + " is not a directory"));
        }
        if (!Files.isWritable(existing)) {
            throw new UsageException(prefix + "the directory " + existing + " is not writable");
        }
    }

    /** Empties {@code file} (creating it), so it holds the trace of one run; called once nothing else can fail first. */
    static void startFresh(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (java.io.IOException e) {
            // the JDK's message is often the path alone
            throw new UsageException("cannot write the trace file " + file + ": its folder " + parent + " cannot be made ("
                    + dev.rein.internal.text.FileProblems.why(e) + "); give a path in a folder you can write, such as trace.jsonl");
        }
        try {
            Files.write(file, new byte[0]);
        } catch (java.io.IOException e) {
            throw new UsageException("cannot write the trace file " + file + ": " + dev.rein.internal.text.FileProblems.why(e));
        }
    }
}
