package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

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
}
