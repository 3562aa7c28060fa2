package dev.rein.eval.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The terminal columns of a character, as the progress bar and the text summary count them. */
class DisplayWidthTest {

    /**
     * Before: only emoji in U+1F300-1F64F, 1F680-1F6FF and 1F900-1F9FF took two columns, so ✅, ⌚, 🟠 and 🪐 (which
     * terminals show two columns wide, as Unicode's Emoji_Presentation says) were counted as one and a cut name overran.
     */
    @Test
    void everyEmojiShownAsAPictureByDefaultTakesTwoColumns() {
        for (int c : new int[] {0x2705, 0x231A, 0x1F7E0, 0x1FA90, 0x1F600}) {
            assertThat(DisplayWidth.of(c)).as("U+%04X", c).isEqualTo(2);
        }
        assertThat(DisplayWidth.of(0x263A)).as("☺ is text by default").isEqualTo(1);
        assertThat(DisplayWidth.of("a✅")).isEqualTo(3);
    }
}
