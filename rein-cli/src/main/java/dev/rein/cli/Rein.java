package dev.rein.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code rein} command. Each subcommand is one class listed in {@code subcommands}; a class
 * with a constructor taking a {@link CliEnvironment} gets the environment injected.
 */
@Command(name = "rein", mixinStandardHelpOptions = true, versionProvider = Version.class, sortOptions = false,
        usageHelpAutoWidth = true,
        commandListHeading = "%nCommands:%n", description = {"Runs an LLM agent as a controlled loop: the model proposes each next action; Rein validates,"
                + " executes and records it within limits, and decides when the run ends.", ""},
        subcommands = {
                RunCommand.class,
                DemoCommand.class,
                RunsCommand.class,
                ShowCommand.class,
                ApproveCommand.class,
                ResumeCommand.class,
                ReplyCommand.class,
                CancelCommand.class,
                MemoryCommand.class,
                IndexCommand.class,
                EvalCommand.class,
                ReplayCommand.class,
                ExamplesCommand.class,
                ExampleCommand.class,
                McpCommand.class,
                WarmupCommand.class,
                HelpCommand.class,
        },
        footerHeading = "%nExit codes:%n",
        footer = {
                "  0  the run SUCCEEDED",
                "  1  the run FAILED",
                "  2  usage or configuration error (nothing was run)",
                "  3  the run was STOPPED_BUDGET (the answer is a summary of what is known)",
                "  4  the run is WAITING_APPROVAL",
                "  5  the run was CANCELLED (Ctrl-C)",
                "",
                "Environment:",
                // each line fits 80 columns, the width of help in a pipe: picocli breaks longer ones at column 0
                "  REIN_PROVIDER         the model provider: anthropic (default) or openai;",
                "                        --provider overrides it",
                "  ANTHROPIC_API_KEY     the Anthropic API key (required with anthropic unless",
                "                        ANTHROPIC_AUTH_TOKEN is set)",
                "  ANTHROPIC_AUTH_TOKEN  a bearer token for a gateway (Authorization: Bearer)",
                "  ANTHROPIC_BASE_URL    the Anthropic endpoint",
                "                        (default https://api.anthropic.com)",
                "  OPENAI_API_KEY        the OpenAI key (required only for the public API)",
                "  OPENAI_BASE_URL       an OpenAI-compatible endpoint,",
                "                        e.g. http://localhost:11434/v1 for Ollama",
                "  OPENAI_THINK_TAGS     where a model's content holds its <think> block:",
                "                        minimax (default), leading or opened_in_prompt",
                "  REIN_HOME             where runs are stored (default .rein in the working",
                "                        directory)",
                "  OTEL_EXPORTER_OTLP_ENDPOINT  export runs as OpenTelemetry spans and metrics",
                "                        (OTLP/HTTP, e.g. http://localhost:4318; off unless set;",
                "                        other OTEL_* variables: docs/observability.md)",
                "",
                "Try './rein demo' first: it runs offline and needs no key."})
public final class Rein implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given; use 'rein run GOAL' or 'rein demo'");
    }

    /**
     * Lucene logs a performance hint on stderr (java.util.logging) the first time it searches; it is
     * not the user's concern, so the CLI keeps it quiet. Held here: JUL keeps loggers only weakly.
     */
    private static final java.util.logging.Logger LUCENE_VECTORS =
            java.util.logging.Logger.getLogger("org.apache.lucene.internal.vectorization");

    public static void main(String[] args) {
        LUCENE_VECTORS.setLevel(java.util.logging.Level.SEVERE);
        StandardOutput stdout = new StandardOutput();
        CliEnvironment env = CliEnvironment.system(stdout);
        int code = execute(CommandLineArgs.recover(args), env);
        env.out().flush();
        System.exit(stdout.exitCode(code, env.err()));
    }

    /** Runs the command line in {@code env} and returns the exit code. */
    public static int execute(String[] args, CliEnvironment env) {
        return commandLine(env).execute(args);
    }

    static CommandLine commandLine(CliEnvironment env) {
        CommandLine commandLine = new CommandLine(new Rein(), new Factory(env));
        // 'rein run --version' and the like print the same version as 'rein --version'.
        commandLine.getSubcommands().values().forEach(sub -> sub.getCommandSpec().versionProvider(new Version()));
        McpCommand.describe(commandLine);
        commandLine.setOut(utf8Writer(env.out()));
        commandLine.setErr(utf8Writer(env.err()));
        // Every file or folder argument of every command: a name that is not UTF-8 is refused by option name.
        commandLine.registerConverter(Path.class, new OptionValues.FilePath());
        commandLine.setDefaultValueProvider(new CliDefaults());
        commandLine.setParameterExceptionHandler(Errors.parameterHandler(env));
        commandLine.setExecutionExceptionHandler(Errors.executionHandler(env));
        commandLine.setExecutionStrategy(Rein::unknownWordsFirst);
        return commandLine;
    }

    /**
     * Runs the command parsed, after refusing a word no command of a command with commands matched: picocli does not check
     * those when --help is asked for, so 'rein rnu --help' printed rein's own help, exit 0, without a word that 'rnu' is
     * no command. Thrown here, the error goes to the parameter handler, as for 'rein rnu'.
     */
    private static int unknownWordsFirst(CommandLine.ParseResult parsed) {
        CommandLine.ParseResult last = parsed;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        if (!last.unmatched().isEmpty() && !last.commandSpec().subcommands().isEmpty()) {
            throw new CommandLine.UnmatchedArgumentException(last.commandSpec().commandLine(), last.unmatched());
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static PrintWriter utf8Writer(PrintStream stream) {
        return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
    }

    /** Creates commands, handing the environment to those that take it. */
    private record Factory(CliEnvironment env) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                Constructor<K> constructor = type.getDeclaredConstructor(CliEnvironment.class);
                constructor.setAccessible(true);
                return constructor.newInstance(env);
            } catch (NoSuchMethodException e) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
