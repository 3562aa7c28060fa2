package dev.rein.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a command takes from the outside world, so commands can be run in-process by tests.
 *
 * @param out             where answers and {@code --json} output go
 * @param err             where the live view, messages and logs go
 * @param env             environment variables
 * @param terminal        what stdout and stderr are attached to
 * @param models          creates the model for {@code run}
 * @param in              standard input, for inline approval questions
 * @param exitOnInterrupt install a JVM shutdown hook that cancels a run on Ctrl-C and exits with
 *                        {@link ExitCodes#CANCELLED}; only for the real process
 */
public record CliEnvironment(PrintStream out, PrintStream err, Map<String, String> env, Terminal terminal,
                             ModelFactory models, boolean exitOnInterrupt, InputStream in) {
    /** An environment without standard input (nothing can be asked). */
    public CliEnvironment(PrintStream out, PrintStream err, Map<String, String> env, Terminal terminal,
                          ModelFactory models, boolean exitOnInterrupt) {
        this(out, err, env, terminal, models, exitOnInterrupt, InputStream.nullInputStream());
    }

    public CliEnvironment {
        Objects.requireNonNull(in, "in");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        env = Map.copyOf(env);
        Objects.requireNonNull(terminal, "terminal");
        Objects.requireNonNull(models, "models");
    }

    /**
     * The real process: UTF-8 on stdout and stderr whatever the platform default, so Japanese goals
     * and answers pass intact; the real environment and terminal; the model provider named by {@code REIN_PROVIDER}.
     */
    public static CliEnvironment system() {
        return system(new FileOutputStream(FileDescriptor.out));
    }

    /** The real process, with standard output written through {@code stdout}. */
    static CliEnvironment system(java.io.OutputStream stdout) {
        PrintStream out = new PrintStream(stdout, true, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        // Logging (slf4j-simple writes to System.err) must use the same encoding.
        System.setOut(out);
        System.setErr(err);
        Map<String, String> env = System.getenv();
        return new CliEnvironment(out, err, env, Terminal.detect(env), ProviderModels::create, true, System.in);
    }
}
