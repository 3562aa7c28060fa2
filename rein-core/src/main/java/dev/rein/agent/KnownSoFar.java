package dev.rein.agent;

import dev.rein.internal.text.Visible;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Builds an answer from the history alone, for stops where no further model call is possible. */
final class KnownSoFar {
    private KnownSoFar() {}

    static String describe(String why, List<Message> history) {
        String lastText = "";
        List<String> calls = new ArrayList<>();
        int errors = 0;
        // A tool_use without a result never ran (e.g. proposed by a summary call that ignored
        // tool_choice none): it is not a call made.
        Set<String> answered = new HashSet<>();
        history.forEach(message -> message.content().forEach(block -> {
            if (block instanceof ToolResultBlock result) {
                answered.add(result.toolUseId());
            }
        }));
        for (Message message : history) {
            for (ContentBlock block : message.content()) {
                switch (block) {
                    case TextBlock t when message.role() == Role.ASSISTANT && Visible.any(t.text()) -> lastText = t.text().strip();
                    case ToolUseBlock use when answered.contains(use.id()) -> calls.add(use.name());
                    case ToolResultBlock result when result.isError() -> errors++;
                    default -> { }
                }
            }
        }
        StringBuilder sb = new StringBuilder("Stopped before the task was finished: ").append(why);
        // the reason may quote a provider's message that ends in a full stop already (a Japanese one: 。 or ．)
        if (!why.endsWith(".") && !why.endsWith("。") && !why.endsWith("．")) {
            sb.append('.');
        }
        if (!calls.isEmpty()) {
            sb.append(" Tool calls made: ").append(calls.size()).append(" (").append(String.join(", ", calls)).append(')');
            sb.append(errors > 0 ? ", " + errors + " of them failed." : ".");
        }
        if (!lastText.isEmpty()) {
            sb.append(" The model's last message: ").append(lastText);
        }
        return sb.toString();
    }
}
