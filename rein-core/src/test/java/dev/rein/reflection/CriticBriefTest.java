package dev.rein.reflection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.run.FinalAnswer;
import java.util.List;
import org.junit.jupiter.api.Test;

class CriticBriefTest {
    @Test
    void abbreviatedEvidenceNeverCutsACharacterInTwo() {
        // 599 characters, then an emoji (two UTF-16 units) across the 600-character cut
        String result = "y".repeat(599) + "😀" + "z".repeat(100);
        List<Message> history = List.of(Message.user("goal"),
                Message.assistant(List.of(new ToolUseBlock("toolu_1", "read", Json.parse("{}")))),
                Message.user(List.of(new ToolResultBlock("toolu_1", result, false))));

        String brief = Critic.brief(new FinalAnswer("goal", "answer", null, history));

        assertThat(brief).contains("- read {} -> " + "y".repeat(599) + "😀...");
        for (int i = 0; i < brief.length(); i++) {
            char c = brief.charAt(i);
            assertThat(Character.isHighSurrogate(c) ? i + 1 < brief.length() && Character.isLowSurrogate(brief.charAt(i + 1))
                    : !Character.isLowSurrogate(c) || Character.isHighSurrogate(brief.charAt(i - 1)))
                    .as("no lone surrogate at %d", i).isTrue();
        }
    }
}
