package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.state.Runs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Asks the person at the terminal to decide each action a paused run waits for: y (approve),
 * n (reject, with a reason the model will see) or e (edit the arguments, re-validated).
 */
final class InlineApproval {
    private final BufferedReader in;
    private final PrintStream err;
    private final String user;

    /** @param user who the decisions are recorded as (see {@link DeciderName}) */
    InlineApproval(CliEnvironment env, String user) {
        this.in = new BufferedReader(new InputStreamReader(env.in(), StandardCharsets.UTF_8));
        this.err = env.err();
        this.user = user;
    }

    /**
     * Decides every pending action of {@code runId}.
     *
     * @return false when input ended before every action was decided (the run stays waiting)
     */
    boolean decideAll(Runs runs, String runId) throws IOException {
        // Identical calls of one response share a hash and are decided together (ApprovalState.decide),
        // so one question per distinct action: asking again would only be refused as already decided.
        Set<String> asked = new HashSet<>();
        for (ApprovalRequest request : runs.pending(runId)) {
            if (asked.add(request.actionHash()) && !decide(runs, runId, request)) {
                return false;
            }
        }
        return true;
    }

    private boolean decide(Runs runs, String runId, ApprovalRequest request) throws IOException {
        err.println();
        err.println("The agent wants to run an action that needs your approval:");
        // The tool and its arguments come from the model: shown with every control character made visible.
        err.println(Text.visibleLines(request.describe().strip()).indent(2).stripTrailing());
        while (true) {
            String answer = ask("Approve? [y]es / [n]o / [e]dit arguments: ");
            if (answer == null) {
                return false;
            }
            try {
                switch (answer.strip().toLowerCase(java.util.Locale.ROOT)) {
                    case "y", "yes" -> runs.approve(runId, request.actionHash(), user);
                    case "n", "no" -> {
                        String reason = ask("Reason (the agent sees it): ");
                        if (reason == null) {
                            return false;
                        }
                        runs.reject(runId, request.actionHash(), reason.isBlank() ? "rejected by " + user : reason.strip(), user);
                    }
                    case "e", "edit" -> {
                        String json = ask("New arguments as JSON on one line: ");
                        if (json == null) {
                            return false;
                        }
                        runs.edit(runId, request.actionHash(), Json.parseWhole(json), user);
                    }
                    default -> {
                        err.println("Please answer y, n or e.");
                        continue;
                    }
                }
                return true;
            } catch (ReinException e) {
                err.println("Not accepted: " + Text.visible(Errors.oneLine(e.getMessage())));
            }
        }
    }

    private String ask(String prompt) throws IOException {
        err.print(prompt);
        err.flush();
        return in.readLine();
    }
}
