package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WireTextTest {

    @Test
    void eachHalfOfASurrogatePairAloneBecomesTheReplacementCharacter() {
        assertThat(WireText.wellFormed("abc\uD83D")).isEqualTo("abc\uFFFD");
        assertThat(WireText.wellFormed("\uDE00abc")).isEqualTo("\uFFFDabc");
        assertThat(WireText.wellFormed("a\uDE00\uD83Db")).isEqualTo("a\uFFFD\uFFFDb"); // a pair in the wrong order
        assertThat(WireText.wellFormed("\uD83D\uD83D\uDE00")).isEqualTo("\uFFFD\uD83D\uDE00");
    }

    @Test
    void wellFormedTextIsTheSameInstance() {
        String text = "東京 \uD83D\uDE00 ok"; // Japanese and an emoji (a whole pair)
        assertThat(WireText.wellFormed(text)).isSameAs(text);
        assertThat(WireText.wellFormed("")).isSameAs("");
    }
}
