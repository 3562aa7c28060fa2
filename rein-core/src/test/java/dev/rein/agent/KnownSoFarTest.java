package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.state.AttemptedAction;
import java.util.List;
import org.junit.jupiter.api.Test;

class KnownSoFarTest {
    @Test
    void aReasonThatEndsInAFullStopGetsNoSecondOne() {
        assertThat(KnownSoFar.describe("the model provider failed (HTTP 413): request exceeds 32 MB.", List.of()))
                .isEqualTo("Stopped before the task was finished: the model provider failed (HTTP 413): request exceeds 32 MB.");
        assertThat(KnownSoFar.describe("the step limit of 3 was reached", List.of()))
                .isEqualTo("Stopped before the task was finished: the step limit of 3 was reached.");
    }

    @Test
    void aJapaneseReasonThatEndsInAFullStopGetsNoLatinOneAfterIt() {
        // a provider or local server answering in Japanese: '。' ends the sentence as '.' does ("です。." before)
        assertThat(KnownSoFar.describe("the model provider failed (HTTP 400): リクエストが大きすぎます。", List.of()))
                .isEqualTo("Stopped before the task was finished: the model provider failed (HTTP 400): リクエストが大きすぎます。");
        assertThat(KnownSoFar.describe("the model provider failed: 入力が不正です．", List.of()))
                .isEqualTo("Stopped before the task was finished: the model provider failed: 入力が不正です．");
    }

    @Test
    void aCallWhoseIdTheModelRepeatedAndThatTheDeadlineStoppedIsCountedAsRefused() {
        // the loop tells calls of one response that share an id apart ("call_0#1"); the history keeps the model's ids
        List<Message> history = List.of(Message.user("go"), Message.user(List.of(
                new ToolResultBlock("call_0", "42", false),
                new ToolResultBlock("call_0", "The run's deadline has passed; tool 'send' was not called.", true))));
        List<AttemptedAction> attempts = List.of(
                new AttemptedAction(1, "call_0", "lookup", "h1", "NONE", false),
                new AttemptedAction(1, "call_0#1", "send", "h2", "TIMEOUT", true));

        assertThat(KnownSoFar.describe("the run's deadline passed", history, attempts))
                .contains("Tool calls made: 1 (lookup).")
                .contains("Tool calls refused before they ran: 1 (send).");
    }

    /**
     * A run that called the same tools many times (a research run stopped at its deadline after 150
     * searches) names each tool once with how many calls it had, in the order first called, where
     * the answer listed every call's tool, 150 names long.
     */
    @Test
    void repeatedToolsAreNamedOnceWithTheirCount() {
        List<Message> history = List.of(Message.user("go"));
        java.util.List<AttemptedAction> attempts = new java.util.ArrayList<>();
        for (int i = 0; i < 150; i++) {
            attempts.add(new AttemptedAction(1 + i / 10, "c" + i, i % 3 == 2 ? "fetch_page" : "search", "h" + i, "NONE", false));
        }
        attempts.add(new AttemptedAction(16, "c150", "calculate", "h150", "NONE", false));
        attempts.add(new AttemptedAction(16, "c151", "send", "h151", "LIMIT_REACHED", true));
        attempts.add(new AttemptedAction(16, "c152", "send", "h152", "LIMIT_REACHED", true));

        assertThat(KnownSoFar.describe("the time limit of 5 min was reached", history, attempts))
                .contains("Tool calls made: 151 (search ×100, fetch_page ×50, calculate).")
                .contains("Tool calls refused before they ran: 2 (send ×2).");
    }
}
