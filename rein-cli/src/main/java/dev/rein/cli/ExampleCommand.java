package dev.rein.cli;

import dev.rein.budget.ModelPrice;
import dev.rein.eval.run.EvalRunner;
import dev.rein.examples.Example;
import dev.rein.examples.Examples;
import dev.rein.internal.text.ShellWords;
import dev.rein.mcp.McpConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein example NAME}: runs one example agent, or its evaluation suite. */
@Command(name = "example", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Run one example agent (or its evaluation suite with --eval).",
        description = {"Runs the example NAME (see 'rein examples'): with a SCRIPTED model when --offline is given or the"
                + " provider is not configured (neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN set; for openai, OPENAI_API_KEY unset with the public"
                + " base URL), otherwise against the provider's real model. With --eval, runs the example's"
                + " evaluation suite instead and prints its report. With --mcp FILE the demo's agent is also offered the"
                + " tools of those MCP servers. --thinking and --reasoning-effort, as for rein run, go with every request of"
                + " the real model.", ""},
        footerHeading = "%nExit codes:%n",
        footer = {"  0  the example ended as intended (with --eval: every trial passed)",
                "  1  it did not (with --eval: some trials failed or were unsafe)",
                "  2  no or unknown example NAME (the examples are listed, or the one meant),",
                "     or a bad option; with --eval, also every trial passed but the --report",
                "     file could not be written after them",
                "  3  setup or infrastructure failure (such as a key the provider refused)",
                "  130  interrupted (Ctrl-C cancels the run or the trials in flight)"})
final class ExampleCommand implements Callable<Integer> {
    /** The examples' names, in the order 'rein examples' lists them. */
    static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Examples.list().stream().map(Examples.Info::name).iterator();
        }
    }

    private final CliEnvironment env;

    // optional to picocli, so that its absence is said with the examples to choose from (call()), not "Missing required parameter";
    // the names to choose from are its examples' (HelpText#example)
    @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", hideParamSyntax = true, completionCandidates = Names.class,
            description = "The example to run (see 'rein examples').")
    String name;

    @Option(names = "--offline", description = "Use the scripted model even when an API key is set.")
    boolean offline;

    @ExampleValue("claude-sonnet-5")
    @Option(names = "--model", paramLabel = "NAME",
            description = "The real model to use (default: the provider's, e.g. claude-sonnet-5 or gpt-4.1-mini).")
    String model;

    @Mixin
    ProviderOptions providerOptions;

    @Mixin
    ReasoningOptions reasoning;

    @Option(names = "--eval", description = "Run the example's evaluation suite instead of its demo.")
    boolean eval;

    @ExampleValue("3")
    @Option(names = "--trials", paramLabel = "N", converter = OptionValues.TrialCount.class,
            description = "With --eval: trials per task (default: the suite's own).")
    Integer trials;

    @ExampleValue("2")
    @Option(names = "--parallel", paramLabel = "N", converter = OptionValues.ParallelCount.class,
            description = "With --eval: trials run at once (default: " + EvalRunner.DEFAULT_PARALLELISM + "); 1 runs them one"
                    + " after another, for a provider's rate limit or a local server that answers one request at a time.")
    Integer parallel;

    @ExampleValue("report.html")
    @Option(names = "--report", paramLabel = "FILE", description = "With --eval: also write a self-contained HTML report to"
            + " FILE (as 'rein eval --report').")
    Path report;

    @ExampleValue("traces/")
    @Option(names = "--traces", paramLabel = "DIR", description = "With --eval: write each trial's JSONL trace to DIR as"
            + " TASK.TRIAL.jsonl (replacing earlier ones); 'rein eval DIR' replays them as regression tasks, with stand-ins"
            + " for the example's tools and without its verifier and policies, which are not in a trace: a trial one of"
            + " those stepped into (a refused answer, say) diverges there.")
    Path traces;

    @Option(names = "--json", description = "With --eval: print the JSON report on stdout instead of the summary (as 'rein eval --json').")
    boolean json;

    @Mixin
    McpOptions mcp;

    ExampleCommand(CliEnvironment env) {
        this.env = env;
    }

    /**
     * Before the demo or any trial: an option the example's agents cannot take (a thinking budget on a model from Claude
     * 4.7 on, the default one too; a budget not below their own max_tokens: npc's 400) is one usage error, not a refusal at
     * the demo's agent or in every trial.
     */
    private void requireRoom(ProviderSelection provider) {
        if (offline || reasoning.given() == null) {
            return;
        }
        dev.rein.eval.Suite suite;
        try {
            suite = Examples.find(name).map(Example::suite).orElse(null);
        } catch (RuntimeException e) {
            return; // the example reports it when it runs
        }
        // Without --model the example runs on the provider's default (Examples: the provider of this environment).
        String modelName = model != null ? model : provider.plugin().defaultModel();
        reasoning.requireThinkingTakenBy(modelName, model == null);
        if (suite != null) {
            reasoning.requireRoomIn(suite, modelName, null);
        }
    }

    @Override
    public Integer call() {
        if (name == null) {
            throw new UsageException("give the name of the example to run, e.g. rein example " + Examples.list().getFirst().name()
                    + "; the examples are: " + Examples.names() + " ('rein examples' describes them)");
        }
        if (Examples.find(name).isEmpty()) {
            // the CLI's rule for a name of one or two letters ('sq' is a start of sql, not a slip of it), with the
            // library's words otherwise
            String typed = name.strip();
            throw new UsageException(typed.codePointCount(0, typed.length()) <= 2
                    ? UnknownNames.unknownName("example", name, Examples.list().stream().map(Examples.Info::name).toList(),
                            "the examples are: " + Examples.names())
                    : Examples.unknown(name));
        }
        requireEval("--trials", trials);
        requireEval("--parallel", parallel);
        requireEval("--report", report);
        requireEval("--traces", traces);
        if (json && !eval) {
            throw new UsageException("--json goes with --eval (the demo prints its steps as it runs): rein example " + name
                    + " --eval --json");
        }
        if (eval && mcp.file != null) {
            throw new UsageException("--mcp goes with the demo, not --eval (the suite's agents are fixed); to evaluate"
                    + " with MCP tools use 'rein eval SUITE --mcp FILE'");
        }
        if (mcp.file != null && Examples.find(name).filter(example -> !example.offersTools()).isPresent()) {
            // its servers would start, and no agent would ever be offered their tools
            throw new UsageException("the " + name + " example has no tool-calling agent (its model steps classify and"
                    + " extract; code calls the tools), so the tools of --mcp would not be used; leave --mcp out");
        }
        if (report != null) {
            TraceFile.checkWritable(report, "report file", "report.html");
            TraceFile.requireOwnFile(report, "--report", CliHome.of(env.env()), java.util.Map.of(), "report", "report.html");
        }
        if (traces != null) {
            EvalCommand.checkTraceFolder(traces);
        }
        requireNoModelChoiceOffline();
        ProviderSelection provider = providerOptions.select(env.env(), null);
        reasoning.requireProvider(provider);
        if (!offline && model != null) {
            RunCommand.requirePrice(model, provider, eval ? RunCommand.TRIALS_UNCOUNTED
                    : "the cost of its run cannot be counted against the example's budget");
        }
        Map<String, String> environment = provider.environment(env.env());
        ModelPrice price = provider.modelPrice(model);
        requireRoom(provider);
        if (eval) {
            // as rein eval: Ctrl-C interrupts this thread, whose runner cancels the trials in flight, and the
            // command reports 130 itself rather than the JVM ending mid-trial without a word
            CancelOnInterrupt guard = CancelOnInterrupt.interrupting(Thread.currentThread(), "rein example", "the trials", env);
            int code = Examples.INTERRUPTED;
            try {
                Examples.Evaluation evaluation = new Examples.Evaluation(trials == null ? 0 : trials,
                        parallel == null ? EvalRunner.DEFAULT_PARALLELISM : parallel, json, report, traces);
                code = Examples.evaluate(name, offline, evaluation, model, environment, price, reasoning.modelOptions(),
                        RunReport.keyAdvice(provider, env.env()), env.out(), env.err());
                return code;
            } finally {
                env.out().flush();
                env.err().flush();
                guard.reported(code);
            }
        }
        McpConfig servers = mcp.config(env);
        try (CliMcp tools = CliMcp.start(mcp.file, servers, List.of())) {
            // a key the provider refuses ends the demo as it ends rein run's run: the line names the variable the key came from
            String keyVariable = RunReport.keyVariable(provider, env.env());
            // as with --eval: Ctrl-C interrupts this thread, which cancels the demo's run in flight (its ending printed),
            // and the command reports 130 itself rather than the JVM ending mid-run without a word
            CancelOnInterrupt guard = CancelOnInterrupt.interrupting(Thread.currentThread(), "rein example", "the run", env);
            int code = Examples.INTERRUPTED;
            try {
                code = Examples.run(name, offline, model, environment, price, reasoning.modelOptions(), tools.tools(),
                        message -> RunReport.keyAdvice(keyVariable, env.env(), message), env.out(), env.err());
                return code;
            } finally {
                env.out().flush();
                env.err().flush();
                guard.reported(code);
            }
        }
    }

    /** An option of the evaluation given without --eval is a usage error that shows it with --eval. */
    private void requireEval(String option, Object value) {
        if (value != null && !eval) {
            // a path is given as typed: quoted, so that a shell gives it back so ('my report.html', '$1')
            throw new UsageException(option + " goes with --eval: rein example " + name + " --eval " + option + " "
                    + ShellWords.word(String.valueOf(value)));
        }
    }

    /**
     * --offline runs the scripted model: a model, provider, base URL, price, thinking or reasoning effort given with it would
     * choose or tune a model that never runs, and the example would run offline as if they had not been given.
     */
    private void requireNoModelChoiceOffline() {
        String given = model != null ? "--model" : providerOptions.provider != null ? "--provider"
                : providerOptions.baseUrl != null ? "--base-url" : providerOptions.price != null ? "--price" : reasoning.given();
        if (offline && given != null) {
            throw new UsageException("--offline runs the example on its scripted model, so " + given + " would not be used;"
                    + " leave --offline out to run it on the real model, or leave " + given + " out");
        }
    }
}
