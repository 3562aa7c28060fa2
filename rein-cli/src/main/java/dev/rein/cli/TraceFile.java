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

    /**
     * Refuses an output file, {@code file} given with {@code option}, that is a file Rein keeps in {@code home} (the run
     * store, the runs' settings, ...) or one of the files the same command reads ({@code read}: option to path, a null
     * path skipped), before anything is written: writing there destroyed what was in it.
     *
     * @param what    what the file holds, for the message: "trace", "report"
     * @param example a file name to give instead, such as run.jsonl
     */
    static void requireOwnFile(Path file, String option, CliHome home, java.util.Map<String, Path> read, String what, String example) {
        String instead = "; give the " + what + " a file of its own, such as " + example;
        String kept = home.kept(file);
        if (kept != null) {
            // a name not yet taken in a kept folder destroys nothing yet, but the folder's files are Rein's to name and write
            throw new UsageException(option + " " + file + " is " + kept + " (the run store and what goes with the stored runs)"
                    + (kept.startsWith("inside") ? ", where rein names and writes files of its own" : ": writing the " + what
                    + " there would destroy it") + instead);
        }
        for (java.util.Map.Entry<String, Path> input : read.entrySet()) {
            if (input.getValue() != null && sameFile(file, input.getValue())) {
                throw new UsageException(option + " " + file + " is the " + input.getKey() + " file too: writing the " + what
                        + " there would destroy it" + instead);
            }
        }
    }

    /** Whether {@code a} and {@code b} name one file: the same path, or the same file through a link. */
    private static boolean sameFile(Path a, Path b) {
        if (!java.util.Collections.disjoint(CliHome.spellings(a), CliHome.spellings(b))) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b); // a hard link too
        } catch (java.io.IOException e) {
            return false;
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
