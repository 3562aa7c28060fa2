package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * An option the command does not have: one line naming it (not its value), the likely option when one is close, the
 * command's --help, exit 2. Before: picocli's "Unknown options: '--limit', '5'", the option's value listed as an option.
 */
class UnknownOptionTest {
    private final InProcessCli cli = new InProcessCli();

    /** Runs the commands hints offer: a model that answers at once, a key so that rein run gets that far. */
    private final InProcessCli hinted = new InProcessCli().env("ANTHROPIC_API_KEY", "test")
            .models((name, env) -> dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("ok")));

    /**
     * The message {@code args} get, after checking that each command it offers ("...: rein show r1 or rein show r2 (see",
     * "e.g. rein run ... (see")
     * works when run: it runs to the end, or gets as far as looking the run up in the store (there is none).
     */
    private String hintOf(String... args) {
        return hintGiving(null, args);
    }

    /**
     * {@link #hintOf}, and each offered command, parsed by picocli, gives the values {@code expected} lists for it in turn
     * ("RUN=[r1] TEXT=[hi there]", the options first as matched, then the positionals): a command that works but for
     * another run or another text fails. Null: any values.
     */
    private String hintGiving(List<String> expected, String... args) {
        String line = cli.run(args).stderrLines().getFirst();
        int at = Math.max(line.lastIndexOf(": rein ") + 2, line.lastIndexOf("e.g. rein ") + 5);
        int end = line.lastIndexOf(" (see '");
        assertThat(at).as(line).isPositive().isLessThan(end);
        List<String> commands = List.of(line.substring(at, end).split(" or (?=rein )"));
        if (expected != null) {
            assertThat(commands.stream().map(c -> ParsedBack.values(ParsedBack.shellWords(c))).toList()).as(line).isEqualTo(expected);
        }
        for (String command : commands) {
            List<String> words = ParsedBack.shellWords(command);
            InProcessCli.Outcome outcome = hinted.run(words.subList(1, words.size()).toArray(String[]::new));
            assertThat(outcome.exitCode() == ExitCodes.SUCCEEDED || outcome.stderr().contains("no run store")
                    || outcome.stderr().contains("there is no run '"))
                    .as(command + " -> " + outcome.stderr()).isTrue();
        }
        return line;
    }

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

    /**
     * An option more than two edits from the one meant ({@code --max-cost} for {@code --max-cost-usd}) is suggested by
     * picocli's own rule (options that begin as it does), narrowed to those it is the start of, or that are the start of
     * it. Before: the list of all 26 options of rein run, --max-cost-usd lost among them.
     */
    @Test
    void anOptionThatIsTheStartOfAnotherSuggestsIt() {
        InProcessCli.Outcome outcome = cli.run("run", "--max-cost", "1", "hi");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein run: unknown option '--max-cost'; did you mean --max-cost-usd?"
                + " (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--max", "1").stderrLines()).containsExactly("rein run: unknown option '--max'; did you"
                + " mean --max-steps or --max-cost-usd or --max-seconds or --max-tokens? (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--trace-file", "t.jsonl").stderrLines()).containsExactly("rein run: unknown option"
                + " '--trace-file'; did you mean --trace? (see 'rein run --help')");
        assertThat(cli.run("eval", "suite.yaml", "--trace", "out").stderrLines()).containsExactly("rein eval: unknown option"
                + " '--trace'; did you mean --traces? (see 'rein eval --help')");
        assertThat(cli.run("run", "--max-cost").stderrLines()).containsExactly("rein run: unknown option '--max-cost'; did you"
                + " mean --max-cost-usd? Or, if '--max-cost' is the GOAL, put -- before it: rein run -- --max-cost (see 'rein run"
                + " --help')");
    }

    /**
     * An option neither near one of the command's nor the start of one (nor one the start of it) is not matched to those that
     * merely begin with the same two letters: those are other options with other meanings, and {@code --reject REASON} takes
     * text, so following "did you mean --reject?" for {@code rein approve RUN --reason ok} would reject the action instead of
     * approving it. The command's options are listed. Before: picocli's suggestions (the same two letters).
     */
    @Test
    void anOptionOnlyBeginningAsAnotherDoesIsNotSuggestedAsIt() {
        InProcessCli.Outcome outcome = cli.run("approve", "run_1", "--reason", "ok");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein approve: unknown option '--reason'; the options of rein approve"
                + " are: --reject, --edit, --action, --as, --help, --version (see 'rein approve --help')");
        assertThat(cli.run("run", "hi", "--max-time", "5").stderrLines()).singleElement().asString()
                .startsWith("rein run: unknown option '--max-time'; the options of rein run are: --model, ")
                .doesNotContain("did you mean");
        // the dashes are no letters: --yes, three of them, is two edits from --as, not one
        assertThat(cli.run("approve", "run_1", "--yes").stderrLines()).singleElement().asString()
                .startsWith("rein approve: unknown option '--yes'; the options of rein approve are: ").doesNotContain("did you mean");
        assertThat(cli.run("approve", "run_1", "--dir", "x").stderrLines()).singleElement().asString()
                .startsWith("rein approve: unknown option '--dir'; the options of ").doesNotContain("did you mean");
        // another command's option is no typo: not --trace FILE for rein run's --price, nor --mcp FILE (taking the suite for
        // the servers' file) for the flag --mcp-instructions
        assertThat(cli.run("demo", "--price", "3,15").stderrLines()).singleElement().asString()
                .startsWith("rein demo: unknown option '--price'; the options of rein demo are: ").doesNotContain("did you mean");
        assertThat(cli.run("eval", "--mcp-instructions", "suite.yaml").stderrLines()).singleElement().asString()
                .startsWith("rein eval: unknown option '--mcp-instructions'; the options of rein eval are: ")
                .doesNotContain("did you mean");
        // ... but one of its kind that it begins as, or a letter from it, is offered
        assertThat(cli.run("run", "hi", "--traces", "out").stderrLines()).containsExactly("rein run: unknown option '--traces';"
                + " did you mean --trace? (see 'rein run --help')");
        assertThat(cli.run("runs", "--json-stream").stderrLines()).containsExactly("rein runs: unknown option '--json-stream';"
                + " did you mean --json? (see 'rein runs --help')");
        assertThat(cli.run("runs", "--jq", ".x").stderrLines()).singleElement().asString()
                .startsWith("rein runs: unknown option '--jq'; the options of rein runs are: ").doesNotContain("did you mean");
    }

    /**
     * One of rein run's options given to a command that continues a run ({@code rein resume RUN --max-steps 30}) is not a
     * typo: the run keeps what it started with. Said so, with the command's options. Before: "did you mean --max-tokens?",
     * another option with another meaning.
     */
    @Test
    void anOptionOfRunGivenToACommandThatContinuesARunSaysTheRunKeepsWhatItStartedWith() {
        InProcessCli.Outcome outcome = cli.run("resume", "run_1", "--max-steps", "30");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString()
                .startsWith("rein resume: unknown option '--max-steps': it is an option of rein run, and a run keeps the"
                        + " budgets it started with, so rein resume has none; the options of rein resume are: --trace, ")
                .endsWith(" (see 'rein resume --help')").doesNotContain("did you mean");
        assertThat(cli.run("reply", "run_1", "more", "--tools", "calculate").stderrLines()).singleElement().asString()
                .startsWith("rein reply: unknown option '--tools': it is an option of rein run, and a run keeps the tools it"
                        + " started with, so rein reply has none; the options of rein reply are: ");
    }

    /**
     * What the run keeps is said for the option given: its model for {@code --model}, its system prompt for
     * {@code --system}. Before: "a run keeps the budgets, tools and prompt it started with" for every option, though the
     * model was asked about and is kept too. {@code --as} (who inline approvals are recorded as) is not kept: the command
     * asks for no approval; rein approve RUN --as NAME records a decision.
     */
    @Test
    void anOptionOfRunGivenToACommandThatContinuesARunSaysWhatTheRunKeepsOfIt() {
        assertThat(cli.run("resume", "run_1", "--model", "x").stderrLines()).singleElement().asString()
                .startsWith("rein resume: unknown option '--model': it is an option of rein run, and a run keeps the model it"
                        + " started with, so rein resume has none; the options of rein resume are: ");
        assertThat(cli.run("reply", "run_1", "more", "--system", "be brief").stderrLines()).singleElement().asString()
                .startsWith("rein reply: unknown option '--system': it is an option of rein run, and a run keeps the system"
                        + " prompt it started with, so rein reply has none; ");
        assertThat(cli.run("resume", "run_1", "--thinking", "adaptive").stderrLines()).singleElement().asString()
                .startsWith("rein resume: unknown option '--thinking': it is an option of rein run, and a run keeps the"
                        + " --thinking and --reasoning-effort it started with, so rein resume has none; ");
        assertThat(cli.run("resume", "run_1", "--as", "alice").stderrLines()).singleElement().asString()
                .startsWith("rein resume: unknown option '--as': it is an option of rein run (who approvals given while it"
                        + " runs are recorded as); rein resume asks for none: decide a waiting action with rein approve RUN --as"
                        + " NAME; the options of rein resume are: ");
    }

    /**
     * An option given twice says to give it once. Before: picocli's "option '--max-cost-usd' (X) should be specified only
     * once", what was wrong but not what to do.
     */
    @Test
    void anOptionGivenTwiceSaysToGiveItOnce() {
        InProcessCli.Outcome outcome = cli.run("run", "--max-cost-usd", "1", "--max-cost-usd", "2", "hi");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein run: option '--max-cost-usd' (X) should be specified only once;"
                + " give it once, with the value meant (see 'rein run --help')");
        assertThat(cli.run("approve", "run_1", "--reject", "a", "--reject", "b").stderrLines()).containsExactly("rein approve:"
                + " option '--reject' (REASON) should be specified only once; give it once, with the value meant (see 'rein"
                + " approve --help')");
        assertThat(cli.run("runs", "--json", "--json").stderrLines()).containsExactly("rein runs: option '--json' should be"
                + " specified only once; give it once (see 'rein runs --help')");
    }

    @Test
    void anUnknownShortOptionIsNamedToo() {
        InProcessCli.Outcome outcome = cli.run("show", "run_1", "-z");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().startsWith("rein show: unknown option '-z'; ")
                .endsWith(" (see 'rein show --help')").doesNotContain("Unknown options");
    }

    /**
     * An unknown option where a required argument is missing too ({@code rein approve --limit}): the option is named as
     * unknown, with the missing RUN and an example without the option. Before: "'--limit' starts with '-', so it was taken
     * for an option; to pass it as text, put -- before it: rein approve -- --limit", the advice for a goal like "-5 + 3".
     */
    @Test
    void anUnknownOptionWithoutTheRunIsNamedAsAnOptionAndTheRunAskedFor() {
        InProcessCli.Outcome outcome = cli.run("approve", "--limit");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein approve: unknown option '--limit'; the options of rein approve"
                + " are: --reject, --edit, --action, --as, --help, --version; and give RUN, the run id (see 'rein runs'), e.g."
                + " rein approve run_3f1c9a7e5b2d4c8e6a0b (see 'rein approve --help')");
        assertThat(cli.run("show", "--jsno").stderrLines()).containsExactly("rein show: unknown option '--jsno'; did you mean"
                + " --json? And give RUN, the run id (see 'rein runs'), e.g. rein show run_3f1c9a7e5b2d4c8e6a0b (see 'rein show"
                + " --help')");
        assertThat(cli.run("reply", "--json", "-z").stderrLines()).singleElement().asString()
                .startsWith("rein reply: unknown option '-z'; the options of rein reply are: ")
                .endsWith("; and give RUN, the run id (see 'rein runs'), and TEXT, the reply: the answer to the run's question,"
                        + " or a follow-up, e.g. rein reply --json run_3f1c9a7e5b2d4c8e6a0b \"Room B, please\" (see 'rein reply --help')");
    }

    /**
     * Where the missing argument is free text (a GOAL, a reply's TEXT), a word shaped like an option may be that text: it
     * is named as an unknown option, and how to pass it as text follows. A word no option looks like ("-5 + 3 は?") is
     * still taken for text alone (CliHardeningTest). Before: only the advice to put -- before it.
     */
    @Test
    void anUnknownOptionWhereTextIsMissingIsNamedAndHowToPassItAsTextFollows() {
        assertThat(cli.run("run", "--max-step").stderrLines()).containsExactly("rein run: unknown option '--max-step'; did you"
                + " mean --max-steps? Or, if '--max-step' is the GOAL, put -- before it: rein run -- --max-step (see 'rein run"
                + " --help')");
        assertThat(cli.run("run", "--json", "-x").stderrLines()).singleElement().asString()
                .startsWith("rein run: unknown option '-x'; the options of rein run are: --model, ")
                .endsWith("; or, if '-x' is the GOAL, put -- before it: rein run --json -- -x (see 'rein run --help')");
        assertThat(cli.run("reply", "run_1", "--bogus").stderrLines()).singleElement().asString()
                .startsWith("rein reply: unknown option '--bogus'; the options of rein reply are: ")
                .endsWith("; or, if '--bogus' is the TEXT, put -- before it: rein reply run_1 -- --bogus (see 'rein reply --help')");
    }

    /**
     * A flag given a value other than true or false ({@code --quiet=yes}) says it takes none. Before: "Invalid value for
     * option '--quiet': 'yes' is not a boolean", what was wrong in picocli's words and not what to give.
     */
    @Test
    void aFlagGivenAValueSaysItTakesNone() {
        InProcessCli.Outcome outcome = cli.run("run", "--quiet=yes", "hi");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein run: --quiet is a flag and takes no value, but was given 'yes';"
                + " give --quiet alone to turn it on, or leave it out (see 'rein run --help')");
        assertThat(cli.run("runs", "--json=1").stderrLines()).containsExactly("rein runs: --json is a flag and takes no value,"
                + " but was given '1'; give --json alone to turn it on, or leave it out (see 'rein runs --help')");
    }

    /** Every command, with an unknown option and nothing else: it is named as an unknown option, never taken for text. */
    @Test
    void everyCommandNamesAnUnknownOptionGivenAlone() {
        List<String> checked = new ArrayList<>();
        CliEnvironment env = new CliEnvironment(System.out, System.err, java.util.Map.of(), Terminal.NONE, (name, e) -> null, false);
        walk(Rein.commandLine(env), checked);
        assertThat(checked).contains("rein approve", "rein show", "rein resume", "rein reply", "rein run", "rein index",
                "rein replay", "rein eval", "rein example", "rein mcp list", "rein memory forget", "rein runs", "rein demo");
    }

    private void walk(CommandLine commandLine, List<String> checked) {
        CommandLine.Model.CommandSpec spec = commandLine.getCommandSpec();
        String[] words = spec.qualifiedName().split(" ");
        List<String> args = new ArrayList<>(List.of(words).subList(1, words.length));
        args.add("--no-such-option");
        InProcessCli.Outcome outcome = cli.run(args.toArray(String[]::new));
        String line = String.join(" ", args);
        assertThat(outcome.exitCode()).as(line).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).as(line).isEmpty();
        assertThat(outcome.stderrLines()).as(line).singleElement().asString()
                .startsWith(spec.qualifiedName() + ": unknown option '--no-such-option'; ")
                .doesNotContain("so it was taken for an option");
        checked.add(spec.qualifiedName());
        commandLine.getSubcommands().values().stream().distinct()
                .filter(sub -> !sub.getCommandSpec().name().equals("help"))
                .forEach(sub -> walk(sub, checked));
    }

    /**
     * A short option is compared without its dashes ({@code -a} begins --action and --as: both offered, not --as alone,
     * which would approve as the action's hash), and an option a letter away beats one the word merely begins with
     * ({@code --mcp FILE} for a misspelt --mcp-instructions would take the instructions as its file).
     */
    @Test
    void aShortOptionIsComparedWithoutDashesAndALetterAwayBeatsAnOptionTheWordBeginsWith() {
        assertThat(cli.run("approve", "run_x", "-a", "abc123").stderrLines()).singleElement().satisfies(line ->
                assertThat(line).contains("unknown option '-a'; too short to tell which option was meant: the options of rein"
                        + " approve starting with 'a' are: --action, --as; give the whole name"));
        assertThat(cli.run("run", "hi", "--mcp-instructons", "x").stderrLines()).containsExactly("rein run: unknown option"
                + " '--mcp-instructons'; did you mean --mcp-instructions? (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--json-streams").stderrLines()).containsExactly("rein run: unknown option"
                + " '--json-streams'; did you mean --json-stream? (see 'rein run --help')");
    }

    /**
     * A suggestion is a plausible typo or abbreviation of the option, compared part by part (the words between its
     * hyphens), never one the word merely shares a start with or a different word a letter away: {@code --out} is no
     * {@code --output-schema FILE} (a user accepting it would pass a wrong file), {@code --reason} no
     * {@code --reasoning-effort}, {@code --exit} no {@code --edit JSON}; {@code --max-secs} abbreviates --max-seconds, the
     * time limit, and is not --max-steps (a limit on steps) two letters away; {@code --suite} is rein eval's SUITE, given
     * without an option name, not --quiet. Before: each suggested the option named here as wrong.
     */
    @Test
    void aSuggestionIsATypoOrAbbreviationOfTheOptionNeverAnotherWordSharingItsStart() {
        assertThat(cli.run("run", "hi", "--out", "answer.json").stderrLines()).singleElement().asString()
                .startsWith("rein run: unknown option '--out'; the options of rein run are: --model, ")
                .doesNotContain("did you mean");
        assertThat(cli.run("run", "hi", "--reason", "high").stderrLines()).singleElement().asString()
                .startsWith("rein run: unknown option '--reason'; the options of rein run are: ")
                .doesNotContain("did you mean");
        assertThat(cli.run("approve", "run_1", "--exit").stderrLines()).containsExactly("rein approve: unknown option"
                + " '--exit'; the options of rein approve are: --reject, --edit, --action, --as, --help, --version (see 'rein"
                + " approve --help')");
        assertThat(cli.run("run", "hi", "--max-secs", "30").stderrLines()).containsExactly("rein run: unknown option"
                + " '--max-secs'; did you mean --max-seconds? (see 'rein run --help')");
        assertThat(cli.run("eval", "--suite", "suite.yaml").stderrLines()).containsExactly("rein eval: unknown option"
                + " '--suite'; SUITE is given without an option name: rein eval suite.yaml (see 'rein eval --help')");
        assertThat(cli.run("eval", "suite.yaml", "--suite").stderrLines()).containsExactly("rein eval: unknown option"
                + " '--suite'; SUITE is given without an option name, and it is given already: drop --suite: rein eval suite.yaml"
                + " (see 'rein eval --help')");
        // still offered: a hyphen left out or an underscore for it, a word abbreviated, a letter replaced in a longer word
        assertThat(cli.run("run", "hi", "--max_steps", "5").stderrLines()).containsExactly("rein run: unknown option"
                + " '--max_steps'; did you mean --max-steps? (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--maxsteps", "5").stderrLines()).containsExactly("rein run: unknown option"
                + " '--maxsteps'; did you mean --max-steps? (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--modek", "x").stderrLines()).containsExactly("rein run: unknown option"
                + " '--modek'; did you mean --model? (see 'rein run --help')");
    }

    /**
     * The limits that keep {@code --out} and {@code --exit} from other options apply only where they are needed: a
     * replaced letter is refused only in a name of one short word ({@code --exit} is no {@code --edit}), not in a short
     * word of a longer name whose other words match ({@code --mac-steps}); two slips in a word of five letters or more
     * are a typo when one is two neighbours swapped ({@code --trail}, {@code --max-stpe}); a hyphen left out may come
     * with a slip ({@code --maxstep}) or a first word ({@code --maxcost}); and a start of one or two letters after whole
     * words ({@code --max-s}) is offered the options it begins. Before (since the part-by-part rule): each listed all the options.
     */
    @Test
    void anObviousTypoOfAnOptionOfSeveralWordsOrOfAShortOneIsSuggested() {
        String[][] cases = {
                {"run", "--base-uri", "--base-url"}, {"run", "--base-irl", "--base-url"}, {"run", "--bace-url", "--base-url"},
                {"run", "--vase-url", "--base-url"}, {"run", "--mac-steps", "--max-steps"}, {"run", "--nax-steps", "--max-steps"},
                {"run", "--mas-steps", "--max-steps"}, {"run", "--max-cist-usd", "--max-cost-usd"},
                {"run", "--max-cost-usf", "--max-cost-usd"}, {"run", "--wev-search", "--web-search"}, {"run", "--mco", "--mcp"},
                {"run", "--ncp", "--mcp"}, {"run", "--dics", "--docs"}, {"runs", "--jsom", "--json"},
                {"run", "--maxstep", "--max-steps"}, {"run", "--maxstesp", "--max-steps"}, {"run", "--max-stpe", "--max-steps"},
                {"run", "--max-sptes", "--max-steps"}, {"run", "--jsonstram", "--json-stream"}, {"eval", "--trail", "--trials"},
                {"run", "--maxcost", "--max-cost-usd"}, {"run", "--max-s", "--max-steps or --max-seconds"}};
        for (String[] c : cases) {
            assertThat(cli.run(c[0], c[1]).stderrLines()).as(c[1]).singleElement().asString()
                    .contains("unknown option '" + c[1] + "'; did you mean " + c[2] + "?");
        }
        // one or two letters alone: listed as the options starting with them, not guessed (cli26)
        for (String[] c : new String[][] {{"--ba", "--base-url"}, {"--we", "--web-search"}, {"--ou", "--output-schema"}}) {
            assertThat(cli.run("run", c[0]).stderrLines()).as(c[0]).singleElement().asString()
                    .contains("the only option of rein run starting with '" + c[0].substring(2) + "' is " + c[1]
                            + "; give the whole name");
        }
        assertThat(cli.run("show", "r1", "--hson").stderrLines()).singleElement().asString()
                .contains("unknown option '--hson'; did you mean --json?");
        assertThat(cli.run("eval", "--trail", "3", "suite.yaml").stderrLines()).singleElement().asString()
                .contains("unknown option '--trail'; did you mean --trials?");
    }

    /**
     * The command a positional parameter's name given as an option is answered with works: when the parameter is there
     * already, it says to drop the option ({@code rein show r1 RUN} would show a run named RUN); a value starting with '-'
     * comes after {@code --}; a value given with '=' needs nothing more. Before: "rein show r1 RUN", "rein run -5 + 3"
     * (-5 taken for an option), and "and give RUN" after the complete "rein show r1".
     */
    @Test
    void thePositionalHintIsACommandThatWorks() {
        assertThat(cli.run("show", "r1", "--run").stderrLines()).containsExactly("rein show: unknown option '--run'; RUN is"
                + " given without an option name, and it is given already: drop --run: rein show r1 (see 'rein show --help')");
        assertThat(cli.run("run", "--goal=-5", "+", "3").stderrLines()).containsExactly("rein run: unknown option '--goal';"
                + " GOAL is given without an option name: rein run -- -5 + 3 (see 'rein run --help')");
        assertThat(cli.run("run", "--goal=-5 + 3").stderrLines()).containsExactly("rein run: unknown option '--goal';"
                + " GOAL is given without an option name: rein run -- \"-5 + 3\" (see 'rein run --help')");
        assertThat(cli.run("run", "--goal", "-5").stderrLines()).containsExactly("rein run: unknown option '--goal';"
                + " GOAL is given without an option name: rein run -- -5 (see 'rein run --help')");
        assertThat(cli.run("show", "--run=r1").stderrLines()).containsExactly("rein show: unknown option '--run'; RUN is"
                + " given without an option name: rein show r1 (see 'rein show --help')");
        // options after a value that starts with '-' go before '--', or they would be taken into the value (rev39)
        assertThat(cli.run("run", "--goal=-5", "--max-steps", "3", "+", "1").stderrLines()).containsExactly("rein run:"
                + " unknown option '--goal'; GOAL is given without an option name: rein run --max-steps 3 -- -5 + 1 (see 'rein"
                + " run --help')");
        // a '--' the user typed after the value keeps what follows it as text, and an unknown option stays before '--' (rev41)
        assertThat(cli.run("run", "--goal=-5", "--", "--max-steps", "3").stderrLines()).singleElement().asString()
                .contains("GOAL is given without an option name: rein run -- -5 --max-steps 3 (see");
        assertThat(cli.run("run", "--goal=-5", "--max-steps=3", "--", "-x").stderrLines()).singleElement().asString()
                .contains("GOAL is given without an option name: rein run --max-steps=3 -- -5 -x (see");
        assertThat(cli.run("run", "--goal=-5", "--max-stepz", "3").stderrLines()).singleElement().asString()
                .contains("GOAL is given without an option name: rein run --max-stepz -- -5 3 (see");
        // still: the value after the option in its place, or, when there is none, what to give (never its label as a command)
        assertThat(cli.run("show", "--run", "r1").stderrLines()).containsExactly("rein show: unknown option '--run'; RUN is"
                + " given without an option name: rein show r1 (see 'rein show --help')");
        assertThat(cli.run("show", "--run").stderrLines()).singleElement().asString().startsWith("rein show: unknown option"
                + " '--run'; RUN is given without an option name, and --run has no value after it: give the RUN in its place");
    }

    /** Two slips, one a swap, offered unrelated options of the same length or another first letter (rev39). */
    @Test
    void twoSlipsAreATypoOnlyWithALetterLeftOutOrAddedAndTheSameFirstLetter() {
        for (String wrong : List.of("--suite", "--quote", "--quest", "--quits")) {
            assertThat(cli.run("run", wrong, "s.yaml").stderrLines()).as(wrong).singleElement().asString()
                    .doesNotContain("did you mean");
        }
        assertThat(cli.run("approve", "run_1", "--caution").stderrLines()).singleElement().asString().doesNotContain("did you mean");
        assertThat(cli.run("eval", "s.yaml", "--trains", "3").stderrLines()).singleElement().asString().doesNotContain("did you mean");
        assertThat(cli.run("eval", "s.yaml", "--trail", "3").stderrLines()).singleElement().asString().contains("did you mean --trials?");
    }

    /**
     * A positional parameter given twice, once without an option name and once with one ({@code rein show r1 --run r2}), is
     * answered with two commands that work, one for each. Before: "rein show r1 r2", a word too many.
     */
    @Test
    void aPositionalGivenTwiceIsAnsweredWithOneCommandForEach() {
        assertThat(cli.run("show", "r1", "--run", "r2").stderrLines()).containsExactly("rein show: unknown option '--run'; RUN"
                + " is given without an option name, and it is given already: give one: rein show r1 or rein show r2 (see 'rein"
                + " show --help')");
        assertThat(cli.run("show", "--json", "--run=r2", "r1").stderrLines()).containsExactly("rein show: unknown option"
                + " '--run'; RUN is given without an option name, and it is given already: give one: rein show --json r1 or rein"
                + " show --json r2 (see 'rein show --help')");
        // GOAL takes several words: they are joined, so the one command still works
        assertThat(cli.run("run", "hi", "--goal", "there").stderrLines()).containsExactly("rein run: unknown option '--goal';"
                + " GOAL is given without an option name: rein run hi there (see 'rein run --help')");
    }

    /**
     * {@code --goal=} gives an empty goal, which rein run refuses: the hint is a command with a goal in it, the parameter's
     * example, or without the option when a goal is there already. Before: {@code rein run ""}.
     */
    @Test
    void anEmptyValueOfAPositionalsNameIsAnsweredWithACommandThatWorks() {
        assertThat(cli.run("run", "--goal=").stderrLines()).containsExactly("rein run: unknown option '--goal'; GOAL is given"
                + " without an option name, and --goal= gives it empty: give it, e.g. rein run \"What is 17 * 23?\" (see 'rein run"
                + " --help')");
        assertThat(cli.run("run", "--goal=", "--max-steps", "3").stderrLines()).containsExactly("rein run: unknown option"
                + " '--goal'; GOAL is given without an option name, and --goal= gives it empty: give it, e.g. rein run"
                + " \"What is 17 * 23?\" --max-steps 3 (see 'rein run --help')");
        assertThat(cli.run("run", "hi", "--goal=").stderrLines()).containsExactly("rein run: unknown option '--goal'; GOAL is"
                + " given without an option name, and it is given already: drop --goal=: rein run hi (see 'rein run --help')");
    }

    /**
     * An empty next word ({@code --goal ""}) is an empty value as {@code --goal=} is; with no example, the parameter is
     * asked for, not shown as a command. Before: {@code rein run --goal ""} hinted {@code rein run ""} (refused: the GOAL
     * is empty) and {@code rein eval --suite=} hinted {@code e.g. rein eval SUITE}.
     */
    @Test
    void aValueStartingWithADashInTheGiveOneAlternativeGoesAfterDoubleDash() {
        // before: 'or rein reply r1 -x', which fails on -x as an unknown option
        assertThat(cli.run("reply", "r1", "hi", "--text=-x").stderrLines()).singleElement().asString()
                .contains("give one: rein reply r1 hi or rein reply r1 -- -x (see");
    }

    /**
     * Words past a TEXT's place are the text's own words: before (rev116), 'rein reply r1 hi there -- --json' was told to
     * drop the word 'there', the user's reply; without '--' the CLI says to quote the text. Now so here too.
     */
    @Test
    void wordsPastTheTextsPlaceAreToBeQuotedNotDropped() {
        for (String[] args : List.of(new String[] {"reply", "r1", "hi", "there", "--", "--json"},
                new String[] {"reply", "r1", "会議室", "B", "it's", "--", "--json"})) {
            String line = cli.run(args).stderrLines().getFirst();
            assertThat(line).as(String.join(" ", args)).contains("put it before --, and put the TEXT in quotes, one argument: ")
                    .doesNotContain("drop the");
        }
        assertThat(cli.run("reply", "r1", "hi", "there", "--", "--json").stderrLines().getFirst())
                .contains("put the TEXT in quotes, one argument: \"hi there\" (see 'rein reply --help')");
        assertThat(cli.run("reply", "r1", "会議室", "B", "it's", "--", "--json").stderrLines().getFirst())
                .contains("put the TEXT in quotes, one argument: \"会議室 B it's\" (see 'rein reply --help')");
    }

    /**
     * Before (rev118): a TEXT word holding a control character was shown escaped ('\x1b') inside the suggested quoted TEXT,
     * which pasted is other text than the one typed. Such a TEXT is now told to be quoted with no quoted text given, as the
     * memory hints give no command then.
     */
    @Test
    void aTextWithAControlCharacterGetsNoQuotedText() {
        String line = cli.run("reply", "r1", "hi", "the\u001bre", "--", "--json").stderrLines().getFirst();
        assertThat(line).contains("put it before --, and put the TEXT in quotes, one argument")
                .doesNotContain("\"hi").doesNotContain("\\x1b").doesNotContain("drop the");
    }

    /**
     * Positional words already too many before '--' have no place with the option moved either: before (rev106),
     * 'rein approve r1 hi -- --as=bob' was told to type 'rein approve r1 hi --as=bob', which picocli refuses ('hi' is one
     * argument too many); the same for --action and --reject. Now it is told to drop them, with no command.
     */
    @Test
    void wordsTooManyBeforeDoubleDashAreToBeDroppedNotOfferedInACommand() {
        for (String[] args : List.of(new String[] {"approve", "r1", "hi", "--", "--as=bob"},
                new String[] {"approve", "r1", "hi", "--", "--action", "-x"},
                new String[] {"approve", "r1", "hi", "--", "--reject", "--bogus"})) {
            String line = cli.run(args).stderrLines().getFirst();
            assertThat(line).as(String.join(" ", args))
                    .contains("to give the option, put it before --, and drop the word 'hi', which rein approve has no place for")
                    .doesNotContain("put it before --: rein");
            // and what it once offered is indeed refused, so offering no command is right
            String[] offered = java.util.Arrays.stream(args).filter(w -> !w.equals("--")).toArray(String[]::new);
            assertThat(hinted.run(offered).exitCode()).as(String.join(" ", offered)).isEqualTo(ExitCodes.USAGE);
        }
        // the words are named, each quoted: before, "drop the words rein approve has no place for" left them to be guessed
        assertThat(cli.run("approve", "r1", "佐藤 さん", "hi", "--", "--as=bob").stderrLines().getFirst())
                .contains("and drop the words '佐藤 さん' and 'hi', which rein approve has no place for");
        assertThat(cli.run("approve", "r1", "hi", "--", "--as", "bob", "extra").stderrLines().getFirst())
                .contains("and drop the words 'hi' and 'extra', which rein approve has no place for");
    }

    @Test
    void anOptionAfterDoubleDashGetsNoCommandWhereNoneWouldWork() {
        // before: only --as moved ('rein approve r1 --as bob -- --action h1'), --as given twice, 'rein runs --json -- extra'
        assertThat(cli.run("approve", "r1", "--", "--as", "bob", "--action", "h1").stderrLines()).singleElement().asString()
                .contains("to give the options, put them before --").doesNotContain("rein approve r1 --as bob --");
        assertThat(cli.run("approve", "r1", "--as", "bob", "--", "--as", "carl").stderrLines()).singleElement().asString()
                .contains("--as is given before -- already: give it once").doesNotContain("--as bob --as");
        assertThat(cli.run("runs", "--", "--json", "extra").stderrLines()).singleElement().asString()
                .contains("to give the option, put it before --, and drop the rest ('extra')").doesNotContain("rein runs --json --");
        // RUN is given before '--', so 'extra' has no place: 'rein approve r1 --as bob -- extra' was hinted, and refused
        assertThat(cli.run("approve", "r1", "--", "--as", "bob", "extra").stderrLines()).singleElement().asString()
                .contains("to give the option, put it before --, and drop the word 'extra', which rein approve has no place for")
                .doesNotContain("rein approve r1 --as bob --");
        // a place left: the command is still shown
        assertThat(cli.run("approve", "--", "r1", "--as", "bob").stderrLines()).singleElement().asString()
                .contains("put it before --: rein approve --as bob -- r1");
        // the words after '--' are not one TEXT to quote with '--' inside: 'rein reply --json r1 "-- hi"' was hinted
        assertThat(cli.run("reply", "r1", "--", "--json", "hi").stderrLines()).singleElement().asString()
                .doesNotContain("\"-- hi\"");
    }

    @Test
    void anEmptyNextWordOfAPositionalsNameIsAnEmptyValueToo() {
        assertThat(cli.run("run", "--goal", "").stderrLines()).containsExactly("rein run: unknown option '--goal'; GOAL is given"
                + " without an option name, and --goal \"\" gives it empty: give it, e.g. rein run \"What is 17 * 23?\" (see"
                + " 'rein run --help')");
        assertThat(cli.run("show", "--run", "").stderrLines()).singleElement().asString()
                .contains("and --run \"\" gives it empty: give").doesNotContain("rein show \"\"");
        assertThat(cli.run("show", "r1", "--run", "").stderrLines()).singleElement().asString()
                .contains("it is given already: drop --run \"\": rein show r1 (see");
        assertThat(cli.run("eval", "--suite=").stderrLines()).singleElement().asString()
                .contains("and --suite= gives it empty: give the SUITE (see").doesNotContain("e.g.");
    }

    /**
     * After {@code --} every word is a positional argument: an option's name there is said to have been taken as one, not
     * offered as itself. Before: "Unknown option: '--json'; did you mean --json?".
     */
    @Test
    void anOptionAfterDoubleDashIsSaidToBeTakenAsAnArgument() {
        assertThat(cli.run("runs", "--", "--json").stderrLines()).containsExactly("rein runs: '--json' comes after --, so it"
                + " was taken as an argument, not an option, and rein runs takes no argument, only options; to give the option,"
                + " put it before --: rein runs --json (see 'rein runs --help')");
        assertThat(cli.run("show", "r1", "--", "--json").stderrLines()).containsExactly("rein show: '--json' comes after --,"
                + " so it was taken as an argument, not an option, and rein show takes only RUN; to give the option, put it"
                + " before --: rein show r1 --json (see 'rein show --help')");
        assertThat(cli.run("memory", "list", "--", "--jsn").stderrLines()).containsExactly("rein memory list: '--jsn' comes"
                + " after --, so it was taken as an argument, not an option, and rein memory list takes no argument, only options"
                + " (see 'rein memory list --help')");
        // an option taking a value goes before -- with it, or with an example of it: the command must not fail on its value
        assertThat(cli.run("approve", "r1", "--", "--as", "bob").stderrLines()).containsExactly("rein approve: '--as' comes"
                + " after --, so it was taken as an argument, not an option, and rein approve takes only RUN; to give the option,"
                + " put it before --: rein approve r1 --as bob (see 'rein approve --help')");
        assertThat(cli.run("approve", "r1", "--", "--as").stderrLines()).singleElement().asString()
                .contains("put it before --, and give the NAME in its place (see").doesNotContain(": rein ");
    }

    /**
     * An option after {@code --} given without its value gets no command: the value is asked for, as a positional's is.
     * Before: {@code rein approve r1 -- --as} hinted {@code rein approve r1 --as alice}, which records a decision as
     * "alice", and then {@code rein approve r1 --as NAME}, which pasted unchanged records one by "NAME" (rev63).
     */
    @Test
    void anOptionAfterDoubleDashWithoutItsValueIsAskedForItsValue() {
        assertThat(cli.run("approve", "r1", "--", "--as").stderrLines()).singleElement().asString()
                .contains("put it before --, and give the NAME in its place (see").doesNotContain("alice", ": rein ");
        assertThat(cli.run("approve", "r1", "--", "--reject").stderrLines()).singleElement().asString()
                .contains("put it before --, and give the REASON in its place (see")
                .doesNotContain("wrong recipient", ": rein ");
    }

    /**
     * A slip of another command's option ({@code --mcp-instructons} of rein run's {@code --mcp-instructions}) given to a
     * command without it is not offered the command's option it begins with ({@code --mcp FILE}, which would take the text as
     * its file): it is named as near the other command's option. Before: "did you mean --mcp?" on eval, resume and reply.
     */
    @Test
    void aSlipOfAnotherCommandsOptionIsNotOfferedAnOptionWithAnotherMeaning() {
        assertThat(cli.run("eval", "s.yaml", "--mcp-instructons", "x").stderrLines()).singleElement().asString()
                .startsWith("rein eval: unknown option '--mcp-instructons'; it is near --mcp-instructions, an option of rein run"
                        + " that rein eval does not have; the options of rein eval are: ").doesNotContain("did you mean");
        assertThat(cli.run("resume", "r1", "--mcp-instruction", "x").stderrLines()).singleElement().asString()
                .startsWith("rein resume: unknown option '--mcp-instruction'; it is near --mcp-instructions, an option of rein"
                        + " run that rein resume does not have; the options of rein resume are: ").doesNotContain("did you mean");
        assertThat(cli.run("reply", "r1", "hi", "--mcp-instructons", "x").stderrLines()).singleElement().asString()
                .startsWith("rein reply: unknown option '--mcp-instructons'; it is near --mcp-instructions").doesNotContain("did you mean");
        // an option's own first words, with no other command's option near: still offered (--trace of --trace-file)
        assertThat(cli.run("run", "hi", "--trace-file", "t.jsonl").stderrLines()).singleElement().asString()
                .contains("did you mean --trace?");
    }

    /**
     * A name of one or two letters is too short to say which option (or command) was meant, and is often a word of its own
     * ({@code re}, {@code to}): the names that begin with it are listed, with no "did you mean". Before: {@code rein run
     * --re} was asked "did you mean --reasoning-effort?".
     */
    @Test
    void aStartOfOneOrTwoLettersListsTheNamesBeginningWithItWithoutAGuess() {
        assertThat(cli.run("run", "hi", "--re").stderrLines()).containsExactly("rein run: unknown option '--re'; the only"
                + " option of rein run starting with 're' is --reasoning-effort; give the whole name (see 'rein run --help')");
        assertThat(cli.run("approve", "r1", "-a", "x").stderrLines()).containsExactly("rein approve: unknown option '-a'; too"
                + " short to tell which option was meant: the options of rein approve starting with 'a' are: --action, --as;"
                + " give the whole name (see 'rein approve --help')");
        assertThat(cli.run("run", "hi", "--to", "x").stderrLines()).singleElement().asString()
                .contains("the only option of rein run starting with 'to' is --tools; give the whole name")
                .doesNotContain("did you mean").doesNotContain("too short to tell which");
        assertThat(cli.run("run", "hi", "--js").stderrLines()).singleElement().asString()
                .contains("starting with 'js' are: --json, --json-stream;").doesNotContain("did you mean");
        // none begins with it: the options are listed
        assertThat(cli.run("runs", "--zz").stderrLines()).containsExactly("rein runs: unknown option '--zz'; the options of"
                + " rein runs are: --json, --help, --version (see 'rein runs --help')");
        // the words before a short start say which option it is
        assertThat(cli.run("run", "hi", "--max-s", "3").stderrLines()).singleElement().asString()
                .contains("did you mean --max-steps or --max-seconds?");
        // and a command
        assertThat(cli.run("ru", "hi").stderrLines()).singleElement().asString().startsWith("rein: unknown command 'ru'; too"
                + " short to tell which command was meant: the commands starting with 'ru' are: run, runs; give the whole name");
    }

    /**
     * The one-or-two-letter rule applies only to names the word begins: the exact name with one dash, a swap or the key
     * beside are typos and are named. Before: {@code rein approve r1 --sa bob} and {@code rein rn} listed every name, and
     * {@code -as} was called too short though it is the whole name.
     */
    @Test
    void aShortWordThatIsTheWholeNameOrATypoOfItIsNamed() {
        assertThat(cli.run("approve", "r1", "--sa", "bob").stderrLines()).singleElement().asString()
                .contains("unknown option '--sa'; did you mean --as?");
        assertThat(cli.run("approve", "r1", "-as", "bob").stderrLines()).singleElement().asString()
                .contains("unknown option '-as'; did you mean --as?");
        assertThat(cli.run("rn", "hi").stderrLines()).singleElement().asString()
                .startsWith("rein: unknown command 'rn'; did you mean run?");
        assertThat(cli.run("de").stderrLines()).singleElement().asString()
                .startsWith("rein: unknown command 'de'; the only command starting with 'de' is demo; give the whole name");
    }

    /**
     * An option given twice after {@code --} is said to be given twice, with no command: putting both before {@code --}
     * gives it twice there (refused). An option after {@code --} that filled a place of the command itself
     * ({@code rein approve -- --as bob r1}: '--as' taken as RUN) gets the command with it before {@code --}. Every command
     * shown works. Before: "put them before --", and 'rein approve -- --as "bob r1"', quoting RUN into the name.
     */
    @Test
    void anOptionAfterDoubleDashTwiceOrInAPlaceGetsAHintThatWorks() {
        assertThat(cli.run("approve", "r1", "--", "--as", "bob", "--as", "carl").stderrLines()).singleElement().asString()
                .contains("--as is given twice after --: put it before -- once, with the value meant")
                .doesNotContain("put them before --");
        assertThat(cli.run("runs", "--", "--json", "--json").stderrLines()).singleElement().asString()
                .contains("--json is given twice after --: put it before -- once (see");
        assertThat(hintOf("approve", "--", "--as", "bob", "r1")).isEqualTo("rein approve: '--as' comes after --, so it was"
                + " taken as an argument, not an option, and rein approve takes only RUN; to give the option, put it before --:"
                + " rein approve --as bob -- r1 (see 'rein approve --help')");
        assertThat(hintOf("show", "--", "--json", "r1")).contains("put it before --: rein show --json -- r1 (see");
        // '--json' filled the TEXT place: the user protected it with '--', so the words are text to quote (rev62 3)
        assertThat(hintOf("reply", "r1", "--", "--json", "hi")).contains("rein reply r1 -- \"--json hi\" (see")
                .doesNotContain("put it before --");
        assertThat(hintOf("reply", "r1", "--", "--json", "is", "fine")).contains("rein reply r1 -- \"--json is fine\" (see")
                .doesNotContain("put it before --");
        // the hints of the older cases work too
        hintOf("approve", "--", "r1", "--as", "bob");
        hintOf("approve", "r1", "--", "--as", "bob");
        hintOf("runs", "--", "--json");
        hintOf("show", "r1", "--", "--json");
    }

    /**
     * Every spelling of a positional's name ({@code --goal ""} and {@code --goal=}) is answered, not only the first: both
     * empty ones go, a value given by one is used. Before: 'rein run "What is 17 * 23?" --goal=' (refused again),
     * 'rein run --goal ""', and 'rein show a b' for 'rein show --run a --run b', a word too many.
     */
    @Test
    void everySpellingOfAPositionalsNameIsAnswered() {
        assertThat(hintOf("run", "--goal", "", "--goal=")).isEqualTo("rein run: unknown option '--goal'; GOAL is given"
                + " without an option name, and --goal \"\" gives it empty: give it, e.g. rein run \"What is 17 * 23?\" (see"
                + " 'rein run --help')");
        assertThat(hintOf("run", "--goal=", "--goal", "")).contains("e.g. rein run \"What is 17 * 23?\" (see");
        assertThat(hintOf("run", "--goal", "", "--goal=hi")).contains("rein run hi (see");
        assertThat(hintGiving(List.of("RUN=[a]", "RUN=[b]"), "show", "--run", "a", "--run", "b")).contains("give one: rein show a or rein show b (see");
        assertThat(hintOf("show", "--run", "a", "--run=b")).contains("give one: rein show a or rein show b (see");
    }

    /**
     * A positional's name given with its value ({@code --run r1}) puts the value in that positional's place, not where the
     * option stood, and counts it against the places left: {@code rein reply hi --run r1} lacks no RUN and gives no RUN
     * twice. Before: "RUN is given already: give one: rein reply hi or rein reply r1" (neither has a TEXT), and
     * 'rein reply --text hi r1' was hinted 'rein reply hi r1', a reply of "r1" to a run "hi".
     */
    @Test
    void aNamedPositionalsValueGoesInItsPlace() {
        assertThat(hintGiving(List.of("RUN=[r1] TEXT=[hi]"), "reply", "hi", "--run", "r1")).contains("RUN is given without an option name: rein reply r1 hi (see");
        assertThat(hintGiving(List.of("RUN=[r1] TEXT=[hi]"), "reply", "--run", "r1", "hi")).contains("RUN is given without an option name: rein reply r1 hi (see");
        assertThat(hintGiving(List.of("RUN=[r1] TEXT=[hi]"), "reply", "--text", "hi", "r1")).contains("TEXT is given without an option name: rein reply r1 hi (see");
        assertThat(hintOf("reply", "-5", "--run", "r1")).contains("RUN is given without an option name: rein reply r1 -5 (see");
    }

    /**
     * A positional's name with no value after it, where the parameter has no example to show ({@code rein eval --suite}),
     * asks for the parameter: its label is no command to paste. Before: 'rein eval SUITE' and 'rein eval SUITE --trials 3'.
     */
    @Test
    void aPositionalsNameWithoutAValueOrAnExampleAsksForIt() {
        assertThat(cli.run("eval", "--suite").stderrLines()).containsExactly("rein eval: unknown option '--suite'; SUITE is"
                + " given without an option name, and --suite has no value after it: give the SUITE in its place (see 'rein eval"
                + " --help')");
        assertThat(cli.run("eval", "--suite", "--trials", "3").stderrLines()).singleElement().asString()
                .contains("and --suite has no value after it: give the SUITE in its place (see").doesNotContain("rein eval SUITE");
    }

    /**
     * A positional's name with no value never gets its label put in as the value, whatever the parameter: the command
     * would really send it (rev62 1). Before: 'rein reply --json RID TEXT' (a reply "TEXT" to the run), 'rein run GOAL'
     * (a run with the goal "GOAL"), 'rein reply RUN --json hi'.
     */
    @Test
    void aPositionalsNameWithoutAValueNeverGetsItsLabelAsTheValue() {
        for (List<String> args : List.of(List.of("reply", "--text", "--json", "RID"), List.of("reply", "RID", "--text"),
                List.of("run", "--goal"), List.of("run", "--goal", "--max-steps", "3"), List.of("reply", "--run", "--json", "hi"),
                List.of("show", "--run"))) {
            String line = cli.run(args.toArray(String[]::new)).stderrLines().getFirst();
            String label = args.contains("--text") ? "TEXT" : args.contains("--goal") ? "GOAL" : "RUN";
            assertThat(line).as(args.toString()).contains("has no value after it: give the " + label + " in its place")
                    .doesNotContain("rein reply --json RID TEXT", "rein reply RID TEXT", "rein run GOAL", "rein reply RUN",
                            "rein show RUN");
        }
    }

    /**
     * An option after {@code --} that took a place is offered before {@code --} only when the words left still fill the
     * command's places and its value is a real one (rev62 2). Before: 'rein approve --as bob' (no RUN),
     * 'rein approve --as -- -- r1', 'rein approve --as= -- r1' and 'rein approve --as "" -- r1', all refused.
     */
    @Test
    void anOptionAfterDoubleDashIsOfferedOnlyAsACommandThatWorks() {
        for (List<String> args : List.of(List.of("approve", "--", "--as", "bob"), List.of("approve", "--", "--as", "--", "r1"),
                List.of("approve", "--", "--as=", "r1"), List.of("approve", "--", "--as", "", "r1"))) {
            String line = cli.run(args.toArray(String[]::new)).stderrLines().getFirst();
            assertThat(line).as(args.toString()).contains("comes after --").contains("put it before --")
                    .doesNotContain(": rein ");
        }
        assertThat(cli.run("approve", "--", "--as", "bob").stderrLines().getFirst()).contains("and give the RUN");
        assertThat(cli.run("approve", "--", "--as=", "r1").stderrLines().getFirst()).contains("with its NAME, not empty");
        hintOf("approve", "--", "--as", "bob", "r1");
    }

    /**
     * The "or, if '--x' is the TEXT, put -- before it" alternative is offered only when that command works: the word lands
     * in the TEXT's (or GOAL's) place and the words after '--' fit the command's places (rev63). Before:
     * 'rein reply -- --text --json RID' and 'rein reply -- --run --json hi', refused as a word too many, and
     * 'rein run -- --goal --json', a run of the goal "--goal --json", the '--json' meant as an option.
     */
    @Test
    void theDoubleDashAlternativeIsOfferedOnlyWhenItWorks() {
        for (List<String> args : List.of(List.of("reply", "--text", "--json", "RID"), List.of("reply", "--run", "--json", "hi"),
                List.of("reply", "--run", "--json"), List.of("run", "--goal", "--json"),
                // the user's own '--' would become the goal's text: 'rein run -- --goal --' (rev72 5)
                List.of("run", "--goal", "--"))) {
            String line = cli.run(args.toArray(String[]::new)).stderrLines().getFirst();
            assertThat(line).as(args.toString()).contains("has no value after it").doesNotContain("put -- before it", ": rein ");
        }
        // where it works it stays
        assertThat(hintOf("run", "--max-step")).contains("Or, if '--max-step' is the GOAL, put -- before it: rein run -- --max-step");
        assertThat(hintOf("reply", "RID", "--text")).contains("put -- before it: rein reply RID -- --text (see");
    }

    /**
     * A flag given '=value' after '--' is not offered before '--' with the value, which a flag refuses (rev63). Before:
     * 'rein reply -- --json=x r1 hi' hinted 'rein reply --json=x -- r1 hi' ("--json is a flag and takes no value").
     */
    @Test
    void aFlagGivenAValueAfterDoubleDashIsOfferedWithoutIt() {
        String line = cli.run("reply", "--", "--json=x", "r1", "hi").stderrLines().getFirst();
        assertThat(line).contains("--json is a flag and takes no value").doesNotContain("--json=x --");
        // 'true' is a value a flag takes: the command works as it is
        hintOf("reply", "--", "--json=true", "r1", "hi");
    }

    /**
     * Words after '--' from the TEXT's place on are the reply's text, whatever they look like: 'rein reply RID -- hi
     * --json' replies "hi --json" once quoted (rev63). Before: 'rein reply RID --json -- hi', which drops the '--json' the
     * user protected with '--' from the reply.
     */
    @Test
    void anOptionsNameAfterTheTextAfterDoubleDashStaysInTheText() {
        assertThat(hintOf("reply", "RID", "--", "hi", "--json")).contains("put it in quotes: rein reply RID -- \"hi --json\" (see")
                .doesNotContain("put it before --");
        assertThat(hintOf("reply", "--", "RID", "hi", "--json", "x")).contains("rein reply -- RID \"hi --json x\" (see");
    }

    /** A value of '--' is not called empty (rev63): it is said to be '--'. */
    @Test
    void aValueOfDoubleDashIsNotCalledEmpty() {
        assertThat(cli.run("approve", "--", "--as", "--", "r1").stderrLines().getFirst())
                .contains("with its NAME, not '--'").doesNotContain("not empty");
        assertThat(cli.run("approve", "--", "--as", "", "r1").stderrLines().getFirst()).contains("with its NAME, not empty");
    }

    /**
     * A TEXT given by name with several unquoted words ('--text hi there') after the RUN is the reply of those words
     * (rev63). Before: "give one: rein reply r1 there or rein reply r1 hi", neither the reply meant.
     */
    @Test
    void aNamedTextOfSeveralWordsIsQuoted() {
        assertThat(hintGiving(List.of("RUN=[r1] TEXT=[hi there]"), "reply", "r1", "--text", "hi", "there")).contains("rein reply r1 \"hi there\" (see")
                .doesNotContain("give one");
        assertThat(hintGiving(List.of("--json=[true] RUN=[r1] TEXT=[hi there]"), "reply", "r1", "--text", "hi", "there", "--json")).contains("rein reply r1 \"hi there\" --json (see");
    }

    /** The same command is offered once (rev63). Before: 'give one: rein approve r1 or rein approve r1'. */
    @Test
    void aPositionalGivenTwiceAlikeIsOfferedOnce() {
        for (List<String> args : List.of(List.of("approve", "--run", "r1", "r1"), List.of("approve", "r1", "--run", "r1"))) {
            assertThat(hintOf(args.toArray(String[]::new))).as(args.toString())
                    .contains("RUN is given without an option name, and it is given already, the same: rein approve r1 (see")
                    .doesNotContain(" or rein");
        }
    }

    /**
     * Several positional parameters given by name on one line ({@code --text hi there --run r1}) are put in their places in
     * one pass, then the text quoted (rev72 1, 2). Before: 'rein reply --run r1 "hi there"' and 'rein reply r1 --text hi',
     * each refused for the name left in, and two refused commands for '--run r1 --text hi there'.
     */
    @Test
    void everyNamedPositionalIsPutInItsPlaceInOnePass() {
        List<String> meant = List.of("RUN=[r1] TEXT=[hi there]");
        hintGiving(meant, "reply", "--text", "hi", "there", "--run", "r1");
        hintGiving(meant, "reply", "--run", "r1", "--text", "hi", "there");
        hintGiving(List.of("RUN=[r1] TEXT=[hi]"), "reply", "--run", "r1", "--text", "hi");
        hintGiving(List.of("RUN=[r1] TEXT=[hi]"), "reply", "--run=r1", "--text=hi");
        hintGiving(List.of("--json=[true] RUN=[r1] TEXT=[hi]"), "reply", "--text", "hi", "--json", "--run", "r1");
    }

    /**
     * A TEXT given by name before the RUN with several words ({@code --text hi there r1}) takes the words up to the RUN
     * (rev72 4). Before: 'give one: rein reply there r1 or rein reply there hi', both making "there" the RUN.
     */
    @Test
    void aNamedTextOfSeveralWordsBeforeTheRunIsQuoted() {
        hintGiving(List.of("RUN=[r1] TEXT=[hi there]"), "reply", "--text", "hi", "there", "r1");
    }

    /**
     * A command that would put more words in the places than there are ({@code rein eval --suite s.yaml -- --traces d}:
     * the words after a later '--' are positional) is not offered (rev72 3). Before: 'rein eval s.yaml -- --traces d' and
     * 'rein reply r1 "hi there" -- x', both refused.
     */
    @Test
    void aCommandOverfillingThePlacesIsNotOffered() {
        for (List<String> args : List.of(List.of("eval", "--suite", "s.yaml", "--", "--traces", "d"),
                List.of("reply", "r1", "--text", "hi", "there", "--", "x"))) {
            String line = cli.run(args.toArray(String[]::new)).stderrLines().getFirst();
            assertThat(line).as(args.toString()).contains("is given without an option name").doesNotContain(": rein ");
        }
    }

    /**
     * A GOAL given by name twice is not joined (rev72 5): the same value is offered once, different ones as one command
     * each. Before: 'rein run "hi there hi there"' and 'rein run "hi ho"', goals nobody typed.
     */
    @Test
    void aGoalGivenByNameTwiceIsNotJoined() {
        assertThat(hintGiving(List.of("GOAL=[hi there]"), "run", "--goal", "hi there", "--goal", "hi there"))
                .contains("the same: rein run \"hi there\" (see");
        assertThat(hintGiving(List.of("GOAL=[hi]", "GOAL=[ho]"), "run", "--goal", "hi", "--goal", "ho"))
                .contains("give one: rein run hi or rein run ho (see");
    }

    /**
     * A word holding a control character is offered in no command: the terminal shows it escaped ({@code \x0a}), which a
     * shell keeps as typed, so 'rein reply r1 "hi\x0athere"' pasted would reply with those letters. The hint says to give
     * it in quotes in its place instead (rev77 1). Before: 'rein reply --run r1 --text $'hi\nthere'' was offered that.
     */
    @Test
    void aWordWithAControlCharacterIsOfferedInNoCommand() {
        String[][] cases = {
            {"reply", "--run", "r1", "--text", "hi\nthere"},
            {"reply", "r1", "hi\nthere", "again"},
            {"reply", "--text", "hi", "there\u001b", "--run", "r1"},
            {"run", "--goal", "hi\nthere"},
            {"approve", "r1", "--reject", "wrong\tone", "recipient"},
            {"approve", "r1", "--as", "John\nJ", "Smith"},
        };
        for (String[] args : cases) {
            String line = cli.run(args).stderrLines().getFirst();
            assertThat(line).as(String.join("|", args)).doesNotContainPattern("(: |e\\.g\\. |or )rein ")
                    .contains("holds a control character").contains("give it in quotes in its place");
        }
    }

    /**
     * A TEXT named twice, the second with words after it, is not joined with the second alone, the first dropped: 'rein
     * reply --run r1 --text hi --text hi there' was offered 'rein reply r1 "hi there"' (rev77 2). No command now.
     */
    @Test
    void aTextNamedTwiceIsNotJoinedWithTheLastAlone() {
        for (String[] args : new String[][] {{"reply", "--run", "r1", "--text", "hi", "--text", "hi", "there"},
                {"reply", "--text", "hi", "--run", "r1", "--text", "hi", "there"}}) {
            String line = cli.run(args).stderrLines().getFirst();
            assertThat(line).as(String.join("|", args)).doesNotContain("rein reply r1");
        }
    }

    /**
     * A run id that starts with '-' typed where RUN goes ('rein show -r1'), which names no option nor a slip of one: the
     * hint offers it after '--', as for a GOAL or TEXT. Before: "unknown option '-r1'; ...; and give RUN, ... e.g. rein
     * show run_3f1c..." and nothing about '--'. A slip of an option ('rein show --jsno') is not offered so.
     */
    @Test
    void aRunIdStartingWithADashTypedAsTheRunIsOfferedAfterDoubleDash() {
        assertThat(hintGiving(List.of("RUN=[-r1]"), "show", "-r1")).contains("if '-r1' is the RUN, put -- before it: rein show -- -r1");
        hintGiving(List.of("--json=[true] RUN=[-r1]"), "show", "--json", "-r1");
        hintGiving(List.of("RUN=[-r1]"), "cancel", "-r1");
        assertThat(cli.run("show", "--jsno").stderrLines().getFirst()).contains("did you mean --json?").doesNotContain("put -- before");
    }

    /**
     * A run id that starts with '-' (an application may name its runs so: Agent.Builder.runIds), given with --run or after
     * '--': every command a hint offers gives it after '--', where picocli takes it for the RUN and not for an option.
     * Before: 'rein approve --run -r1 -- -r1' hinted 'rein approve -r1 -- -r1' (unknown option '-r1'), 'rein approve --run
     * -r1' said --run had no value after it, and 'rein approve --reject wrong reason -- -r1' named '-r1' as an option put
     * after '--'.
     */
    @Test
    void aRunIdStartingWithADashIsOfferedAfterDoubleDash() {
        assertThat(hintGiving(List.of("RUN=[-r1]"), "approve", "--run", "-r1", "--", "-r1"))
                .contains("the same: rein approve -- -r1 (see");
        hintGiving(List.of("RUN=[-r1]"), "approve", "--run", "-r1");
        hintGiving(List.of("RUN=[-r1]"), "approve", "--run=-r1");
        hintGiving(List.of("RUN=[-r2]", "RUN=[-r1]"), "approve", "--run", "-r1", "--", "-r2");
        hintGiving(List.of("--json=[true] RUN=[-r1]"), "show", "--run", "-r1", "--json");
        hintGiving(List.of("RUN=[-r1] TEXT=[hi]"), "reply", "--run", "-r1", "hi");
        hintGiving(List.of("RUN=[-r1] TEXT=[hi]"), "reply", "hi", "--run", "-r1");
        hintGiving(List.of("RUN=[-r1] TEXT=[hi]"), "reply", "--text", "hi", "--run", "-r1");
        hintGiving(List.of("RUN=[-r1] TEXT=[hello there]"), "reply", "--", "-r1", "hello", "there");
        hintGiving(List.of("--as=[bob] RUN=[-r1]"), "approve", "--", "-r1", "--as", "bob");
        hintGiving(List.of("--reject=[wrong reason] RUN=[-r1]"), "approve", "--reject", "wrong", "reason", "--", "-r1");
        // '--' is no word of the reason for any run (before: --reject "wrong reason --" r1)
        hintGiving(List.of("--reject=[wrong reason] RUN=[r1]"), "approve", "--reject", "wrong", "reason", "--", "r1");
        // a long option's shape after --run is still taken for a slip of an option, not for the run
        assertThat(cli.run("show", "--run", "--jsno").stderrLines().getFirst()).contains("--run has no value after it");
    }
}
