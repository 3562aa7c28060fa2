package dev.rein.cli;

import dev.rein.eval.cli.EvalCommandSupport;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.eval.run.EvalRunner;
import dev.rein.examples.DemoModel;
import dev.rein.mcp.McpConfig;
import dev.rein.model.Model;
import dev.rein.provider.OptionedModel;
import dev.rein.provider.PricedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
                "SUITE may also be a folder of JSONL traces: every recorded run becomes a task replayed from its recording"
                        + " (one trial each unless --trials), graded on ending as recorded without diverging (docs/replay.md).",
                "Without --model the suite's scripted models play the LLM (offline, no key). With --model the tasks run"
                        + " against that model of the provider (--provider, default $REIN_PROVIDER, else anthropic:"
                        + " ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN required; for openai, OPENAI_API_KEY unless OPENAI_BASE_URL or --base-url"
                        + " names a server that needs none). --thinking and --reasoning-effort, as for rein run, go with every"
                        + " request of every trial.",
                "Progress goes to stderr; the summary (or, with --json, one JSON report) to stdout.", ""},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  every graded trial passed", "  1  some trials failed or acted unsafely",
                "  2  usage error: bad suite file, trace folder, option or report path (nothing",
                "     was run); or every graded trial passed but the --report file could not",
                "     be written after them (the summary or JSON report holds the results)",
                "  3  infrastructure errors (provider, harness)",
                "  130 interrupted: the summary, JSON report and --report file cover the trials",
                "     that had ended and say it was interrupted"})
final class EvalCommand implements Callable<Integer> {
    private final CliEnvironment env;

    // optional to picocli, so that its absence is said with what to give (call()), not "Missing required parameter"
    @Parameters(index = "0", arity = "0..1", paramLabel = "SUITE", hideParamSyntax = true, description = "The suite file (.yaml, .yml or .json), or a folder of"
            + " JSONL traces: each recorded run is a task, replayed from its recording, that must end as recorded (or as"
            + " expected.json in the folder says) without diverging (see docs/replay.md).")
    Path suite;

    @ExampleValue("3")
    @Option(names = "--trials", paramLabel = "N", converter = OptionValues.TrialCount.class,
            description = "Trials per task (default: the suite's own value).")
    Integer trials;

    @ExampleValue("2")
    @Option(names = "--parallel", paramLabel = "N", converter = OptionValues.ParallelCount.class,
            description = "Trials run at once (default: " + EvalRunner.DEFAULT_PARALLELISM + "); 1 runs them one after another,"
                    + " for a provider's rate limit or a local server that answers one request at a time.")
    Integer parallel;

    @ExampleValue("claude-sonnet-5")
    @Option(names = "--model", paramLabel = "NAME", description = "Run against this real model instead of the scripted ones.")
    String model;

    @Mixin
    ProviderOptions providerOptions;

    @Mixin
    ReasoningOptions reasoning;

    @ExampleValue("report.html")
    @Option(names = "--report", paramLabel = "FILE", description = "Also write a self-contained HTML report to FILE.")
    Path report;

    @Option(names = "--json", description = "Print the machine-readable JSON report on stdout.")
    boolean json;

    @ExampleValue("traces/")
    @Option(names = "--traces", paramLabel = "DIR", description = "Write each trial's JSONL trace to DIR as TASK.TRIAL.jsonl"
            + " (replacing earlier ones); 'rein eval DIR' replays them as regression tasks.")
    Path traces;

    @ExampleValue("mcp.json")
    @Option(names = "--mcp", paramLabel = "FILE", description = "MCP servers file: their tools are offered to the suite's"
            + " inline agents as the toolset 'mcp' (agent.toolsets: [mcp]); the servers serve every trial. See docs/mcp.md.")
    Path mcp;

    /** The real models the trials ran on, whose HTTP clients are released when the evaluation ends. */
    private final List<Model> opened = new java.util.concurrent.CopyOnWriteArrayList<>();

    EvalCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        if (suite == null) {
            throw new UsageException("give the suite to run: a suite file (.yaml, .yml or .json, see docs/eval.md) or a folder"
                    + " of JSONL traces, e.g. rein eval suite.yaml; the example agents' suites run with rein example NAME --eval");
        }
        if (model != null && Files.isDirectory(suite)) {
            throw new UsageException("--model does not apply to a folder of traces: each recorded run is replayed from its"
                    + " recorded responses; drop --model");
        }
        if (report != null) {
            TraceFile.checkWritable(report, "report file", "report.html");
            // the suite file is EvalCommandSupport's to compare (as the library's callers' report)
            TraceFile.requireOwnFile(report, "--report", CliHome.of(env.env()), java.util.Collections.singletonMap("--mcp", mcp),
                    "report", "report.html");
        }
        if (traces != null) {
            checkTraceFolder(traces);
        }
        requireAModelForProviderOptions();
        // without --model nothing reads the provider: an offline suite does not depend on REIN_PROVIDER
        ProviderSelection provider = model == null ? null : providerOptions.select(env.env(), null);
        Map<String, String> environment = provider == null ? Map.of() : provider.environment(env.env());
        if (model != null) {
            reasoning.requireProvider(provider);
            // Fail before any trial when the real model cannot be priced or configured (e.g. no key).
            RunCommand.requirePrice(model, provider, RunCommand.TRIALS_UNCOUNTED);
            RunCommand.closeQuietly(env.models().create(model, environment), env, "rein eval");
        }
        Function<String, Model> models = model == null ? null : name -> {
            Model made = env.models().create(name, environment);
            opened.add(made);
            // outermost, so the suite's agents take the options as their own request options (traced, stored)
            return OptionedModel.of(priced(made, name, provider), reasoning.modelOptions());
        };
        EvalCommandSupport.Options options = new EvalCommandSupport.Options(suite, trials == null ? 0 : trials, model, models,
                report, json, parallel == null ? EvalRunner.DEFAULT_PARALLELISM : parallel, traces, recorded -> ReplayCommand.agent(recorded, env),
                provider == null ? null : RunReport.keyAdvice(provider, env.env()));
        if (mcp == null) {
            EvalRegistry registry = EvalRegistry.load();
            requireRoom(registry);
            return guarded(() -> EvalCommandSupport.run(options, registry, env.out(), env.err()));
        }
        if (Files.isDirectory(suite)) {
            throw new UsageException("--mcp does not apply to a folder of traces: a replay answers every tool call from its"
                    + " recording; drop --mcp");
        }
        McpConfig servers = CliMcp.load(mcp, env);
        try (CliMcp tools = CliMcp.start(mcp, servers, List.of())) {
            // a server's tool named like one of the suite agent's own is one usage error at load, with the advice
            // rein example --mcp gives, rather than an agent that fails to build in every trial
            EvalRegistry registry = EvalRegistry.loading().sharedToolset("mcp", tools.tools(), DemoModel.MCP_CLASH_ADVICE).build();
            requireRoom(registry);
            return guarded(() -> EvalCommandSupport.run(options, registry, env.out(), env.err()));
        }
    }

    /**
     * Refuses --provider, --base-url, --price, --thinking and --reasoning-effort where no model reads them: they choose,
     * price and tune the model --model names, and without it the suite's scripted models play the LLM (a replayed folder, its recordings), so the
     * option would be checked and then ignored, and a suite meant for a server would run offline unnoticed.
     */
    private void requireAModelForProviderOptions() {
        String given = providerOptions.provider != null ? "--provider" : providerOptions.baseUrl != null ? "--base-url"
                : providerOptions.price != null ? "--price" : reasoning.given();
        if (given == null) {
            return;
        }
        if (Files.isDirectory(suite)) {
            throw new UsageException(given + " does not apply to a folder of traces: each recorded run is replayed from its"
                    + " recorded responses, and no model is called; drop " + given);
        }
        if (model == null) {
            throw new UsageException(given + " applies to the model given with --model, and there is none: without --model the"
                    + " suite's scripted models play the LLM, offline; add --model NAME to run the tasks against that model"
                    + " of the provider, or leave " + given + " out");
        }
    }

    /**
     * Runs the evaluation so that Ctrl-C cancels the trials in flight through the runner (each
     * trial's trace then ends with its run_finished) rather than ending the JVM in the middle of them;
     * then releases the real model's HTTP client.
     */
    private int guarded(java.util.function.IntSupplier evaluation) {
        CancelOnInterrupt guard = CancelOnInterrupt.interrupting(Thread.currentThread(), "rein eval", env);
        int code = EvalCommandSupport.INTERRUPTED;
        try {
            code = evaluation.getAsInt();
            return code;
        } finally {
            opened.forEach(made -> RunCommand.closeQuietly(made, env, "rein eval"));
            env.out().flush();
            env.err().flush();
            guard.reported(code);
        }
    }

    /**
     * The trace folder must be, or be creatable as, a directory; checked here so the one line says why
     * (the runner's own error only repeats the path).
     */
    static void checkTraceFolder(Path traces) {
        Path existing = traces.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null && !Files.isDirectory(existing)) {
            throw new UsageException("--traces: cannot use " + traces + " as the trace folder: " + existing
                    + " is not a directory; give a folder such as traces/");
        }
    }

    /**
     * Before any trial: an option a suite agent cannot take (a thinking budget not below its max_tokens) is one usage
     * error naming the option, the task and what to do, not an infrastructure error in every trial.
     */
    private void requireRoom(EvalRegistry registry) {
        if (model == null || reasoning.given() == null) {
            return;
        }
        reasoning.requireThinkingTakenBy(model, false);
        dev.rein.eval.Suite loaded;
        try {
            loaded = dev.rein.eval.file.SuiteFile.load(suite, registry);
        } catch (RuntimeException e) {
            return; // EvalCommandSupport reports a suite it cannot load, in its words
        }
        reasoning.requireRoomIn(loaded, model, "agent.max_tokens in the suite");
    }

    /** With --price, the model carries its price to the trials' agents, which build their budgets from the model. */
    private static Model priced(Model model, String name, ProviderSelection provider) {
        return provider.price() == null ? model : PricedModel.of(model, name, provider.modelPrice(name));
    }
}
