package dev.rein.cli;

import dev.rein.agent.Agent;
import dev.rein.agent.RunHandle;
import dev.rein.agent.RunResult;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.budget.Budget;
import dev.rein.mcp.McpConfig;
import dev.rein.model.Model;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.tool.Tool;
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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code rein run GOAL}: one agent run with the chosen model provider (Anthropic, or OpenAI and compatible servers). */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Run an agent on GOAL with the Anthropic API or an OpenAI-compatible one.",
        description = {"Runs an agent on GOAL with the built-in tools, on the Anthropic Messages API or, with --provider openai,"
                + " on OpenAI Chat Completions (OpenAI, Ollama, vLLM, LM Studio, llama.cpp).",
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
                // each line fits 80 columns, the width of help in a pipe: picocli breaks longer ones at column 0
                "  REIN_PROVIDER         the default of --provider (else anthropic)",
                "  ANTHROPIC_API_KEY     the Anthropic API key (required for anthropic, unless a",
                "                        token is set)",
                "  ANTHROPIC_AUTH_TOKEN  a bearer token for a gateway (Authorization: Bearer)",
                "  ANTHROPIC_BASE_URL    the Anthropic endpoint",
                "                        (default https://api.anthropic.com)",
                "  OPENAI_API_KEY        the OpenAI key (required for the public API only)",
                "  OPENAI_BASE_URL       the OpenAI-compatible endpoint",
                "                        (default https://api.openai.com/v1)",
                "  OPENAI_THINK_TAGS     where a model's content holds its <think> block:",
                "                        minimax (default), leading or opened_in_prompt",
                "",
                "Examples:",
                "  rein run --json --trace run.jsonl \"今日から100日後は何月何日?\"",
                "  OPENAI_BASE_URL=http://localhost:11434/v1 \\",
                "    rein run --provider openai --model qwen3:8b --price 0,0 \"17 * 23?\""})
final class RunCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("claude-sonnet-5")
    @Option(names = "--model", paramLabel = "NAME",
            description = "Model name, sent with every request and used for pricing (default: ${DEFAULT-VALUE}).")
    String model;

    @ExampleValue("calculate,get_current_time")
    @Option(names = "--tools", paramLabel = "LIST",
            description = "Comma-separated tools the agent may call; an empty LIST gives it none (default: ${DEFAULT-VALUE}).")
    String tools;

    @Option(names = "--memory", description = "Offer the long-term memory tools: remember (a write: it needs approval),"
            + " recall and forget, over the memory in the run store (see 'rein memory').")
    boolean memory;

    @Option(names = "--docs", description = "Offer the search_documents tool over the index that 'rein index DIR' built.")
    boolean docs;

    @ExampleValue("\"Answer in one sentence.\"")
    @Option(names = "--system", paramLabel = "TEXT", description = "System prompt (default: none).")
    String system;

    @ExampleValue("5")
    @Option(names = "--web-search", paramLabel = "N", converter = OptionValues.WebSearchUses.class,
            description = "Let Claude search the web (the Anthropic API's web search server tool), at most N searches per"
                    + " model call; each search costs USD 0.01, counted against --max-cost-usd. Anthropic provider only.")
    Integer webSearch;

    @Mixin
    ReasoningOptions reasoning;

    @Mixin
    BudgetOptions budget;

    @Mixin
    ProviderOptions providerOptions;

    @Spec
    CommandSpec spec;

    @ExampleValue("16000")
    @Option(names = "--max-tokens", paramLabel = "N", converter = OptionValues.TokenCount.class,
            description = "Most tokens one model response may have (max_tokens of each call); a response cut off there"
                    + " ends the run FAILED, reason max_tokens (default: the library's, 8192).")
    Integer maxTokens;

    @Mixin
    McpOptions mcp;

    @Option(names = "--mcp-instructions", description = "Add the instructions the --mcp servers give (how to use their tools)"
            + " to the system prompt, each server's wrapped as untrusted data and cut at "
            + dev.rein.mcp.McpToolset.MAX_INSTRUCTIONS_CHARS + " characters with a line saying so (default: left out). Kept with"
            + " the run for rein resume and rein reply.")
    boolean mcpInstructions;

    @ExampleValue("run.jsonl")
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

    @ExampleValue("schema.json")
    @Option(names = "--output-schema", paramLabel = "FILE",
            description = "The final answer must be JSON valid against the JSON Schema in FILE; an invalid answer is shown to"
                    + " the model with the errors, then the run ends FAILED, reason invalid_output.")
    Path outputSchema;

    @Option(names = {"-q", "--quiet"}, description = "No live view; stderr gets only warnings and the summary of a run that did not succeed.")
    boolean quiet;

    @ExampleValue("alice")
    @Option(names = "--as", paramLabel = "NAME",
            description = "Record inline approval decisions as made by NAME (default: the operating-system user, $USER).")
    String as;

    @ExampleValue("\"What is 17 * 23?\"")
    @Parameters(arity = "1..*", paramLabel = "GOAL", description = "What the agent should do (several words are joined with spaces).")
    List<String> goal;

    RunCommand(CliEnvironment env) {
        this.env = env;
    }

    /**
     * Refuses an empty entry in a --tools list that names tools ('calculate,,get_current_time', a trailing comma): a
     * name left out there, say by an unset shell variable, would otherwise go unnoticed. An empty list gives no tools.
     */
    private static void requireNoEmptyToolEntry(String list) {
        if (list == null || list.isBlank()) {
            return;
        }
        String[] entries = list.split(",", -1);
        for (int i = 0; i < entries.length; i++) {
            if (entries[i].isBlank()) {
                throw new UsageException("--tools '" + list + "' has an empty entry at position " + (i + 1) + "; give tool names"
                        + " separated by single commas, e.g. --tools calculate,get_current_time, or --tools \"\" for no tools");
            }
        }
    }

    @Override
    public Integer call() {
        String task = String.join(" ", goal).strip();
        CommandLineArgs.requireUtf8("the GOAL", task);
        CommandLineArgs.requireUtf8("--system", system);
        String user = DeciderName.of(as, env);
        if (Text.showsNothing(task)) {
            throw new UsageException("the GOAL is empty: say what the agent should do, e.g. rein run \"What is 17 * 23?\"");
        }
        CliHome home = CliHome.of(env.env());
        requireNoEmptyToolEntry(tools);
        List<Tool> selected = home.tools().select(tools + (memory ? ",remember,recall,forget" : "") + (docs ? ",search_documents" : ""));
        // --tools search_documents offers the same tool as --docs, which needs the index as much
        if (selected.stream().anyMatch(t -> t.name().equals("search_documents")) && !java.nio.file.Files.isDirectory(home.index())) {
            throw new UsageException((docs ? "--docs" : "--tools search_documents") + " needs a document index, and there is none in "
                    + home.index().toAbsolutePath() + "; build it with 'rein index DIR'");
        }
        Budget limits = budget.toBudget();
        ProviderSelection provider = providerOptions.select(env.env(), null);
        if (webSearch != null && !provider.provider().equals(dev.rein.anthropic.AnthropicProvider.NAME)) {
            throw new UsageException("--web-search is a server tool of the Anthropic Messages API, and the provider is '"
                    + provider.provider() + "': leave --web-search out, or use --provider anthropic");
        }
        reasoning.requireProvider(provider);
        OptionValues.Thinking.requireBelow(reasoning.thinking, maxTokens, "--max-tokens");
        // Without --model, the chosen provider's default (the help shows REIN_PROVIDER's).
        boolean modelGiven = spec.commandLine().getParseResult().hasMatchedOption("--model");
        String modelName = modelGiven ? model : provider.plugin().defaultModel();
        reasoning.requireThinkingTakenBy(modelName, !modelGiven);
        requirePrice(modelName, provider);
        if (trace != null) {
            TraceFile.checkWritable(trace);
            // LinkedHashMap: Map.of refuses the null of an option not given
            java.util.Map<String, Path> read = new java.util.LinkedHashMap<>();
            read.put("--output-schema", outputSchema);
            read.put("--mcp", mcp.file);
            TraceFile.requireOwnFile(trace, "--trace", home, read, "trace", "run.jsonl");
        }
        if (json && jsonStream) {
            throw new UsageException("--json and --json-stream cannot be used together: --json-stream already ends with the result object");
        }
        String schema = outputSchema == null ? null : OutputSchemaFile.read(outputSchema);
        if (mcpInstructions && mcp.file == null) {
            throw new UsageException("--mcp-instructions adds the instructions of the --mcp servers to the system prompt; give"
                    + " --mcp FILE too, or leave --mcp-instructions out");
        }
        McpConfig servers = mcp.config(env);
        RunSettings options = new RunSettings(modelName, selected.stream().map(Tool::name).toList(), system,
                limits.maxSteps(), limits.maxCostUsd(), limits.maxDuration().toMillis(), finish, maxTokens, provider, schema, webSearch,
                reasoning.thinking, reasoning.reasoningEffort);
        // Only now, with every option valid, is the environment consulted (API key) and a model created.
        Map<String, String> modelEnv = provider.environment(env.env());
        home.requireWritable(); // before a model or a server starts; a store not yet made is not made here
        Model client = env.models().create(modelName, modelEnv);
        String runId = RunIds.next();
        // the store is made last, so a refusal of the telemetry settings or a server that cannot start leaves nothing behind
        try (CliTelemetry telemetry = CliTelemetry.from(env, home, modelEnv);
             CliMcp mcpTools = CliMcp.start(mcp.file, servers, options.tools(), options.finishTool());
             JdbcRunStore store = home.store();
             StatusLine line = new StatusLine(env.err(), env.terminal().animated() && !json && !jsonStream,
                     Terminal.columns(env.env()))) {
            // Saved with the servers' instructions of now, so a resumed run has the system prompt it started with.
            RunSettings settings = mcpInstructions ? options.withSystem(mcpTools.withInstructions(options.system(), env)) : options;
            home.saveSettings(runId, settings);
            mcpTools.remember(home, runId);
            if (trace != null) {
                TraceFile.startFresh(trace);
            }
            // the store can still fail after the check above (another process locks it, the disk fills up): watched, so it is said
            WatchedStore watched = new WatchedStore(store, home.storeFile());
            Agent agent = CliAgent.build(settings, runId, client, home, watched, line, quiet || jsonStream, trace, telemetry, mcpTools);
            if (jsonStream) {
                return JsonStream.run(agent, task, env, telemetry.cancelGrace(), new RunReport(env, false, true, trace, agent.runs()::pending,
                        RunReport.keyVariable(provider, env.env()), settings.outputSchema() != null).storedIn(watched, "rein run"));
            }
            return runInForeground(agent, runId, task, user, RunReport.keyVariable(provider, env.env()), telemetry.cancelGrace(),
                    settings.outputSchema() != null, watched);
        } finally {
            closeQuietly(client, env, "rein run");
        }
    }

    /**
     * Runs the goal; when attached to a terminal, a pause for approval is decided inline and the
     * run resumed, as often as it pauses. Otherwise a pause ends the command with exit code 4.
     */
    private int runInForeground(Agent agent, String runId, String task, String user, String keyVariable,
                                java.time.Duration grace, boolean typed, WatchedStore store) {
        boolean ask = env.terminal().interactive() && !json;
        RunReport report = new RunReport(env, json, quiet, trace, agent.runs()::pending, keyVariable, typed).storedIn(store, "rein run");
        Supplier<RunHandle> next = () -> agent.start(task);
        while (true) {
            AtomicReference<RunResult> paused = new AtomicReference<>();
            int code = Foreground.run(next, env, grace, result -> {
                if (ask && result.status() == RunStatus.WAITING_APPROVAL) {
                    paused.set(result);
                    return ExitCodes.WAITING_APPROVAL;
                }
                return report.print(result);
            });
            if (paused.get() == null) {
                return code;
            }
            // Ctrl-C while the person is asked cancels the paused run, as it cancels a running one.
            RunResult waiting = paused.get();
            CancelOnInterrupt guard = CancelOnInterrupt.whilePaused(() -> report.print(cancelPaused(agent, waiting)), env);
            try {
                if (!new InlineApproval(env, user).decideAll(agent.runs(), runId)) {
                    env.err().println();
                    return report.print(waiting);
                }
            } catch (IOException e) {
                return report.print(waiting);
            } finally {
                guard.reported(ExitCodes.WAITING_APPROVAL);
            }
            next = () -> agent.startResume(runId);
        }
    }

    /**
     * Ends a run paused at the inline approval prompt as CANCELLED: in the store (its pending
     * actions never run) and, through the agent's listeners ({@code agent.runs()} tells them), in the
     * {@code --trace} file, whose last event is then the run's {@code run_finished}, and in OpenTelemetry.
     * Returns the result to report.
     */
    private RunResult cancelPaused(Agent agent, RunResult paused) {
        String message = "the run was cancelled at the approval prompt";
        agent.runs().cancel(paused.runId(), message);
        return new RunResult(paused.runId(), RunStatus.CANCELLED, Reasons.CANCELLED, message, paused.answer(),
                paused.steps(), paused.usage(), paused.costUsd(), paused.duration(), paused.finish(), paused.history(),
                paused.state(), List.of());
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

    /**
     * The money budget needs a price; fail before any request rather than at the first response.
     * A price comes from {@code --price} or the provider's table.
     */
    static void requirePrice(String model, ProviderSelection provider) {
        requirePrice(model, provider, "its cost cannot be counted against --max-cost-usd");
    }

    /**
     * As {@link #requirePrice(String, ProviderSelection)}, saying what an unknown price would leave uncounted in the
     * command's own terms ({@code uncounted}, e.g. "the cost of its trials cannot be counted ..."), so that a command
     * without --max-cost-usd does not point to it.
     */
    static void requirePrice(String model, ProviderSelection provider, String uncounted) {
        if (model == null || model.isBlank()) {
            throw new UsageException("--model is empty: give a model name such as " + provider.plugin().defaultModel());
        }
        if (!provider.priced(model)) {
            throw new UsageException("no price is known for model '" + model + "', so " + uncounted + "; give one with"
                    + " --price INPUT,OUTPUT in USD per million tokens (for a local server: --price 0,0), or use a priced"
                    + " model: " + String.join(", ", provider.plugin().prices().entries().keySet()));
        }
    }

    /** What an unknown price leaves uncounted in an evaluation ({@code rein eval}, {@code rein example --eval}). */
    static final String TRIALS_UNCOUNTED = "the cost of its trials cannot be counted (in the report, against the"
            + " agents' cost budgets)";
}
