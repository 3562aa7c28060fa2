package dev.rein.internal.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryValidatorTest {
    private static ToolUseBlock use(String id) {
        return new ToolUseBlock(id, "t", Json.object());
    }

    private static ToolResultBlock result(String id) {
        return new ToolResultBlock(id, "r", false);
    }

    @Test
    void aNormalLoopHistoryIsValidIncludingAPendingLastCall() {
        List<Message> history = List.of(
                Message.user("goal"),
                Message.assistant(List.of(new TextBlock("checking"), use("a"), use("b"))),
                Message.user(List.of(result("a"), result("b"), new TextBlock("[rein] note"))),
                Message.assistant(List.of(use("c"))));
        assertThat(HistoryValidator.problems(history)).isEmpty();
    }

    @Test
    void everyBrokenPairingIsReported() {
        assertThat(HistoryValidator.problems(List.of())).containsExactly("the history is empty");
        assertThat(HistoryValidator.problems(List.of(Message.assistant(List.of(new TextBlock("hi"))))))
                .containsExactly("the first message is not the user's");
        assertThat(HistoryValidator.problems(List.of(Message.user("g"), Message.assistant(List.of(use("a"), use("b"))),
                Message.user(List.of(result("a"))))))
                .containsExactly("message 1: tool_use b has no tool_result in the next message");
        assertThat(HistoryValidator.problems(List.of(Message.user("g"), Message.assistant(List.of(new TextBlock("x"))),
                Message.user(List.of(result("z"))))))
                .containsExactly("message 2: tool_result z does not answer a tool_use of the previous message");
        assertThat(HistoryValidator.problems(List.of(Message.user("g"), Message.assistant(List.of(use("a"))),
                Message.user(List.of(new TextBlock("first"), result("a"))))))
                .containsExactly("message 2: tool_result a comes after other content");
        assertThat(HistoryValidator.problems(List.of(Message.user("g"), Message.assistant(List.of(use("a"))),
                Message.user(List.of(result("a"), result("a"))))))
                .containsExactly("message 2: tool_use a is answered twice");
        assertThat(HistoryValidator.problems(List.of(Message.user("g"), Message.assistant(List.of(use("a"))),
                Message.user(List.of(result("a"))), Message.assistant(List.of(use("a"))))))
                .containsExactly("message 3: tool_use id a is used twice");
    }
}
