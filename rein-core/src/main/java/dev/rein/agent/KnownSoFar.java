package dev.rein.agent;

import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;

/** Builds an answer from the history alone, for stops where no further model call is possible. */
final class KnownSoFar {
    private KnownSoFar() {}

    static String describe(String why, List<Message> history) {
        String lastText = "";
        List<String> calls = new ArrayList<>();
        int errors = 0;
        for (Message message : history) {
            for (ContentBlock block : message.content()) {
                switch (block) {
                    case TextBlock t when message.role() == Role.ASSISTANT && !t.text().isBlank() -> lastText = t.text().strip();
                    case ToolUseBlock use -> calls.add(use.name());
                    case ToolResultBlock result when result.isError() -> errors++;
                    default -> { }
                }
            }
        }
        StringBuilder sb = new StringBuilder("Stopped before the task was finished: ").append(why).append('.');
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
