package dev.rein.examples.code;

import dev.rein.examples.ExampleSetupException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a local program with a time limit and an output limit, in a given directory and a small,
 * fixed environment (no inherited variables, so the user's git or shell configuration never leaks
 * in). A program that overruns is killed with all its descendants.
 */
final class ProcessRunner {
    /** What a program did. {@code output} is stdout and stderr together, cut at the output limit. */
    record Outcome(int exitCode, String output, boolean timedOut, int omittedChars) {
        boolean ok() {
            return !timedOut && exitCode == 0;
        }
    }

    private ProcessRunner() {}

    static Outcome run(List<String> command, Path dir, Duration timeout, int maxOutputChars) throws InterruptedException {
        // No input: a program that waits for stdin sees end-of-file at once instead of hanging.
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        env.put("HOME", dir.toString());
        env.put("LANG", "C.UTF-8");
        env.put("LC_ALL", "C.UTF-8");
        env.put("GIT_CONFIG_NOSYSTEM", "1");
        env.put("GIT_CONFIG_GLOBAL", "/dev/null");
        env.put("GIT_TERMINAL_PROMPT", "0");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            // The JDK's "Cannot run program ... (No such file or directory) " ends in a space: strip it before the stop.
            throw new ExampleSetupException("cannot run '" + command.get(0) + "': " + String.valueOf(e.getMessage()).strip()
                    + ". The code-change example needs git and a POSIX shell on the PATH.", e);
        }
        OutputCollector collector = new OutputCollector(process.getInputStream(), maxOutputChars);
        Thread reader = Thread.ofPlatform().daemon().name("rein-process-output").start(collector);
        try {
            boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                kill(process);
            }
            reader.join(Duration.ofSeconds(2));
            return new Outcome(finished ? process.exitValue() : -1, collector.text(), !finished, collector.omitted());
        } catch (InterruptedException e) {
            kill(process);
            throw e;
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Reads a program's output, keeping at most a limit of characters and counting the rest. */
    private static final class OutputCollector implements Runnable {
        private final InputStream in;
        private final int max;
        private final StringBuilder kept = new StringBuilder();
        private int omitted;

        OutputCollector(InputStream in, int max) {
            this.in = in;
            this.max = max;
        }

        @Override
        public void run() {
            // A reader, not raw bytes: a multi-byte character split across two reads stays whole.
            try (Reader input = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                char[] buffer = new char[8192];
                int n;
                while ((n = input.read(buffer)) >= 0) {
                    append(new String(buffer, 0, n));
                }
            } catch (IOException e) {
                append("\n(reading the output failed: " + e.getMessage() + ")");
            }
        }

        private synchronized void append(String chunk) {
            int room = max - kept.length();
            if (room >= chunk.length()) {
                kept.append(chunk);
            } else {
                kept.append(chunk, 0, Math.max(0, room));
                omitted += chunk.length() - Math.max(0, room);
            }
        }

        synchronized String text() {
            return kept.toString();
        }

        synchronized int omitted() {
            return omitted;
        }
    }
}
