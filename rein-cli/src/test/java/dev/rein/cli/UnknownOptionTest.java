package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * An option the command does not have: one line naming it (not its value), the likely option when one is close, the
 * command's --help, exit 2. Before: picocli's "Unknown options: '--limit', '5'", the option's value listed as an option.
 */
class UnknownOptionTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void anUnknownOptionIsNamedWithoutItsValue() {
        InProcessCli.Outcome outcome = cli.run("runs", "--limit", "5");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein runs: unknown option '--limit'; the options of rein runs are:"
                + " --json, --help, --version (see 'rein runs --help')");
    }

    @Test
    void aMisspelledOptionSuggestsTheLikelyOne() {
        assertThat(cli.run("run", "hi", "--max-step", "5").stderrLines()).containsExactly("rein run: unknown option"
                + " '--max-step'; did you mean --max-steps? (see 'rein run --help')");
        assertThat(cli.run("run", "--max-stpes=5", "hi").stderrLines()).containsExactly("rein run: unknown option"
                + " '--max-stpes'; did you mean --max-steps? (see 'rein run --help')");
        assertThat(cli.run("memory", "list", "--jsno").stderrLines()).containsExactly("rein memory list: unknown option"
                + " '--jsno'; did you mean --json? (see 'rein memory list --help')");
    }

    @Test
    void anUnknownShortOptionIsNamedToo() {
        InProcessCli.Outcome outcome = cli.run("show", "run_1", "-z");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().startsWith("rein show: unknown option '-z'; ")
                .endsWith(" (see 'rein show --help')").doesNotContain("Unknown options");
    }
}
