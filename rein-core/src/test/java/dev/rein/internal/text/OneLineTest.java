package dev.rein.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OneLineTest {
    @Test
    void textIsOnOneLineWithItsControlsEscaped() {
        assertThat(OneLine.of("  upstream\n  overloaded \u001b[2J\u202e ", 1000)).isEqualTo("upstream overloaded \\x1b[2J\\u202e");
        assertThat(OneLine.of(" \n\t ", 1000)).isEmpty();
    }

    @Test
    void longTextIsCutSayingHowLongItWas() {
        assertThat(OneLine.of("x".repeat(1500), 1000)).isEqualTo("x".repeat(1000) + "... (1500 characters, cut to 1000)");
        assertThat(OneLine.of("x".repeat(1000), 1000)).isEqualTo("x".repeat(1000));
        // not between the halves of a surrogate pair
        String pairs = "x".repeat(9) + "😀".repeat(5);
        assertThat(OneLine.of(pairs, 10)).isEqualTo("x".repeat(9) + "... (19 characters, cut to 10)");
    }
}
