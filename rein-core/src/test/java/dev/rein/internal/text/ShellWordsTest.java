package dev.rein.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One rule for the run ids of suggested commands, in core's messages and in rein-cli's hints. Before (rev99), core kept a
 * copy of rein-cli's older rule: an application's id {@code -r1} was printed {@code rein show -r1}, which reads as an
 * option, and {@code =ls} bare, which zsh expands to a command's path.
 */
class ShellWordsTest {
    @Test
    void aRunIdIsQuotedForAPosixShellAndPutAfterDoubleDashWhenItStartsWithADash() {
        assertThat(RunIds.shellWord("run_3f1c")).isEqualTo("run_3f1c");
        assertThat(RunIds.shellWord("-r1")).isEqualTo("-- -r1");
        assertThat(RunIds.shellWord("--help")).isEqualTo("-- --help");
        assertThat(RunIds.shellWord("=ls")).isEqualTo("\"=ls\"");
        assertThat(RunIds.shellWord("order A 1")).isEqualTo("\"order A 1\"");
        assertThat(RunIds.shellWord("it's $x")).isEqualTo("'it'\\''s $x'");
        assertThat(RunIds.shellWord("-my $run's")).isEqualTo("-- '-my $run'\\''s'");
    }

    /** What a POSIX shell gives back for each printed word is the id itself (sh is on every machine the tests run on). */
    @Test
    void theShellReadsEachQuotedIdBackAsItWas() throws Exception {
        for (String id : List.of("run_1", "order \"A 1\"", "it's $HOME", "a`id`", "x\\y", "=ls", "実行 1", "a!b")) {
            Process sh = new ProcessBuilder("sh", "-c", "printf '%s' " + ShellWords.word(id)).redirectErrorStream(true).start();
            String back = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            sh.waitFor();
            assertThat(back).as(id).isEqualTo(id);
        }
    }
}
