package dev.rein.cli;

import dev.rein.eval.cli.EvalCommandSupport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rein eval SUITE}: runs an evaluation suite, offline with the suite's scripted models, or
 * against a real model with {@code --model}.
 */
@Command(name = "eval", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Run an evaluation suite: N trials per task, graded on outcome and trajectory.",
        description = {"Runs every task of SUITE (a YAML or JSON suite file, see docs/eval.md) for N trials and reports"
                + " success rate, pass@k, pass^k, failure kinds, unsafe actions, safe refusals, cost and steps.",
                "Without --model the suite's scripted models play the LLM (offline, no key). With --model the tasks run"
                        + " against that Anthropic model (ANTHROPIC_API_KEY required).",
                "Progress goes to stderr; the summary (or, with --json, one JSON report) to stdout.", ""},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  every graded trial passed", "  1  some trials failed or acted unsafely",
                "  2  usage error: bad suite file, option or report path", "  3  infrastructure errors (provider, harness)",
                "  130 interrupted"})
final class EvalCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @Parameters(index = "0", paramLabel = "SUITE", description = "The suite file (.yaml, .yml or .json), or a folder of"
            + " JSONL traces: each recorded run is replayed and must end as recorded (see docs/replay.md).")
    Path suite;

    @Option(names = "--trials", paramLabel = "N", description = "Trials per task (default: the suite's own value).")
    Integer trials;

    @Option(names = "--model", paramLabel = "NAME", description = "Run against this real model instead of the scripted ones.")
    String model;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write a self-contained HTML report to FILE.")
    Path report;

    @Option(names = "--json", description = "Print the machine-readable JSON report on stdout.")
    boolean json;

    EvalCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        if (java.nio.file.Files.isDirectory(suite)) {
            return TraceRegression.run(suite, env);
        }
        if (trials != null && trials < 1) {
            throw new UsageException("--trials must be 1 or more, was " + trials);
        }
        if (report != null) {
            TraceFile.checkWritable(report, "report file", "report.html");
        }
        if (model != null) {
            // Fail before any trial when the real model cannot be priced or configured (e.g. no key).
            RunCommand.requirePrice(model, env.env());
            env.models().create(model, env.env());
        }
        return EvalCommandSupport.run(suite, trials == null ? 0 : trials, model,
                model == null ? null : name -> env.models().create(name, env.env()),
                report, json, env.out(), env.err());
    }
}
