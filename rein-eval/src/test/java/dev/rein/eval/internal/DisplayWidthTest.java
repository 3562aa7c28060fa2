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

    /**
     * Before: a cluster's width was the sum of its code points': a flag (two regional indicators) 4, a family joined by
     * U+200D 6, 👍🏽 4, and ☺ with U+FE0F (shown as a picture) 1; terminals show each as one picture of two columns. So the
     * bar cut 🇯🇵abc at 3 columns to half a flag.
     */
    @Test
    void anEmojiSequenceIsOneClusterOfTwoColumns() {
        String flag = "\uD83C\uDDEF\uD83C\uDDF5";
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67";
        assertThat(DisplayWidth.of(flag)).isEqualTo(2);
        assertThat(DisplayWidth.of(family)).isEqualTo(2);
        assertThat(DisplayWidth.of("\uD83D\uDC4D\uD83C\uDFFD")).as("thumbs up, medium skin tone").isEqualTo(2);
        assertThat(DisplayWidth.of("\u263A\uFE0F")).as("☺ shown as a picture").isEqualTo(2);
        assertThat(DisplayWidth.of("\u263A\uFE0E")).as("☺ shown as text").isEqualTo(1);
        assertThat(DisplayWidth.of("a" + flag + "b")).isEqualTo(4);
        assertThat(DisplayWidth.of("\u0939\u093F")).as("a spacing mark still takes its column").isEqualTo(2);
    }
}
