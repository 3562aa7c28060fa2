package dev.rein.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.eval.internal.TaskIds;
import org.junit.jupiter.api.Test;

/**
 * A task id names its trial traces (TASK.TRIAL.jsonl): letters and digits of any script are taken, what a file name
 * cannot hold is refused (its place counted from 0, as other messages count characters), and the length is counted in
 * characters (code points) and in UTF-8 bytes, never in chars. Before, only ASCII letters and digits were ids.
 */
class TaskIdTest {
    private static Task<Environment> task(String id) {
        return Task.<Environment>builder(id, () -> null).goal("g").agent((env, model) -> null).build();
    }

    @Test
    void lettersAndDigitsOfAnyScriptAreTaken() {
        for (String id : new String[] {"release-date", "注文確認", "返品.jsonl", "データ_2", "주문-3", "заказ.1", "٣طلب",
                "𠮷野家", "\u0105\u0301"}) { // ą́ has no composed form: its acute stays a mark
            assertThat(task(id).id()).isEqualTo(id);
        }
    }

    @Test
    void whatAFileNameCannotHoldIsRefusedNamingTheCharacter() {
        assertRefused("a/b", "it holds '/' at character 1");
        assertRefused("a\\b", "it holds '\\' at character 1");
        assertRefused("注文:確認", "it holds ':' at character 2");
        assertRefused("a b", "it holds ' ' at character 1");
        assertRefused("a\nb", "task id 'a\\x0ab' is invalid: it holds U+000A at character 1");
        assertRefused("a\u202eb", "it holds U+202E at character 1");
        assertRefused("-a", "it starts with '-'");
        assertRefused(".jsonl", "it starts with '.'");
        assertRefused("\u3099a", "it starts with U+3099");
        assertRefused("", "it is empty");
        assertRefused(null, "it is empty");
        assertRefused("a\ud83d", "half a UTF-16 surrogate pair");
        assertRefused("ab\u17B4", "it holds U+17B4 at character 2"); // a Khmer inherent vowel: shown as nothing
        assertRefused("ab\u17B5", "it holds U+17B5 at character 2");
    }

    /**
     * An id is in NFC, as typed: a decomposed テ\u3099ータ and a composed データ would be two ids of one suite, yet on a
     * Mac one trace file (its file system names files in one form), the second trial's trace written over the first's.
     * Before, both were taken.
     */
    @Test
    void anIdNotInNfcIsRefusedShowingItsComposedForm() {
        assertRefused("\u30C6\u3099\u30FC\u30BF", "task id '\u30C6\u3099\u30FC\u30BF' is invalid: it is not in Unicode's"
                + " normal form NFC, which writes U+30C6 U+3099 at character 0 as U+30C7: write it '\u30C7\u30FC\u30BF'");
        assertRefused("e\u0301\u001b", "it holds U+001B at character 2");
        assertThat(task("\u30C7\u30FC\u30BF").id()).isEqualTo("\u30C7\u30FC\u30BF");
    }

    /**
     * A character NFC writes as another that looks the same (the Ohm sign as Greek Omega, a CJK compatibility ideograph as
     * the unified one): nothing was decomposed, so the refusal names the code points to use. Before, it said "not in
     * composed form: write it 'Ω'", the same-looking character it was given.
     */
    @Test
    void aCharacterNfcWritesAsAnotherIsNamedByItsCodePoints() {
        assertRefused("ab\u2126", "it is not in Unicode's normal form NFC, which writes U+2126 at character 2 as U+03A9:"
                + " write it 'ab\u03A9'");
        assertRefused("\uF900x", "which writes U+F900 at character 0 as U+8C48: write it '\u8C48x'");
    }

    /**
     * Ids that differ only in case are one trace file on a file system that ignores case (macOS's default, Windows): the
     * second trial's trace would be written over the first's. Before, Suite took both.
     */
    @Test
    void idsThatDifferOnlyInCaseAreRefusedInOneSuite() {
        assertThatThrownBy(() -> Suite.builder("s").task(task("Release-Date")).task(task("release-date")).build())
                .isInstanceOf(ReinException.class)
                .hasMessage("suite 's': task id 'release-date' differs only in case from 'Release-Date': on a file system"
                        + " that ignores case (macOS, Windows) both are one trace file; task ids must be unique ignoring case");
        assertThatThrownBy(() -> Suite.builder("s").task(task("\u0394\u03B5\u03BB\u03C4\u03B1")).task(task("\u03B4\u03B5\u03BB\u03C4\u03B1")).build())
                .hasMessageContaining("differs only in case from");
        assertThat(Suite.builder("s").task(task("a")).task(task("b")).build().tasks()).hasSize(2);
    }

    /** A trace's name made into an id ({@link TaskIds#from}) is an id: in NFC even where a 't' goes before a first mark. */
    @Test
    void anIdMadeFromATraceNameIsInNfc() {
        assertThat(TaskIds.from("\u30C6\u3099\u30FC\u30BF", "")).isEqualTo("\u30C7\u30FC\u30BF");
        String made = TaskIds.from("\u0308x", "");
        assertThat(made).isEqualTo("\u1E97x"); // 't' and the diaeresis are one letter in NFC
        assertThat(TaskIds.problem(made)).isNull();
    }

    @Test
    void theLengthIsCountedInCharactersAndBytesNeverSplittingAPair() {
        assertThat(task("x".repeat(80)).id()).hasSize(80);
        assertRefused("x".repeat(81), "it has 81 characters");
        assertThat(task("注".repeat(66)).id()).hasSize(66); // 198 bytes
        assertRefused("注".repeat(67), "201 bytes in UTF-8");
        assertThat(task("𠮷".repeat(50)).id()).hasSize(100); // 50 characters, 200 bytes
        assertRefused("𠮷".repeat(51), "204 bytes in UTF-8");
    }

    /**
     * Before: CON, NUL, com1 were ids, though their trial traces (CON.1.jsonl) cannot be made on Windows, which keeps those
     * names for devices also before a '.'. An id ending in '.' is taken: it is never a file name alone (a..1.jsonl is one).
     */
    @Test
    void aNameWindowsKeepsForADeviceIsRefusedAlsoBeforeADot() {
        assertRefused("CON", "it is 'CON', a name Windows keeps for a device (CON, PRN, AUX, NUL, COM0-9, LPT0-9, in any case,"
                + " also before a '.'), so its trial traces (CON.1.jsonl) could not be written on Windows; rename it, e.g. 'CON_'"
                + " or 'CON-task'");
        assertRefused("Com1.retry", "so its trial traces (Com1.retry.1.jsonl) could not be written on Windows; rename it, e.g."
                + " 'Com1_.retry' or 'Com1-task.retry'");
        assertRefused("nul", "it is 'nul', a name Windows keeps");
        assertRefused("Com1.retry", "it is 'Com1', a name Windows keeps");
        assertRefused("lpt9", "it is 'lpt9', a name Windows keeps");
        for (String id : new String[] {"CONSOLE", "con_1", "com10", "auxiliary.x", "a.", "null"}) {
            assertThat(task(id).id()).isEqualTo(id);
        }
        assertThat(TaskIds.from("con", "")).isEqualTo("con_");
        assertThat(TaskIds.from("NUL.old", "")).isEqualTo("NUL_.old");
        assertThat(TaskIds.from("con", "-2")).isEqualTo("con-2");
        assertThat(TaskIds.problem(TaskIds.from("aux.x", ""))).isNull();
    }

    /** Before: a trace's name cut to 80 characters kept a letter and left its combining mark off (ą́ became ą). */
    @Test
    void anIdMadeFromALongTraceNameIsCutBetweenGraphemeClusters() {
        assertThat(TaskIds.from("x".repeat(79) + "\u0105\u0301y", "")).isEqualTo("x".repeat(79));
        assertThat(TaskIds.from("x".repeat(78) + "\u0105\u0301y", "")).isEqualTo("x".repeat(78) + "\u0105\u0301");
        assertThat(TaskIds.from("x".repeat(77) + "\u0105\u0301y", "-2")).isEqualTo("x".repeat(77) + "-2");
    }

    private static void assertRefused(String id, String why) {
        assertThatThrownBy(() -> task(id)).isInstanceOf(ReinException.class).hasMessageContaining(why)
                .hasMessageContaining("use 1-80 letters or digits (of any script)");
    }
}
