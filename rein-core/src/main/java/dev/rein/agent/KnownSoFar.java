package dev.rein.agent;

import dev.rein.internal.text.DeadlineRefusal;
import dev.rein.internal.text.Visible;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.state.AttemptedAction;
import dev.rein.tool.ErrorClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds an answer from the history alone, for stops where no further model call is possible. */
final class KnownSoFar {
    private KnownSoFar() {}

    /** As {@link #describe(String, List, List)} for a run that has not called a tool. */
    static String describe(String why, List<Message> history) {
        return describe(why, history, List.of());
    }

    /**
     * @param attempts the calls the executor answered ({@code AgentState.attemptedActions()}), in the
     *                 order they were answered: a call that was only proposed (say, by a summary call
     *                 that ignored tool_choice none) or that the stall guard blocked has none
     */
    static String describe(String why, List<Message> history, List<AttemptedAction> attempts) {
        String lastText = "";
        Map<String, String> results = new HashMap<>();
        for (Message message : history) {
            // a step's results come first in its message, in call order, under the model's ids: keyed as the
            // loop knows the calls, so that of two calls sharing an id each finds its own result
            Set<String> seen = new HashSet<>();
            int index = 0;
            for (ContentBlock block : message.content()) {
                switch (block) {
                    case TextBlock t when message.role() == Role.ASSISTANT && Visible.any(t.text()) -> lastText = t.text().strip();
                    case ToolResultBlock result -> results.put(AgentLoop.distinctId(result.toolUseId(), index++, seen), result.content());
                    default -> { }
                }
            }
        }
        List<String> made = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        int errors = 0;
        for (AttemptedAction a : attempts) {
            if (ran(a, results.get(a.callId()))) {
                made.add(a.tool());
                errors += a.isError() ? 1 : 0;
            } else {
                refused.add(a.tool());
            }
        }
        StringBuilder sb = new StringBuilder("Stopped before the task was finished: ").append(why);
        // the reason may quote a provider's message that ends in a full stop already (a Japanese one: 。 or ．)
        if (!why.endsWith(".") && !why.endsWith("。") && !why.endsWith("．")) {
            sb.append('.');
        }
        if (!made.isEmpty()) {
            sb.append(" Tool calls made: ").append(made.size()).append(" (").append(byTool(made)).append(')');
            sb.append(errors > 0 ? ", " + errors + " of them failed." : ".");
        }
        if (!refused.isEmpty()) {
            sb.append(" Tool calls refused before they ran: ").append(refused.size()).append(" (")
                    .append(byTool(refused)).append(").");
        }
        if (!lastText.isEmpty()) {
            sb.append(" The model's last message: ").append(lastText);
        }
        return sb.toString();
    }

    /**
     * Each tool once, in the order first called, with its count when called more than once
     * ("search ×100, fetch_page ×50, calculate"): a long run's answer would otherwise name every call.
     */
    private static String byTool(List<String> tools) {
        Map<String, Integer> counts = new java.util.LinkedHashMap<>();
        for (String tool : tools) {
            counts.merge(tool, 1, Integer::sum);
        }
        List<String> named = new ArrayList<>(counts.size());
        counts.forEach((tool, n) -> named.add(n == 1 ? tool : tool + " ×" + n));
        return String.join(", ", named);
    }

    /**
     * Whether the call's handler ran, by its result's error class (as the trace's tool_result names it):
     * Rein refused it (unknown tool, invalid arguments, scopes, a cap, a person's rejection, a guard)
     * or it was not called because the run's deadline had passed (Rein's own message says so).
     */
    private static boolean ran(AttemptedAction a, String content) {
        ErrorClass errorClass;
        try {
            errorClass = ErrorClass.valueOf(a.outcome());
        } catch (IllegalArgumentException | NullPointerException e) {
            return true; // an outcome this version does not know: say it was made, as before
        }
        return switch (errorClass) {
            case UNKNOWN_TOOL, INVALID_ARGUMENTS, PERMISSION_DENIED, LIMIT_REACHED, REJECTED, INTERVENTION, AWAITING_APPROVAL -> false;
            case TIMEOUT -> !DeadlineRefusal.isNotCalled(content);
            case NONE, EXECUTION_FAILED, TRANSIENT, CANCELLED, MISSING_SOURCE -> true;
        };
    }
}
