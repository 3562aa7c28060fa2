package dev.rein.temporal.internal;

import dev.rein.agent.RunResult;
import dev.rein.context.OutputStore;
import dev.rein.model.Message;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The run's result as the workflow returns it: everything but the history and the agent state,
 * which grow with the run and are kept in the run store (the whole result, by hash); a one-message
 * placeholder history names it. A client with the run store gets the full result back ({@link #full}).
 */
public final class Results {
    private static final String MARKER = "[rein] The run's history is kept in the run store as sha256:";
    private static final Pattern REF = Pattern.compile(Pattern.quote(MARKER) + "([0-9a-f]{64})");

    private Results() {}

    /** The result with its history replaced by a reference to {@code stored} (the full result's hash), without state. */
    static RunResult light(RunResult full, String stored) {
        Message placeholder = Message.user(MARKER + stored + " (" + full.history().size()
                + " messages); a client given the workers' run store returns it in full.");
        return new RunResult(full.runId(), full.status(), full.reason(), full.message(), full.answer(), full.steps(),
                full.usage(), full.costUsd(), full.duration(), full.finish(), List.of(placeholder), null,
                full.pendingApprovals());
    }

    /** The full result a light one refers to, when {@code store} has it; otherwise the light one as it is. */
    public static RunResult full(RunResult result, OutputStore store) {
        if (result == null || result.history().size() != 1) {
            return result;
        }
        Matcher ref = REF.matcher(result.history().get(0).text());
        if (!ref.lookingAt()) {
            return result;
        }
        Optional<RunResult> full = new Blobs(store).findResult(ref.group(1));
        return full.orElse(result);
    }
}
