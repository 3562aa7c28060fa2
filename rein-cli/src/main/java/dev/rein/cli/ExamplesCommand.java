package dev.rein.cli;

import dev.rein.examples.Examples;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code rein examples}: the runnable example agents. */
@Command(name = "examples", mixinStandardHelpOptions = true, usageHelpAutoWidth = true,
        header = "List the example agents (run one with 'rein example NAME').",
        description = {"Lists the example agents. Each runs offline with a scripted model, or against the real API"
                + " when the provider is configured (ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN set, or --provider openai with a key or a"
                + " local server), and ships an evaluation suite (see docs/examples.md).", ""})
final class ExamplesCommand implements Callable<Integer> {
    private final CliEnvironment env;

    ExamplesCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        for (Examples.Info example : Examples.list()) {
            env.out().printf("%-10s %s%n", example.name(), example.description());
        }
        env.err().println("run one with: rein example NAME [--offline] [--eval]");
        return ExitCodes.SUCCEEDED;
    }
}
