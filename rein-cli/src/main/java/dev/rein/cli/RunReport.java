package dev.rein.cli;

import dev.rein.internal.text.Counts;
import dev.rein.run.Reasons;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.model.Message;
import dev.rein.model.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Prints how a run ended. stdout gets the result only (the answer, or with {@code --json} the one
 * JSON object); stderr gets a one-line summary with status, reason, steps, cost and the trace path.
 * A FAILED run has no answer, so its stdout says why, with the text the model wrote, labelled.
 */
final class RunReport {
    private final CliEnvironment env;
    private final boolean json;
    private final boolean quiet;
    private final Path trace;
    private final Function<String, List<ApprovalRequest>> pending;
    private final String keyVariable;
    private final boolean typed;
    /** The store the run was kept in, to say what it failed to keep; null when there is none to watch. */
    private final WatchedStore store;
    /** The command, such as "rein run", for the lines about the store. */
    private final String command;
    /** Whether the run is kept where {@code rein reply} finds it (not so for {@code rein demo}'s), so the summary may point there. */
    private final boolean replyable;

    /**
     * @param json        print the JSON object instead of the answer
     * @param quiet       omit the summary line of a run that succeeded
     * @param trace       the trace file, or null
     * @param pending     the actions a paused run waits for, by run id (for {@code pending_actions})
     * @param keyVariable the environment variable the provider's key came from, named when the provider
     *                    refuses it (HTTP 401), or null
     * @param typed       the run's answer must be JSON valid against an output schema ({@code --output-schema})
     */
    RunReport(CliEnvironment env, boolean json, boolean quiet, Path trace, Function<String, List<ApprovalRequest>> pending,
              String keyVariable, boolean typed) {
        this(env, json, quiet, trace, pending, keyVariable, typed, null, null, true);
    }

    private RunReport(CliEnvironment env, boolean json, boolean quiet, Path trace, Function<String, List<ApprovalRequest>> pending,
                      String keyVariable, boolean typed, WatchedStore store, String command, boolean replyable) {
        this.env = env;
        this.json = json;
        this.quiet = quiet;
        this.trace = trace;
        this.pending = pending;
        this.keyVariable = keyVariable;
        this.typed = typed;
        this.store = store;
        this.command = command;
        this.replyable = replyable;
    }

    /**
     * This report, also saying what {@code store} failed to keep of the run (its final state, trace
     * events), with exit code 1 instead of 0 then; {@code command} names the command in those lines.
     */
    RunReport storedIn(WatchedStore store, String command) {
        return new RunReport(env, json, quiet, trace, pending, keyVariable, typed, store, command, replyable);
    }

    /** This report for a run no store keeps (the demo's), whose summary therefore names no command that continues it. */
    RunReport unkept() {
        return new RunReport(env, json, quiet, trace, pending, keyVariable, typed, store, command, false);
    }

    /** {@code code}, changed as {@link WatchedStore#report} says after it said what the store did not keep. */
    int checkStored(RunResult result, int code) {
        return store == null ? code : store.report(result, code, command, env, trace != null);
    }

    /**
     * {@code result} as printed: the accepted answer of a run with an output schema is the JSON the model wrote,
     * without the fenced code block it may have put it in, so stdout (and "answer" with --json) can be read as JSON.
     */
    RunResult shown(RunResult result) {
        if (!typed || result.status() != RunStatus.SUCCEEDED || result.answer() == null) {
            return result;
        }
        String json = dev.rein.model.OutputSchema.answerText(result.answer());
        return json.equals(result.answer()) ? result : new RunResult(result.runId(), result.status(), result.reason(),
                result.message(), json, result.steps(), result.usage(), result.costUsd(), result.duration(), result.finish(),
                result.history(), result.state(), result.pendingApprovals());
    }

    /**
     * The variable {@code provider}'s key is read from ({@code NAME_API_KEY}), or its {@code
     * NAME_AUTH_TOKEN} when only that is set.
     */
    static String keyVariable(ProviderSelection provider, java.util.Map<String, String> env) {
        String prefix = provider.provider().toUpperCase(java.util.Locale.ROOT);
        String key = prefix + "_API_KEY";
        String token = prefix + "_AUTH_TOKEN";
        boolean keySet = !env.getOrDefault(key, "").isBlank();
        return !keySet && !env.getOrDefault(token, "").isBlank() ? token : key;
    }

    /**
     * What to do about a provider's refusal {@code message} (HTTP 401), naming the variable the key came from
     * ({@link #keyVariable}): the API's own words ('invalid x-api-key') do not say where the CLI took the key from.
     * Null for any other message, or when {@code keyVariable} is null.
     */
    static String keyAdvice(String keyVariable, java.util.Map<String, String> env, String message) {
        if (keyVariable == null || message == null || !message.contains("failed (HTTP 401")) {
            return null;
        }
        // A local server may need no key, so none is required to start: then none was sent, none refused.
        return (env.getOrDefault(keyVariable, "").isBlank() ? "the server asks for a key and none was sent: set "
                : "the provider refused the key: check ") + keyVariable;
    }

    /**
     * As {@link #keyAdvice(String, java.util.Map, String)} for the key of {@code provider}, for the trials of an
     * evaluation (rein eval, rein example --eval): what to say about a trial's infrastructure error, given its message.
     */
    static Function<String, String> keyAdvice(ProviderSelection provider, java.util.Map<String, String> env) {
        String variable = keyVariable(provider, env);
        return message -> {
            String advice = keyAdvice(variable, env, message);
            return advice == null ? null : "HTTP 401 from the provider: " + advice;
        };
    }

    /** Prints the result and returns the exit code for it. */
    int print(RunResult ended) {
        RunResult result = shown(ended);
        if (json) {
            List<ApprovalRequest> waiting = result.status() == RunStatus.WAITING_APPROVAL ? pending.apply(result.runId()) : List.of();
            env.out().println(ResultJson.write(result, waiting));
        } else if (result.status() == RunStatus.FAILED) {
            env.out().print(failure(result));
        } else if (result.answer() != null && !result.answer().isBlank()) {
            env.out().println(Text.visibleLines(result.answer().strip()));
        }
        if (!quiet || !result.succeeded()) {
            env.err().println(summary(result));
        }
        return checkStored(result, ExitCodes.of(result.status()));
    }

    /** What stdout says for a FAILED run: status, reason and message, then the answer or partial text, each labelled. */
    String failure(RunResult result) {
        StringBuilder sb = new StringBuilder("FAILED (").append(result.reason()).append(')');
        if (result.message() != null && !result.message().isBlank()) {
            sb.append(": ").append(Text.visible(Errors.oneLine(result.message())));
        }
        if (Reasons.MAX_TOKENS.equals(result.reason())) {
            sb.append(" (on the command line: raise --max-tokens)"); // the core's message names the library's maxTokens
        }
        sb.append(System.lineSeparator());
        String answer = withoutRestatedFailure(result);
        if (!answer.isEmpty()) {
            String label = Reasons.NEEDS_USER_INPUT.equals(result.reason()) ? "Question:" : "Answer so far:";
            sb.append(label).append(System.lineSeparator()).append(Text.visibleLines(answer))
                    .append(System.lineSeparator());
        } else if (result.answer() == null || result.answer().isBlank()) {
            String partial = lastModelText(result.history());
            if (!partial.isBlank()) {
                sb.append("Partial text (not taken as an answer):").append(System.lineSeparator())
                        .append(Text.visibleLines(partial.strip())).append(System.lineSeparator());
            }
        }
        return sb.toString();
    }

    /**
     * The answer of a run the core ended without a model call begins by restating the failure ("Stopped before the
     * task was finished: " and the message), which the line above has just printed: only what follows is news.
     */
    private static String withoutRestatedFailure(RunResult result) {
        String answer = result.answer() == null ? "" : result.answer().strip();
        String restated = "Stopped before the task was finished: " + result.message();
        if (result.message() != null && answer.startsWith(restated)) {
            answer = answer.substring(restated.length());
            answer = (answer.startsWith(".") ? answer.substring(1) : answer).strip();
        }
        return answer;
    }

    /** The text of the model's last turn, when the history ends with one (a cut-off or refused response). */
    private static String lastModelText(List<Message> history) {
        if (history.isEmpty() || history.get(history.size() - 1).role() != Role.ASSISTANT) {
            return "";
        }
        return history.get(history.size() - 1).text();
    }

    String summary(RunResult result) {
        StringBuilder sb = new StringBuilder("rein: ").append(result.status()).append(" (").append(result.reason()).append(')');
        if (!result.succeeded() && result.message() != null && !result.message().isBlank()) {
            sb.append(": ").append(Text.visible(Errors.oneLine(result.message())));
        }
        if (Reasons.MAX_TOKENS.equals(result.reason())) {
            sb.append(" (on the command line: raise --max-tokens)");
        }
        if (result.status() == RunStatus.WAITING_APPROVAL) {
            // the core's message says what to do in library terms; name the commands that do it
            String id = result.runId();
            sb.append(" (on the command line: see the action with ").append(SuggestedCommand.forRun("rein show", id))
                    .append(", decide with ").append(SuggestedCommand.forRun("rein approve", id))
                    .append(" (or --reject REASON, --edit JSON), then ").append(SuggestedCommand.forRun("rein resume", id)).append(")");
        }
        if (result.status() == RunStatus.FAILED && Reasons.NEEDS_USER_INPUT.equals(result.reason())) {
            // the run keeps what it knows for the answer: starting over would lose it
            sb.append(" (answer it with: rein reply ").append(CliHome.shellId(result.runId())).append(" \"TEXT\")");
        }
        if (result.status() == RunStatus.CANCELLED && replyable) {
            // a cancelled run keeps what it did: a reply continues it (its unanswered calls are answered as cancelled first)
            sb.append(" (continue it with: rein reply ").append(CliHome.shellId(result.runId())).append(" \"TEXT\")");
        }
        String keyAdvice = Reasons.PROVIDER_ERROR.equals(result.reason()) ? keyAdvice(keyVariable, env.env(), result.message()) : null;
        if (keyAdvice != null) {
            sb.append(" (").append(keyAdvice).append(')');
        }
        sb.append(" · ").append(Counts.of(result.steps(), "step"))
                .append(" · ").append(Text.usd(result.costUsd()));
        String uses = LiveView.serverToolUses(result.usage());
        if (!uses.isEmpty()) { // billed per use on top of the tokens: part of the cost just shown
            sb.append(" (").append(uses).append(')');
        }
        sb.append(" · ").append(Text.millis(result.duration().toMillis()));
        if (trace != null) {
            sb.append(" · trace: ").append(trace);
        }
        return sb.toString();
    }
}
