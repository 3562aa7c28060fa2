package dev.rein.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
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
                "テ\u3099スト", "𠮷野家"}) {
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

    private static void assertRefused(String id, String why) {
        assertThatThrownBy(() -> task(id)).isInstanceOf(ReinException.class).hasMessageContaining(why)
                .hasMessageContaining("use 1-80 letters or digits (of any script)");
    }
}
