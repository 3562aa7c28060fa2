package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Shortening, amounts and the JSON result, without starting anything. */
class FormattingTest {
    @Test
    void shortenSaysHowMuchWasLeftOutAndNeverSplitsACharacter() {
        assertThat(Text.shorten("short", 10)).isEqualTo("short");
        assertThat(Text.shorten("  a\n\n b\tc  ", 10)).isEqualTo("a b c");
        assertThat(Text.shorten("0123456789abc", 10)).isEqualTo("0123456789… (+3 chars)");
        assertThat(Text.shorten("0123456789a", 10)).isEqualTo("0123456789… (+1 char)");
        // Code points, not UTF-16 units: an emoji or a rare kanji is never cut in half.
        String text = "𠮷".repeat(5);
        assertThat(Text.shorten(text, 2)).isEqualTo("𠮷𠮷… (+3 chars)");
        assertThat(Text.shorten(null, 5)).isEmpty();
    }

    /**
     * A control character is shown as its escape whole or not at all, and the count is of the text's characters left out,
     * not of the escapes' letters. Before: the escaped line was cut, so 'abc\x1bdef' became "abc\x… (+5 chars)", a
     * fragment that reads as the text '\x' with five characters after it where four (ESC, d, e, f) were left out.
     */
    @Test
    void shortenNeverCutsAnEscapeAndCountsTheCharactersOfTheText() {
        assertThat(Text.shorten("abc\u001bdef", 5)).isEqualTo("abc… (+4 chars)");
        assertThat(Text.shorten("abc\u001bdef", 7)).isEqualTo("abc\\x1b… (+3 chars)");
        assertThat(Text.shorten("abc\u001bdef", 10)).isEqualTo("abc\\x1bdef");
        // a zero-width joiner (Unicode's Cf) is shown as its escape: six letters for one character of the goal
        assertThat(Text.shorten("家族👨\u200d👩\u200d👧です", 6)).isEqualTo("家族👨… (+6 chars)");
        assertThat(Text.shorten("佐藤さん\u202eに連絡", 10)).isEqualTo("佐藤さん\\u202e… (+3 chars)");
    }

    @Test
    void amountsAndDurationsForPeople() {
        assertThat(Text.usd(new BigDecimal("0.00066"))).isEqualTo("$0.0007");
        assertThat(Text.usd(new BigDecimal("1.5"))).isEqualTo("$1.5000");
        assertThat(Text.millis(850)).isEqualTo("850 ms");
        assertThat(Text.millis(12_345)).isEqualTo("12.3 s");
    }

    @Test
    void jsonCostIsAPlainNumberEvenWhenTiny() {
        RunResult tiny = result(new BigDecimal("0.000000150"));
        assertThat(ResultJson.write(tiny)).contains("\"cost_usd\":0.00000015}").doesNotContain("E-");
        assertThat(ResultJson.write(result(BigDecimal.ZERO))).contains("\"cost_usd\":0}");
    }

    @Test
    void exitCodesCoverEveryStatus() {
        assertThat(ExitCodes.of(RunStatus.SUCCEEDED)).isZero();
        assertThat(ExitCodes.of(RunStatus.FAILED)).isEqualTo(1);
        assertThat(ExitCodes.of(RunStatus.STOPPED_BUDGET)).isEqualTo(3);
        assertThat(ExitCodes.of(RunStatus.WAITING_APPROVAL)).isEqualTo(4);
        assertThat(ExitCodes.of(RunStatus.CANCELLED)).isEqualTo(5);
        assertThat(ExitCodes.USAGE).isEqualTo(2);
    }

    @Test
    void errorMessagesAreFoldedOntoOneLine() {
        assertThat(Errors.oneLine("first\n  second\r\nthird\n")).isEqualTo("first; second; third");
    }

    private static RunResult result(BigDecimal cost) {
        return new RunResult("run_1", RunStatus.SUCCEEDED, "completed", "done", "42", 1, Usage.of(1, 1, 0, 0), cost,
                Duration.ofMillis(5), null, List.of());
    }

    /**
     * A name refused for {@code --as} is shown with its escapes whole and its own characters counted; its tab stays a tab's
     * escape. Before: the escaped name was cut ("ab\\x…") and the escapes' letters counted (+80 for a name of 60).
     */
    @Test
    void aRefusedAsNameIsCutWithoutCuttingAnEscape() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> DeciderName.of("ab\u0007".repeat(20), null)))
                .hasMessage("--as must be a name of at most 200 characters without control characters, got '"
                        + "ab\\x07".repeat(6) + "ab… (+40 chars)'");
        assertThat(Text.shortenVisible("a\tb\n c", 40)).isEqualTo("a\\x09b\\x0a c");
    }
}
