package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.budget.Budget;
import dev.rein.budget.PriceTable;
import dev.rein.provider.ModelProvider;
import dev.rein.model.Model;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein run GOAL}: one agent run against the Anthropic API. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Run an agent on GOAL with the Anthropic API.",
        description = {"Runs an agent on GOAL with the Anthropic Messages API and the built-in tools.",
                "The live view (steps, tool calls, results, cost) goes to stderr; the answer goes to stdout.",
                "Runs are stored in $REIN_HOME (default .rein in the working directory): see 'rein runs'.",
                "Demo tools for trying approvals: lookup_contact, send_message (needs approval), list_sent_messages.",
                "When the run pauses for approval and stdin is a terminal, you are asked y / n / edit inline;",
                "otherwise the command ends with exit code 4 and 'rein approve' / 'rein resume' continue it.", ""},
        footerHeading = "%nExit codes:%n",
        footer = {"  0 SUCCEEDED   1 FAILED   2 usage or configuration error (nothing was run)",
                "  3 STOPPED_BUDGET   4 WAITING_APPROVAL   5 CANCELLED (Ctrl-C)",
                "",
                "Environment:",
                "  ANTHROPIC_API_KEY   the API key (required)",
                "  ANTHROPIC_BASE_URL  the API endpoint (default https://api.anthropic.com)",
                "",
                "Example:",
                "  rein run --json --trace run.jsonl \"今日から100日後は何月何日?\""})
final class RunCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @Option(names = "--model", paramLabel = "NAME",
            description = "Model name, sent with every request and used for pricing (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--tools", paramLabel = "LIST",
            description = "Comma-separated tools the agent may call; an empty LIST gives it none (default: ${DEFAULT-VALUE}).")
    String tools;

    @Option(names = "--system", paramLabel = "TEXT", description = "System prompt (default: none).")
    String system;

    @Mixin
    BudgetOptions budget;

    @Option(names = "--max-tokens", paramLabel = "N", converter = OptionValues.TokenCount.class,
            description = "Most tokens one model response may have (max_tokens of each call); a response cut off there"
                    + " ends the run FAILED, reason max_tokens (default: the library's, 8192).")
    Integer maxTokens;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Write the run's JSONL trace (every event: requests, responses, tool calls, results, state changes) to FILE,"
                    + " replacing its content ('rein resume --trace' appends).")
    Path trace;

    @Option(names = "--finish", description = "Offer the model the finish tool: it ends the run with status completed,"
            + " failed or needs_user_input (then FAILED, reason needs_user_input, with a handoff shown by 'rein show').")
    boolean finish;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout when the run ends:"
            + " run_id, status, reason, answer, steps, usage, cost_usd, and for a paused run pending_actions.")
    boolean json;

    @Option(names = "--json-stream", description = "Print the run's events as they happen, one JSON object per line on stdout"
            + " (the trace's event names, plus text_delta and events_dropped), and last the --json result object with"
            + " \"type\":\"result\". A paused run is not decided inline.")
    boolean jsonStream;

    @Option(names = "--output-schema", paramLabel = "FILE",
            description = "The final answer must be JSON valid against the JSON Schema in FILE; an invalid answer is shown to"
                    + " the model with the errors, then the run ends FAILED, reason invalid_output.")
    Path outputSchema;

    @Option(names = {"-q", "--quiet"}, description = "No live view; stderr gets only warnings and the summary of a run that did not succeed.")
    boolean quiet;

    @Option(names = "--as", paramLabel = "NAME",
            description = "Record inline approval decisions as made by NAME (default: the operating-system user, $USER).")
    String as;

    @Parameters(arity = "1..*", paramLabel = "GOAL", description = "What the agent should do (several words are joined with spaces).")
    List<String> goal;

    RunCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        String task = String.join(" ", goal).strip();
        CommandLineArgs.requireUtf8("the GOAL", task);
        CommandLineArgs.requireUtf8("--system", system);
        String user = DeciderName.of(as, env);
        if (task.isEmpty()) {
            throw new UsageException("the GOAL is empty: say what the agent should do, e.g. rein run \"What is 17 * 23?\"");
        }
        CliHome home = CliHome.of(env.env());
        List<Tool> selected = home.tools().select(tools);
        Budget limits = budget.toBudget();
        requirePrice(model, env.env());
        if (trace != null) {
            TraceFile.checkWritable(trace);
        }
        if (json && jsonStream) {
            throw new UsageException("--json and --json-stream cannot be used together: --json-stream already ends with the result object");
        }
        String schema = outputSchema == null ? null : OutputSchemaFile.read(outputSchema);
        RunSettings settings = new RunSettings(model, selected.stream().map(Tool::name).toList(), system,
                limits.maxSteps(), limits.maxCostUsd(), limits.maxDuration().toMillis(), finish, maxTokens, schema);
        // Only now, with every option valid, is the environment consulted (API key) and a model created.
        Model client = env.models().create(model, env.env());
        String runId = RunIds.next();
        try (JdbcRunStore store = home.store(); StatusLine line = new StatusLine(env.err(), env.terminal().animated() && !json && !jsonStream)) {
            home.saveSettings(runId, settings);
            if (trace != null) {
                TraceFile.startFresh(trace);
            }
            Agent agent = CliAgent.build(settings, runId, client, home, store, line, quiet || jsonStream, trace);
            if (jsonStream) {
                return JsonStream.run(agent, task, env, new RunReport(env, false, true, trace, agent.runs()::pending));
            }
            return runInForeground(agent, runId, task, user);
        } finally {
            closeQuietly(client, env, "rein run");
        }
    }

    /**
     * Runs the goal; when attached to a terminal, a pause for approval is decided inline and the
     * run resumed, as often as it pauses. Otherwise a pause ends the command with exit code 4.
     */
    private int runInForeground(Agent agent, String runId, String task, String user) {
        boolean ask = env.terminal().interactive() && !json;
        RunReport report = new RunReport(env, json, quiet, trace, agent.runs()::pending);
        Supplier<RunHandle> next = () -> agent.start(task);
        while (true) {
            AtomicReference<RunResult> paused = new AtomicReference<>();
            int code = Foreground.run(next, env, result -> {
                if (ask && result.status() == RunStatus.WAITING_APPROVAL) {
                    paused.set(result);
                    return ExitCodes.WAITING_APPROVAL;
                }
                return report.print(result);
            });
            if (paused.get() == null) {
                return code;
            }
            try {
                if (!new InlineApproval(env, user).decideAll(agent.runs(), runId)) {
                    env.err().println();
                    return report.print(paused.get());
                }
            } catch (IOException e) {
                return report.print(paused.get());
            }
            next = () -> agent.startResume(runId);
        }
    }

    /** Releases the model's HTTP client; a failure to close must not change how the run is reported. */
    static void closeQuietly(Model client, CliEnvironment env, String command) {
        if (client instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                env.err().println(command + ": warning: closing the model client failed: " + Errors.oneLine(e.toString()));
            }
        }
    }

    /** The money budget needs a price; fail before any request rather than at the first response. */
    static void requirePrice(String model, Map<String, String> environment) {
        ModelProvider provider = ProviderModels.provider(environment);
        if (model == null || model.isBlank()) {
            throw new UsageException("--model is empty: give a model name such as " + provider.defaultModel());
        }
        PriceTable prices = provider.prices();
        if (prices.find(model).isEmpty()) {
            throw new UsageException("no price is known for model '" + model + "', so its cost cannot be counted against"
                    + " --max-cost-usd; use one of: " + String.join(", ", prices.entries().keySet()));
        }
    }
}
