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

    /**
     * A command set off in the middle of a sentence (rein-cli's SuggestedCommand, rein-store-jdbc's forget hint) is in
     * quotes it does not hold: single ones when it holds none; double ones when it holds a single quote and nothing a shell
     * reads inside double quotes; bare when it holds both kinds' specials, as no quote could set it off.
     */
    @Test
    void aCommandIsSetOffInQuotesItDoesNotHold() {
        assertThat(ShellWords.setOff("rein show run_1")).isEqualTo("'rein show run_1'");
        assertThat(ShellWords.setOff("rein show \"my run\"")).isEqualTo("'rein show \"my run\"'");
        assertThat(ShellWords.setOff("rein show -- -r1")).isEqualTo("'rein show -- -r1'");
        assertThat(ShellWords.setOff("rein show 'run_1\\x1b[2Jold'")).isEqualTo("\"rein show 'run_1\\x1b[2Jold'\"");
        assertThat(ShellWords.setOff("rein memory forget --user 'o'\\''brien' m1"))
                .isEqualTo("\"rein memory forget --user 'o'\\''brien' m1\"");
        for (String special : new String[] {"\"", "$", "`", "!", "\\\\"}) {
            String command = "rein show 'it'\\''s " + special + "5'";
            assertThat(ShellWords.setOff(command)).as(special).isEqualTo(command);
        }
    }

    /**
     * Inside double quotes sh reads {@code \\} as {@code \}: a command holding two backslashes in a row, set off in
     * double quotes and pasted, names another id ({@code 'x\\y'} became {@code 'x\y'}). It is given bare, and pasted bare
     * the shell reads the id itself. A lone backslash before another character sh keeps inside double quotes ({@code \x1b}
     * as shown) stays in them. Before, both were double-quoted.
     */
    @Test
    void aCommandHoldingABackslashThatDoubleQuotesWouldEatIsGivenBare() throws Exception {
        for (String id : List.of("x\\\\y", "it's x\\\\y", "it's x\\\\\\\\y", "o'brien\\\\")) {
            String command = "rein show " + RunIds.shellWord(id);
            assertThat(ShellWords.setOff(command)).as(command).isEqualTo(command);
            Process sh = new ProcessBuilder("sh", "-c", "printf '%s|' " + command).redirectErrorStream(true).start();
            String back = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            sh.waitFor();
            assertThat(back).as(command).isEqualTo("rein|show|" + id + "|");
        }
        assertThat(ShellWords.setOff("rein show 'it'\\''s x\\y'")).isEqualTo("\"rein show 'it'\\''s x\\y'\"");
    }

    /** Pasted with the quotes set around it, a command set off in quotes is one word a shell gives back as it is: nothing of it runs. */
    @Test
    void aCommandSetOffInQuotesIsOneWordTheShellRunsNothingOf() throws Exception {
        for (String id : List.of("run_1", "my run", "run_1\\x1b[2Jold", "-r1", "a;b", "x\\y", "it's x\\y")) {
            String command = "rein show " + RunIds.shellWord(id);
            String setOff = ShellWords.setOff(command);
            assertThat(setOff).as(command).isNotEqualTo(command);
            Process sh = new ProcessBuilder("sh", "-c", "printf '%s|' " + setOff).redirectErrorStream(true).start();
            String back = new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            sh.waitFor();
            assertThat(back).as(setOff).isEqualTo(command + "|");
        }
    }
}
