package dev.rein.cli;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code ./rein} as a real process, the way a user does, with the classpath Maven just built
 * ({@code REIN_CLASSPATH}, so the launcher does not build again inside the build).
 */
final class LauncherProcess {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path LAUNCHER = ROOT.resolve("rein");

    /** What a finished process produced. */
    record Outcome(int exitCode, String stdout, String stderr) {
        List<String> stderrLines() {
            return stderr.lines().toList();
        }
    }

    private final Map<String, String> env = new HashMap<>();
    private final Path dir;

    /** @param dir a scratch directory for the captured output */
    LauncherProcess(Path dir) {
        this.dir = dir;
        env.putAll(System.getenv());
        env.keySet().removeIf(name -> name.startsWith("ANTHROPIC_") || name.startsWith("OPENAI_") || name.startsWith("REIN_"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("REIN_CLASSPATH", classpath());
        // Runs are stored under the scratch directory, never in the working tree.
        env.put("REIN_HOME", dir.resolve("rein-home").toString());
    }

    LauncherProcess env(String name, String value) {
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        return this;
    }

    /** Starts {@code ./rein ARGS}; stdout and stderr go to files in the scratch directory. */
    Started start(String... args) throws IOException {
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command(args)).directory(ROOT.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().clear();
        builder.environment().putAll(env);
        return new Started(builder.start(), out, err);
    }

    /**
     * Starts {@code ./rein ARGS} on a pseudo-terminal made by util-linux {@code script}, so its stdin,
     * stdout and stderr are a terminal, as for a person at a shell; what the terminal shows is in
     * the stdout file. See {@link #terminalAvailable()}.
     */
    Started startOnTerminal(String... args) throws IOException {
        Path out = Files.createTempFile(dir, "terminal", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        StringBuilder command = new StringBuilder("exec ").append(LAUNCHER);
        for (String arg : args) {
            command.append(" '").append(arg.replace("'", "'\\''")).append('\'');
        }
        ProcessBuilder builder = new ProcessBuilder("script", "-qec", command.toString(), "/dev/null").directory(ROOT.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().clear();
        builder.environment().putAll(env);
        builder.environment().put("TERM", "xterm");
        return new Started(builder.start(), out, err);
    }

    /** True when util-linux {@code script} can give a process a pseudo-terminal. */
    static boolean terminalAvailable() {
        try {
            Process probe = new ProcessBuilder("script", "-qec", "true", "/dev/null").redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.PIPE).start();
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs {@code script} with {@code /bin/sh -c} in the repository root, with this environment:
     * for arguments Java strings cannot carry, such as bytes that are not UTF-8 ({@code $(printf '\\377')}).
     */
    Outcome shell(String script) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", script).directory(ROOT.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().clear();
        builder.environment().putAll(env);
        return new Started(builder.start(), out, err).await(Duration.ofSeconds(60));
    }

    Outcome run(String... args) throws IOException, InterruptedException {
        return start(args).await(Duration.ofSeconds(60));
    }

    /** A running process. */
    record Started(Process process, Path out, Path err) {
        Outcome await(Duration timeout) throws IOException, InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("./rein did not end within " + timeout + "; stderr:\n" + Files.readString(err));
            }
            return new Outcome(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        }

        /** Sends a signal to the JVM below this process (e.g. under {@code script}), as Ctrl-C at its terminal would. */
        void signalJava(String name) throws IOException, InterruptedException {
            long pid = process.descendants().filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                    .findFirst().orElseThrow(() -> new AssertionError("no java process below " + process.pid())).pid();
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new AssertionError("kill -" + name + " failed");
            }
        }

        /** Waits until the output file contains {@code text}. */
        void awaitOutput(String text, Duration timeout) throws IOException, InterruptedException {
            long end = System.nanoTime() + timeout.toNanos();
            while (!Files.readString(out, StandardCharsets.UTF_8).contains(text)) {
                if (System.nanoTime() > end || !process.isAlive()) {
                    throw new AssertionError("no '" + text + "' in the output:\n" + Files.readString(out, StandardCharsets.UTF_8));
                }
                Thread.sleep(50);
            }
        }

        /** Sends a signal: INT is what Ctrl-C in a terminal sends. The launcher exec's java, so this reaches the JVM. */
        void signal(String name) throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new AssertionError("kill -" + name + " failed");
            }
        }
    }

    /**
     * The command line. This JVM encodes arguments in its own locale's charset; when that is not
     * UTF-8 (LANG=C), non-ASCII arguments are handed over as bytes through the shell's printf so the
     * launcher still receives the exact UTF-8 a terminal would send.
     */
    private static List<String> command(String... args) {
        List<String> command = new ArrayList<>();
        if (Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8")).equals(StandardCharsets.UTF_8)) {
            command.add(LAUNCHER.toString());
            command.addAll(List.of(args));
            return command;
        }
        StringBuilder script = new StringBuilder("exec ./rein");
        for (String arg : args) {
            script.append(" \"$(printf '");
            for (byte b : arg.getBytes(StandardCharsets.UTF_8)) {
                int c = b & 0xff;
                script.append(Character.isLetterOrDigit(c) && c < 0x80 ? Character.toString(c) : String.format("\\%03o", c));
            }
            script.append("')\"");
        }
        return List.of("/bin/sh", "-c", script.toString());
    }

    /** The runtime classpath Maven wrote at process-classes, after this module's classes. */
    static String classpath() {
        try {
            Path module = Path.of("").toAbsolutePath();
            return module.resolve("target/classes") + ":" + Files.readString(module.resolve("target/classpath.txt")).strip();
        } catch (IOException e) {
            throw new AssertionError("target/classpath.txt is missing: run the tests through Maven (./test)", e);
        }
    }

    /** True when this process ignores SIGINT (e.g. started in the background by a non-interactive shell); children inherit that. */
    static boolean sigintIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    long mask = Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16);
                    return (mask & (1L << 1)) != 0; // bit n-1 for signal n; SIGINT is 2
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }
}
