package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.text.ShellWords;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A word a suggested command carries ({@link ShellWords#word}, {@link CliHome#shellIdAsItIs}) as a shell reads it back. */
class ShellWordTest {

    /**
     * zsh expands a word that starts with '=' to the path of the command it names ('=ls' is /usr/bin/ls), so such a word
     * is quoted. Before: shellWord gave '=ls' bare.
     */
    @Test
    void aWordStartingWithEqualsIsQuoted() throws Exception {
        assertThat(ShellWords.word("=ls")).isEqualTo("\"=ls\"");
        assertThat(ShellWords.word("a=b")).as("'=' inside a word stays bare: zsh expands it only first").isEqualTo("a=b");
        assertThat(ParsedBack.sh(ShellWords.word("=ls"))).containsExactly("=ls");
    }

    /** shellIdAsItIs's single quotes and its $'...' escapes give back the id itself, as shellWord does. */
    @Test
    void eachFormIsReadBackAsTheWordItself() throws Exception {
        for (String word : List.of("my run", "it's", "say \"hi\"", "$HOME", "a!b", "x\\y", "=ls", "#c", "~x", "{a,b}", "a;b")) {
            assertThat(ParsedBack.sh(ShellWords.word(word))).as(word).containsExactly(word);
            assertThat(ParsedBack.sh(CliHome.shellIdAsItIs(word))).as(word).containsExactly(word);
        }
        assertThat(CliHome.shellIdAsItIs("it's")).isEqualTo("'it'\\''s'");
        assertThat(CliHome.shellIdAsItIs("run_1\u001b[2Jold")).isEqualTo("$'run_1\\x1b[2Jold'");
        assertThat(CliHome.shellIdAsItIs("run\u200bx")).isEqualTo("$'run\\u200bx'");
        assertThat(CliHome.shellIdAsItIs("-r1")).isEqualTo("-- '-r1'");
    }

    /**
     * A run id in a hint is quoted by one rule with rein-core's messages ({@link dev.rein.internal.text.RunIds#shellWord}).
     * Before, CliHome kept its own copy, which gave half a surrogate pair as it was (printed as '?', naming another run)
     * where core's shows it as the escape \ud83d.
     */
    @Test
    void aRunIdInAHintIsQuotedAsCoresMessagesQuoteIt() {
        // the words core's RunIds.shellWord gives (ShellWordsTest), pinned as printed, not compared with themselves
        assertThat(CliHome.shellId("run_1")).isEqualTo("run_1");
        assertThat(CliHome.shellId("-r1")).isEqualTo("-- -r1");
        assertThat(CliHome.shellId("=ls")).isEqualTo("\"=ls\"");
        assertThat(CliHome.shellId("my run")).isEqualTo("\"my run\"");
        assertThat(CliHome.shellId("it's $x")).isEqualTo("'it'\\''s $x'");
        assertThat(CliHome.shellId("-x\udc00")).isEqualTo("-- '-x\\udc00'");
        assertThat(CliHome.shellId("run_\ud83d")).isEqualTo("'run_\\ud83d'");
        assertThat(CliHome.shellId("run_1\u001b[2Jold")).isEqualTo("'run_1\\x1b[2Jold'");
    }
}
