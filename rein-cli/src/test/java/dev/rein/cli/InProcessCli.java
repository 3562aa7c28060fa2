package dev.rein.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs the CLI inside the test JVM with captured UTF-8 streams, a given environment and model factory. */
final class InProcessCli {
    /** What one invocation produced. */
    record Outcome(int exitCode, String stdout, String stderr) {
        List<String> stderrLines() {
            return stderr.lines().toList();
        }
    }

    private final Map<String, String> env = new HashMap<>(Map.of("REIN_HOME", scratchHome()));
    private ModelFactory models = (name, env) -> {
        throw new AssertionError("no model factory set for this test");
    };
    private Terminal terminal = Terminal.NONE;
    private byte[] input = new byte[0];
    private final AtomicInteger modelsCreated = new AtomicInteger();

    /** One directory per test JVM holds every CLI's home; it is removed when the JVM exits. */
    private static final java.nio.file.Path SCRATCH_ROOT = scratchRoot();

    /** Each CLI under test stores its runs in a fresh temporary directory, never in the working tree. */
    private static String scratchHome() {
        try {
            return java.nio.file.Files.createTempDirectory(SCRATCH_ROOT, "home-").toString();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static java.nio.file.Path scratchRoot() {
        try {
            java.nio.file.Path root = java.nio.file.Files.createTempDirectory("rein-cli-test-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root)));
            return root;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void deleteTree(java.nio.file.Path root) {
        try (var paths = java.nio.file.Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            // best effort at exit: a leftover directory in the temp folder is harmless
        }
    }

    /** The run store directory of this CLI. */
    java.nio.file.Path home() {
        return java.nio.file.Path.of(env.get("REIN_HOME"));
    }

    InProcessCli env(String name, String value) {
        env.put(name, value);
        return this;
    }

    InProcessCli models(ModelFactory factory) {
        this.models = factory;
        return this;
    }

    /** What the CLI reads from standard input (e.g. answers to inline approval questions). */
    InProcessCli input(String text) {
        this.input = text.getBytes(StandardCharsets.UTF_8);
        return this;
    }

    InProcessCli terminal(Terminal terminal) {
        this.terminal = terminal;
        return this;
    }

    /** How many times the model factory was asked for a model. */
    int modelsCreated() {
        return modelsCreated.get();
    }

    Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ModelFactory counting = (name, e) -> {
            modelsCreated.incrementAndGet();
            return models.create(name, e);
        };
        CliEnvironment environment = new CliEnvironment(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), env, terminal, counting, false,
                new java.io.ByteArrayInputStream(input));
        int code = Rein.execute(args, environment);
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
