package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the examples' console shows of a long line: escapes whole, and the count of what was left out in the text's characters. */
class DisplayTest {
    /**
     * A control character's escape is shown whole or not at all, and the characters omitted are the text's, not the escapes'
     * letters. Before: the escaped line was cut, so an escape was cut in half ({@code \x1b\}) and 20 control characters
     * were said to be "70 characters omitted".
     */
    @Test
    void aLongLineIsCutBetweenWholeEscapesAndCountsTheTextsCharacters() {
        assertThat(Display.line("\u001b".repeat(20), 10)).isEqualTo("\\x1b … (18 characters omitted) … \\x1b");
        String text = "a\u001b[31mred" + "x".repeat(40) + "end\u001b[0m";
        assertThat(Display.line(text, 20)).isEqualTo("a\\x1b[31mr … (42 characters omitted) … end\\x1b[0m");
    }

    /** Japanese text is cut between whole characters and counted by them; a short line is whole. */
    @Test
    void japaneseTextIsCutBetweenWholeCharacters() {
        String text = "日本語のテキスト".repeat(10) + "𠮷野家";
        assertThat(Display.line(text, 10)).isEqualTo("日本語のテ … (73 characters omitted) … スト𠮷野家");
        assertThat(Display.line("会議は明日\n10時です", 40)).isEqualTo("会議は明日 ⏎ 10時です");
    }
}
