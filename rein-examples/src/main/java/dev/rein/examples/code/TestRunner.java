package dev.rein.examples.code;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs the project's tests: every {@code tests/test_*.sh} with {@code sh}, each within a time
 * limit, output capped. Deterministic and local: no network, no build tool.
 */
final class TestRunner {
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    static final int MAX_OUTPUT_CHARS = 3_000;

    /** The outcome of one test run. */
    record Report(boolean passed, boolean timedOut, String output) {}

    private TestRunner() {}

    static Report run(Path dir, Duration timeout) throws InterruptedException {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(dir.resolve("tests"))) {
            scripts = files.filter(p -> p.getFileName().toString().matches("test_.*\\.sh")).sorted().toList();
        } catch (IOException e) {
            return new Report(false, false, "no tests/ directory: " + e.getMessage());
        }
        StringBuilder output = new StringBuilder();
        boolean passed = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Path script : scripts) {
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            String name = dir.relativize(script).toString();
            if (left.isNegative() || left.isZero()) {
                return new Report(false, true, output + "(stopped before " + name + ": the test run's time limit was reached)");
            }
            ProcessRunner.Outcome outcome = ProcessRunner.run(new ArrayList<>(List.of("sh", name)), dir, left, MAX_OUTPUT_CHARS);
            output.append("$ sh ").append(name).append('\n').append(outcome.output());
            if (outcome.omittedChars() > 0) {
                output.append("(").append(outcome.omittedChars()).append(" more characters of output were cut)\n");
            }
            if (outcome.timedOut()) {
                output.append("(").append(name).append(" was killed: the test run's time limit of ").append(timeout.toSeconds())
                        .append(" s was reached)\n");
                return new Report(false, true, output.toString());
            }
            passed &= outcome.exitCode() == 0;
        }
        if (scripts.isEmpty()) {
            return new Report(false, false, "no test scripts found under tests/");
        }
        return new Report(passed, false, output.toString());
    }
}
