package dev.rein.internal.context;

import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks the invariants a provider enforces on a conversation, so an edit that would break them is
 * caught before the request is sent: the first message is the user's; every tool_result answers a
 * tool_use of the immediately preceding assistant message; an assistant message's tool uses are
 * each answered exactly once in the next message (the last message may still be waiting for its
 * results); tool results come before any other block of their message; tool use ids are unique.
 */
public final class HistoryValidator {
    private HistoryValidator() {}

    /** The problems found, one sentence each; empty when the history is valid. */
    public static List<String> problems(List<Message> history) {
        List<String> problems = new ArrayList<>();
        if (history.isEmpty()) {
            problems.add("the history is empty");
            return problems;
        }
        if (history.get(0).role() != Role.USER) {
            problems.add("the first message is not the user's");
        }
        Set<String> useIds = new HashSet<>();
        for (int i = 0; i < history.size(); i++) {
            Message message = history.get(i);
            for (ToolUseBlock use : message.toolUses()) {
                if (!useIds.add(use.id())) {
                    problems.add("message " + i + ": tool_use id " + use.id() + " is used twice");
                }
            }
            Set<String> expected = i > 0 ? ids(history.get(i - 1)) : Set.of();
            checkResults(i, message, expected, problems);
            if (message.role() == Role.ASSISTANT && !message.toolUses().isEmpty() && i + 1 < history.size()) {
                Set<String> answered = resultIds(history.get(i + 1));
                for (String id : ids(message)) {
                    if (!answered.contains(id)) {
                        problems.add("message " + i + ": tool_use " + id + " has no tool_result in the next message");
                    }
                }
            }
        }
        return problems;
    }

    /** True when {@link #problems} finds nothing. */
    public static boolean isValid(List<Message> history) {
        return problems(history).isEmpty();
    }

    private static void checkResults(int index, Message message, Set<String> expected, List<String> problems) {
        boolean otherSeen = false;
        Set<String> seen = new HashSet<>();
        for (ContentBlock block : message.content()) {
            if (!(block instanceof ToolResultBlock result)) {
                otherSeen = true;
                continue;
            }
            String id = result.toolUseId();
            if (message.role() != Role.USER) {
                problems.add("message " + index + ": tool_result " + id + " is not in a user message");
            } else if (!expected.contains(id)) {
                problems.add("message " + index + ": tool_result " + id + " does not answer a tool_use of the previous message");
            }
            if (!seen.add(id)) {
                problems.add("message " + index + ": tool_use " + id + " is answered twice");
            }
            if (otherSeen) {
                problems.add("message " + index + ": tool_result " + id + " comes after other content");
            }
        }
    }

    private static Set<String> ids(Message message) {
        Set<String> ids = new LinkedHashSet<>();
        if (message.role() == Role.ASSISTANT) {
            message.toolUses().forEach(u -> ids.add(u.id()));
        }
        return ids;
    }

    private static Set<String> resultIds(Message message) {
        Set<String> ids = new HashSet<>();
        for (ContentBlock block : message.content()) {
            if (block instanceof ToolResultBlock r) {
                ids.add(r.toolUseId());
            }
        }
        return ids;
    }
}
