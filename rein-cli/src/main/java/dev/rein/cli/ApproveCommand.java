package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.state.Runs;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.tool.ToolRegistry;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein approve RUN [--reject REASON | --edit JSON] [--action HASH]}: decides a waiting action. */
@Command(name = "approve", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Approve, reject or edit an action a run is waiting for.",
        description = {"Records a decision for an action of a run in WAITING_APPROVAL. The decision is bound to the"
                + " action's hash: a changed action needs a new decision. Continue the run with 'rein resume RUN'.",
                "Without --reject or --edit the action is approved as shown by 'rein show RUN'.", ""})
final class ApproveCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("run_3f1c9a7e5b2d4c8e6a0b")
    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @ArgGroup(exclusive = true)
    Decision decision = new Decision();

    static final class Decision {
        @ExampleValue("\"wrong recipient\"")
        @Option(names = "--reject", paramLabel = "REASON", description = "Reject the action; the agent sees REASON as the tool result.")
        String reject;

        @ExampleValue("'{\"to\":\"bob\"}'")
        @Option(names = "--edit", paramLabel = "JSON", description = "Approve the action with these arguments instead (re-validated).")
        String edit;
    }

    @ExampleValue("3fa2c1")
    @Option(names = "--action", paramLabel = "HASH",
            description = "The action hash (or its first characters), when the run waits for more than one action.")
    String action;

    @ExampleValue("alice")
    @Option(names = "--as", paramLabel = "NAME",
            description = "Record the decision as made by NAME (default: the operating-system user, $USER).")
    String as;

    ApproveCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        String user = DeciderName.of(as, env);
        // the reason reaches the model and the edit the tool: bytes the JVM replaced would arrive silently changed
        CommandLineArgs.requireUtf8("--reject", decision.reject);
        CommandLineArgs.requireUtf8("--edit", decision.edit);
        if (decision.reject != null && decision.reject.isBlank()) {
            // an unset shell variable (--reject "$WHY"): the rejection would be recorded for good with "no reason given"; no
            // "leave it out" here, which would approve the action
            throw new UsageException("--reject is empty: say why the action is rejected, which the model sees as the tool result,"
                    + " e.g. --reject \"wrong recipient\"");
        }
        if (decision.edit != null && decision.edit.isBlank()) {
            throw new UsageException("--edit is empty: give the new arguments as a JSON object, e.g. --edit '{\"to\":\"bob\"}'"
                    + " (see " + SuggestedCommand.forRun("rein show", runId) + " for the arguments as proposed)");
        }
        // an unset shell variable (--action "$HASH"): the empty prefix would match every hash and decide an action
        // the person did not name
        if (action != null && action.isBlank()) {
            throw new UsageException("--action is empty: give the hash of the action to decide, or its first characters (see"
                    + " " + SuggestedCommand.forRun("rein show", runId) + "), or leave --action out when the run waits for one action");
        }
        if (!home.hasStore()) {
            throw new UsageException(home.noStoreMessage());
        }
        try (JdbcRunStore store = home.existingStore()) {
            // the id as 'rein runs' shows it names the run too: an older Rein's id with a control character, escaped
            runId = home.storedRunId(store, runId, env.err(), "rein approve");
            // A run an application paused in this store (JdbcRunStore.sqlite($REIN_HOME)) has no settings and
            // its tools are the application's: deciding needs neither, and its edit is checked when it resumes.
            boolean ours = home.startedByRun(runId);
            RunSettings settings = ours ? home.settings(runId) : null;
            home.requireWritable(store);
            ToolRegistry tools = ToolRegistry.of(ours ? home.tools().select(String.join(",", settings.tools())) : List.of());
            Runs runs = Runs.in(store, tools, Clock.systemUTC());
            if (dev.rein.internal.text.RunIds.unstorable(runId) != null) {
                throw home.noSuchRun(runId);
            }
            var found = runs.find(runId).orElseThrow(() -> home.noSuchRun(runId));
            CliHome.requireContinuable(runId, "rein approve");
            ApprovalRequest request = pick(found);
            if (decision.reject != null) {
                runs.reject(runId, request.actionHash(), decision.reject, user);
                env.err().println("rejected " + Text.visible(request.tool()) + " (action " + request.actionHash() + ") as " + Text.visible(user));
            } else if (decision.edit != null) {
                // An MCP server's tool is not among the CLI's own: its schema is known only once the servers run,
                // so the executor checks the edit when the run resumes (the model is told if it does not fit).
                boolean known = tools.find(request.tool()).isPresent();
                com.fasterxml.jackson.databind.JsonNode edited = editedArguments(decision.edit);
                if (!known && !edited.isObject()) {
                    // Without the schema, at least what every tool takes: arguments are a JSON object.
                    throw new UsageException("--edit: the arguments of " + Text.visible(request.tool()) + " must be a JSON object,"
                            + " e.g. --edit '{\"to\":\"bob\"}' (see " + SuggestedCommand.forRun("rein show", runId) + " for the arguments as proposed)");
                }
                if (known) {
                    // checked here as Runs.edit checks it, so the line can say what to give (the schema's words do not)
                    try {
                        Runs.checkEditedArguments(tools, request.tool(), edited);
                    } catch (ReinException e) {
                        throw new UsageException("--edit: " + Errors.oneLine(e.getMessage()) + "; give the arguments of "
                                + Text.visible(request.tool()) + " as one JSON object that fits its schema (see " + SuggestedCommand.forRun("rein show", runId)
                                + " for the arguments as proposed)");
                    }
                }
                (known ? runs : Runs.in(store)).edit(runId, request.actionHash(), edited, user);
                env.err().println("approved " + Text.visible(request.tool()) + " with edited arguments " + Text.visible(decision.edit)
                        + " as " + Text.visible(user));
                if (!known) {
                    env.err().println("the edited arguments are checked against the schema of " + Text.visible(request.tool())
                            + (ours ? " when the run resumes, with its MCP servers started"
                                    : " when the application that stored the run resumes it with its tools"));
                }
            } else {
                runs.approve(runId, request.actionHash(), user);
                env.err().println("approved " + Text.visible(request.tool()) + " (action " + request.actionHash() + ") as " + Text.visible(user));
            }
            int left = runs.pending(runId).size();
            env.err().println(left > 0 ? left + " more action(s) wait for a decision; see " + SuggestedCommand.forRun("rein show", runId)
                    : ours ? "continue the run with: rein resume " + CliHome.shellId(runId)
                    : APPLICATION_CONTINUES + ": rein resume does not know its model, tools and prompt");
            return ExitCodes.SUCCEEDED;
        }
    }

    /** What continues a run an application stored: rein resume and rein reply refuse it (StoredRunOptions). */
    private static final String APPLICATION_CONTINUES = "continue the run from the application that stored it (agent.resume)";

    /** Why a run has no action to decide, and what to do instead. */
    private String nothingToDecide(RunSnapshot run) {
        String show = SuggestedCommand.forRun("rein show", runId);
        // a run an application stored is continued there: rein resume and rein reply refuse it
        boolean ours = CliHome.of(env.env()).startedByRun(runId);
        if (run.status().terminal()) {
            return "run " + runId + " already ended " + run.status() + " (" + run.reason() + "); there is nothing to approve; see " + show
                    + (ours ? ", or " + ResumeCommand.nextTurn(run)
                    : ResumeCommand.takesReply(run) ? ", or ask a follow-up from the application that stored it (agent.reply)" : "");
        }
        if (run.status() == RunStatus.WAITING_APPROVAL && !run.approvals().decisions().isEmpty()) {
            return "every action run " + runId + " waits for is decided already (see " + show + "); "
                    + (ours ? "continue it with " + SuggestedCommand.forRun("rein resume", runId) : APPLICATION_CONTINUES);
        }
        String refused = "run " + runId + " is " + run.status() + ", not waiting for any approval; see " + show;
        // a RUNNING run in the store is either run by a live process or was left so by one that died: the store cannot
        // tell which, so name the way on for the second
        return run.status() != RunStatus.RUNNING ? refused : refused + ". If the process that ran it has stopped (it crashed or"
                + " was killed), " + (ours ? "continue the run with " + SuggestedCommand.forRun("rein resume", runId) : APPLICATION_CONTINUES);
    }

    /** The {@code --edit} text as one JSON value; anything after it is refused, never dropped. */
    static com.fasterxml.jackson.databind.JsonNode editedArguments(String text) {
        try {
            return Json.parseWhole(text);
        } catch (dev.rein.ReinException e) {
            throw new UsageException("--edit: " + Errors.oneLine(e.getMessage())
                    + "; give the new arguments as one JSON object, e.g. --edit '{\"to\":\"bob\"}'");
        }
    }

    /** The action to decide; identical actions (one hash) are one decision. */
    private ApprovalRequest pick(RunSnapshot run) {
        List<ApprovalRequest> waiting = run.pendingApprovals();
        if (waiting.isEmpty()) {
            throw new UsageException(nothingToDecide(run));
        }
        Map<String, ApprovalRequest> byHash = new LinkedHashMap<>();
        waiting.forEach(r -> byHash.putIfAbsent(r.actionHash(), r));
        List<ApprovalRequest> pending = List.copyOf(byHash.values());
        if (action == null) {
            if (pending.size() > 1) {
                throw new UsageException("run " + runId + " waits for " + pending.size() + " different actions; choose one with"
                        + " --action HASH: " + described(pending) + " (see " + SuggestedCommand.forRun("rein show", runId) + " for their arguments)");
            }
            return pending.get(0);
        }
        // hashes are lower-case hex; a start copied in upper case names the same action
        String start = action.toLowerCase(java.util.Locale.ROOT);
        List<ApprovalRequest> matches = pending.stream().filter(r -> r.actionHash().startsWith(start)).toList();
        if (matches.isEmpty()) {
            // an action of this pause decided already (a second invocation) is not a mistyped hash: say so
            List<ApprovalRequest> decided = run.approvals().requests().stream()
                    .filter(r -> run.approvals().decisions().containsKey(r.callId()) && r.actionHash().startsWith(start)).toList();
            if (!decided.isEmpty()) {
                throw new UsageException("the action of run " + runId + " whose hash starts with '" + Text.visible(action) + "' ("
                        + described(decided.subList(0, 1)) + ") is decided already; still waiting: " + described(pending)
                        + " (see " + SuggestedCommand.forRun("rein show", runId) + ")");
            }
        }
        if (matches.size() != 1) {
            throw new UsageException((matches.isEmpty() ? "no" : "more than one") + " waiting action of run " + runId
                    + " has a hash starting with '" + Text.visible(action) + "'; see " + SuggestedCommand.forRun("rein show", runId));
        }
        return matches.get(0);
    }

    /** Each action as its tool and whole hash, in the order the run proposed them. */
    private static String described(List<ApprovalRequest> requests) {
        return String.join(", ", requests.stream().map(r -> Text.visible(r.tool()) + " " + r.actionHash()).toList());
    }
}
