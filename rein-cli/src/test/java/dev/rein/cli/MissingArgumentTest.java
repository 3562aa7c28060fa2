package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command line without a required argument, or without an option's value, says what to give and how, for every command.
 * Before: picocli's bare "Missing required parameter: 'RUN'" (rein approve, reply, show, resume, run, index, replay,
 * mcp list, memory forget) and "Missing required parameter for option '--reject' (REASON)", unlike rein eval and rein
 * example, which said what to give with an example.
 */
class MissingArgumentTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void approveWithoutRunSaysWhatToGiveWithAnExample() {
        InProcessCli.Outcome outcome = cli.run("approve");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein approve: give RUN, the run id (see 'rein runs'), e.g. rein approve"
                + " run_3f1c9a7e5b2d4c8e6a0b (see 'rein approve --help')");
    }

    @Test
    void replyWithoutTextKeepsWhatWasTypedInItsExample() {
        assertThat(cli.run("reply", "--json", "run_1").stderrLines()).containsExactly("rein reply: give TEXT, the reply: the answer"
                + " to the run's question, or a follow-up, e.g. rein reply --json run_1 \"Room B, please\" (see 'rein reply --help')");
        assertThat(cli.run("reply").stderrLines()).containsExactly("rein reply: give RUN, the run id (see 'rein runs'), and TEXT,"
                + " the reply: the answer to the run's question, or a follow-up, e.g. rein reply run_3f1c9a7e5b2d4c8e6a0b"
                + " \"Room B, please\" (see 'rein reply --help')");
    }

    @Test
    void anOptionWithoutItsValueSaysWhatToGiveWithAnExample() {
        assertThat(cli.run("approve", "run_1", "--reject").stderrLines()).containsExactly("rein approve: --reject needs its REASON:"
                + " reject the action (e.g. --reject \"wrong recipient\") (see 'rein approve --help')");
        assertThat(cli.run("run", "hi", "--max-steps").stderrLines()).containsExactly("rein run: --max-steps needs its N: most model"
                + " calls that may propose actions (e.g. --max-steps 10) (see 'rein run --help')");
    }

    /**
     * An option with a long help description is told by its first clause, the example in parentheses. Before: the whole
     * description, e.g. --thinking's five lines of values, models and billing, then ", e.g. --thinking adaptive".
     */
    @Test
    void anOptionWithALongDescriptionIsToldByItsFirstClause() {
        assertThat(cli.run("run", "hi", "--thinking").stderrLines()).containsExactly("rein run: --thinking needs its"
                + " adaptive|between_tools|N: let Claude think before answering (e.g. --thinking adaptive) (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--provider").stderrLines()).containsExactly("rein run: --provider needs its NAME: the model"
                + " provider: anthropic or openai (e.g. --provider openai) (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--mcp").stderrLines()).containsExactly("rein run: --mcp needs its FILE: MCP servers file:"
                + " their tools are offered next to the agent's own (e.g. --mcp mcp.json) (see 'rein run --help')");
        assertThat(cli.run("eval", "suite.yaml", "--mcp").stderrLines()).containsExactly("rein eval: --mcp needs its FILE: MCP servers"
                + " file (e.g. --mcp mcp.json) (see 'rein eval --help')");
    }

    /**
     * A word beyond those a command takes says which and what the command takes, with an example. Before: picocli's
     * "Unmatched argument at index 2: 'b'".
     */
    @Test
    void anArgumentTooManySaysWhatTheCommandTakes() {
        assertThat(cli.run("show", "run_1", "b").stderrLines()).containsExactly("rein show: 'b' is one argument too many: rein show"
                + " takes RUN, the run id (see 'rein runs'), e.g. rein show run_3f1c9a7e5b2d4c8e6a0b (quote a value that has"
                + " spaces) (see 'rein show --help')");
        assertThat(cli.run("index", "docs", "more", "files").stderrLines()).containsExactly("rein index: 'more', 'files' are 2"
                + " arguments too many: rein index takes DIR, the folder to index (searched recursively), e.g. rein index docs/"
                + " (quote a value that has spaces) (see 'rein index --help')");
        InProcessCli.Outcome runs = cli.run("runs", "all");
        assertThat(runs.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(runs.stderrLines()).containsExactly("rein runs: 'all' is one argument too many: rein runs takes no argument,"
                + " only options (see 'rein runs --help')");
    }

    /** Every command, and every option that takes a value: no bare picocli message, exit 2, one line with an example. */
    @Test
    void everyCommandAndEveryOptionSaysWhatToGive() {
        List<String> checked = new ArrayList<>();
        // only the commands' specs are read from this one; each line runs in the CLI
        CliEnvironment env = new CliEnvironment(System.out, System.err, java.util.Map.of(), Terminal.NONE, (name, e) -> null, false);
        walk(Rein.commandLine(env), checked);
        assertThat(checked).contains("rein approve", "rein reply", "rein show", "rein resume", "rein run", "rein index",
                "rein replay", "rein mcp list", "rein memory forget", "rein approve --reject", "rein run --max-steps");
    }

    private void walk(CommandLine commandLine, List<String> checked) {
        CommandLine.Model.CommandSpec spec = commandLine.getCommandSpec();
        List<String> path = new ArrayList<>(List.of(spec.qualifiedName().split(" ")).subList(1, spec.qualifiedName().split(" ").length));
        if (!spec.positionalParameters().isEmpty() && spec.positionalParameters().stream().anyMatch(p -> p.arity().min() > 0)
                && spec.subcommands().isEmpty()) {
            check(path, spec.qualifiedName(), "give ", "e.g. " + spec.qualifiedName() + " ");
            checked.add(spec.qualifiedName());
        }
        for (CommandLine.Model.OptionSpec option : spec.options()) {
            if (option.arity().max() == 0 || option.usageHelp() || option.versionHelp()) {
                continue;
            }
            List<String> args = new ArrayList<>(path);
            args.add(option.longestName());
            check(args, spec.qualifiedName(), option.longestName() + " needs its " + option.paramLabel() + ": ",
                    " (e.g. " + option.longestName() + " ");
            checked.add(spec.qualifiedName() + " " + option.longestName());
        }
        commandLine.getSubcommands().values().stream().distinct()
                .filter(sub -> !sub.getCommandSpec().name().equals("help"))
                .forEach(sub -> walk(sub, checked));
    }

    private void check(List<String> args, String command, String start, String example) {
        InProcessCli.Outcome outcome = cli.run(args.toArray(String[]::new));
        String line = String.join(" ", args);
        assertThat(outcome.exitCode()).as(line).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).as(line).singleElement().asString()
                .startsWith(command + ": " + start).contains(example).doesNotContain("Missing required")
                // a clause of the help, not all of it: the longest, --max-cost-usd's, is 209 characters with the help's name
                .hasSizeLessThanOrEqualTo(220);
    }
}
