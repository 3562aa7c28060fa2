package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.context.ClearToolResults;
import dev.rein.context.Compaction;
import org.junit.jupiter.api.Test;

/** A stall detector's or context policy's setting out of range says what to give (and the default), not only what was wrong. */
class SettingMessagesTest {

    @Test
    void aDetectorThresholdOutOfRangeSaysWhatToGiveAndHowToTurnTheDetectorOff() {
        assertThatThrownBy(() -> StallPolicy.builder().consecutiveErrors(1).build()).isInstanceOf(ReinException.class)
                .hasMessage("consecutive-errors count must be at least 2, was 1: give how many tool errors in a row make a"
                        + " stall (the default is 5), or turn the detector off with StallPolicy.Builder.without(\"consecutive_errors\")");
        assertThatThrownBy(() -> StallPolicy.builder().noProgress(0).build())
                .hasMessageEndingWith("(the default is 5), or turn the detector off with StallPolicy.Builder.without(\"no_progress\")");
        assertThatThrownBy(() -> StallPolicy.builder().nearDuplicates(0.9, 1).build())
                .hasMessageEndingWith("(the default is 3), or turn the detector off with StallPolicy.Builder.without(\"near_duplicate\")");
        assertThatThrownBy(() -> StallPolicy.builder().nearDuplicates(1.5, 3).build())
                .hasMessageEndingWith("1 for identical (the default is 0.9)");
        assertThatThrownBy(() -> StallPolicy.builder().exactRepeat(1, 0).build())
                .hasMessageEndingWith("(the default is 3, the third), or turn the detector off with StallPolicy.Builder.without(\"exact_repeat\")");
        assertThatThrownBy(() -> StallPolicy.builder().exactRepeat(3, 1).build())
                .hasMessageEndingWith(": give 0 to let polling tools repeat a call (the default), or which identical call of one to block");
        assertThatThrownBy(() -> StallPolicy.builder().alternation(1).build())
                .hasMessageEndingWith("(the default is 2), or turn the detector off with StallPolicy.Builder.without(\"alternation\")");
    }

    @Test
    void aContextPolicyTriggerOutOfRangeSaysWhatToGive() {
        assertThatThrownBy(() -> Compaction.client(0)).isInstanceOf(ReinException.class).hasMessage("the compaction trigger must be"
                + " positive, was 0: give the input tokens at which to compact the conversation (the default is 150000)");
        assertThatThrownBy(() -> ClearToolResults.client(-1, 3))
                .hasMessageEndingWith(": give the input tokens at which to clear old tool results (the default is 100000)");
    }
}
