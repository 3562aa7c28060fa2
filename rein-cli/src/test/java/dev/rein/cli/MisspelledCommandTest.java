package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A command name that is not one: one line naming it, the likely command, and no picocli jargon. */
class MisspelledCommandTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void aMisspelledCommandIsNamedAsAnUnknownCommandWithTheLikelyOne() {
        InProcessCli.Outcome outcome = cli.run("runn", "x");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderr().strip()).isEqualTo("rein: unknown command 'runn'; did you mean run or runs? (see 'rein --help')");
    }

    @Test
    void swappedLettersAreSuggestedToo() {
        InProcessCli.Outcome outcome = cli.run("rnu", "hi");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderr().strip()).isEqualTo("rein: unknown command 'rnu'; did you mean run? (see 'rein --help')");
        assertThat(cli.run("dmeo").stderr().strip()).isEqualTo("rein: unknown command 'dmeo'; did you mean demo? (see 'rein --help')");
    }

    @Test
    void aWordLikeNoCommandListsTheCommands() {
        InProcessCli.Outcome outcome = cli.run("frobnicate");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderr().strip()).startsWith("rein: unknown command 'frobnicate'; the commands are: run, demo, runs, show,")
                .endsWith(" (see 'rein --help')")
                .doesNotContain("__warmup");
    }

    @Test
    void aMisspelledSubcommandOfMemoryIsNamedTheSameWay() {
        InProcessCli.Outcome outcome = cli.run("memory", "lsit");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderr().strip()).isEqualTo("rein memory: unknown command 'lsit'; did you mean list? (see 'rein memory --help')");
    }

    /**
     * picocli does not check the words it could not match when --help is asked for: 'rein rnu --help' printed rein's own
     * help with exit 0, not a word that 'rnu' is no command. It is named as 'rein rnu' is.
     */
    @Test
    void helpAskedOfAMisspelledCommandNamesItAsUnknown() {
        InProcessCli.Outcome outcome = cli.run("rnu", "--help");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderr().strip()).isEqualTo("rein: unknown command 'rnu'; did you mean run? (see 'rein --help')");
        InProcessCli.Outcome memory = cli.run("memory", "lsit", "-h");
        assertThat(memory.exitCode()).isEqualTo(2);
        assertThat(memory.stderr().strip()).isEqualTo("rein memory: unknown command 'lsit'; did you mean list? (see 'rein memory --help')");
        assertThat(cli.run("run", "--help").exitCode()).isZero();
        assertThat(cli.run("--help").exitCode()).isZero();
    }

    @Test
    void helpForACommandThatDoesNotExistSuggestsTheLikelyOne() {
        InProcessCli.Outcome outcome = cli.run("help", "rnu");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderr().strip()).isEqualTo("rein: unknown command 'rnu'; did you mean run? (see 'rein --help')");
        assertThat(cli.run("help", "run").exitCode()).isZero();
    }

    @Test
    void helpGivenAWordBeyondTheCommandSaysWhichAndWhatToGive() {
        InProcessCli.Outcome outcome = cli.run("help", "run", "extra");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString().isEqualTo("rein help: 'extra' is one word too many: rein run has"
                + " no commands of its own, so give only the command whose help you want: rein help run (see 'rein help --help')");
        InProcessCli.Outcome option = cli.run("help", "run", "--json");
        assertThat(option.exitCode()).isEqualTo(2);
        assertThat(option.stdout()).isEmpty();
        assertThat(option.stderrLines()).singleElement().asString().startsWith("rein help: '--json' is one word too many: ");
    }

    @Test
    void helpNamesACommandOfACommandAndAMisspeltOneTheSameWayAsTheCommandItself() {
        InProcessCli.Outcome outcome = cli.run("help", "memory", "list");
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout()).contains("Usage: rein memory list");
        InProcessCli.Outcome misspelt = cli.run("help", "memory", "lsit");
        assertThat(misspelt.exitCode()).isEqualTo(2);
        assertThat(misspelt.stdout()).isEmpty();
        assertThat(misspelt.stderr().strip()).isEqualTo("rein memory: unknown command 'lsit'; did you mean list? (see 'rein memory --help')");
        assertThat(cli.run("help").stdout()).contains("Usage: rein ");
    }

    @Test
    void helpGivenAnOptionItDoesNotHaveSaysItTakesCommandNames() {
        InProcessCli.Outcome outcome = cli.run("help", "--json");
        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stdout()).isEmpty();
        // before: "'--json' is one word too many: rein takes no option here", though it was the only word
        assertThat(outcome.stderrLines()).singleElement().asString().isEqualTo("rein help: '--json' is not a command: rein help"
                + " takes the names of commands, e.g. rein help run or rein help memory list; the options of rein are in"
                + " 'rein --help' (see 'rein help --help')");
        assertThat(cli.run("help", "memory", "-x").stderr().strip()).startsWith("rein help: '-x' is not a command: ")
                .contains("the options of rein memory are in 'rein memory --help'");
    }
}
