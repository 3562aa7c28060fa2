package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.MessagingTools;
import dev.rein.testkit.ScriptedModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The command lines the usage errors suggest (put -- before a goal starting with '-', complete a command missing its
 * argument) quote what was typed so that a shell gives it back as typed. Before: every word that needed quoting went in
 * double quotes as it was, so a goal with a '"' broke the line and a '$5' or a backquote was expanded by the shell.
 */
class SuggestedCommandQuotingTest {

    @Test
    void aGoalWithQuotesOrDollarsIsSuggestedInSingleQuotes() {
        InProcessCli cli = new InProcessCli().models((name, env) -> ScriptedModel.of(ScriptedModel.text("must not run")));
        InProcessCli.Outcome outcome = cli.run("run", "-$5 off: is \"half price\" less? 半額");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .contains("put -- before it: rein run -- '-$5 off: is \"half price\" less? 半額'");

        assertThat(cli.run("run", "-it's `date`").stderrLines()).singleElement().asString()
                .contains("put -- before it: rein run -- '-it'\\''s `date`'");
        // what needs no more than double quotes keeps them
        assertThat(cli.run("run", "-5 + 3 は?").stderrLines()).singleElement().asString()
                .contains("put -- before it: rein run -- \"-5 + 3 は?\"");
    }

    @Test
    void aMissingArgumentsExampleQuotesWhatWasTypedAsTheShellNeedsIt() {
        assertThat(new InProcessCli().run("reply", "--json", "run_$1").stderrLines()).singleElement().asString()
                .startsWith("rein reply: give TEXT, the reply: the answer to the run's question, or a follow-up, e.g. rein reply"
                        + " --json 'run_$1' \"Room B, please\"");
    }

    /** Where a command a hint sets off in quotes opens: the quote right before "rein COMMAND". */
    private static final Pattern OPENED = Pattern.compile("(?<=^|[ (])(['\"])rein (?:show|approve|resume|reply|cancel) ");

    /**
     * A command a hint sets off in quotes in the middle of a sentence ("see 'rein show RUN' for ...") holds no quote of the
     * kind that sets it off, so the quote that closes it is the one a reader takes for its end, and the command up to it,
     * read by sh and picocli, names the run. Before: {@code see 'rein show 'run_1\x1b[2Jold''} and {@code 'rein show --
     * '-my $run'\''s''}, the id's own single quotes inside the command's, which read as the command ending before its
     * id; pasted with its outer quotes, the id's '$run' stood outside any quotes and was expanded.
     */
    @Test
    void aCommandSetOffInQuotesHoldsNoneOfThatQuoteWhateverTheRunId() throws Exception {
        String legacy = "run_1\u001b[2Jold";
        for (String id : List.of(legacy, "-my $run's", "order \"A 1\"", "my run", "it's", "-app1")) {
            InProcessCli cli = new InProcessCli();
            storePausedRunAs(cli, id);
            String typed = Text.visible(id);
            List<String> lines = new ArrayList<>();
            lines.addAll(cli.run("resume", "--", typed).stderrLines());
            lines.addAll(cli.run("approve", "--action", "ffff", "--", typed).stderrLines());
            lines.addAll(cli.run("approve", "--edit=", "--", typed).stderrLines());
            lines.addAll(cli.run("approve", "--", typed).stderrLines());
            lines.addAll(cli.run("approve", "--", typed).stderrLines()); // decided already
            lines.addAll(cli.run("cancel", "--", typed).stderrLines());
            lines.addAll(cli.run("cancel", "--", typed).stderrLines()); // nothing to cancel
            lines.addAll(cli.run("approve", "--", typed).stderrLines()); // ended
            lines.addAll(cli.run("reply", "--", typed, "hi").stderrLines());
            int found = 0;
            for (String line : lines) {
                Matcher opened = OPENED.matcher(line);
                while (opened.find()) {
                    char quote = opened.group(1).charAt(0);
                    int end = line.indexOf(quote, opened.end());
                    assertThat(end).as(line).isPositive();
                    String command = line.substring(opened.end(1), end);
                    assertThat(end + 1 == line.length() || " ,;.)".indexOf(line.charAt(end + 1)) >= 0)
                            .as("the quote closing '" + command + "' is where a reader takes it to end: " + line).isTrue();
                    if (!command.endsWith(" --help")) {
                        List<String> words = ParsedBack.sh(command);
                        assertThat(ParsedBack.runOf(words)).as(command + " -> " + words + " in " + line).isEqualTo(typed);
                        found++;
                    }
                }
            }
            // a command holding both kinds of quote, or a '$' besides a single quote, is set off by none
            if (List.of(legacy, "my run", "-app1").contains(id)) {
                assertThat(found).as(id + ":\n" + String.join("\n", lines)).isGreaterThanOrEqualTo(4);
            }
        }
    }

    /**
     * The rule itself: single quotes when the command holds none, else double quotes when it holds nothing a shell reads in
     * them, else none; pasted with the quotes set around it, a command is one word, the command itself, so nothing of it
     * runs.
     */
    @Test
    void aCommandIsSetOffInQuotesItDoesNotHoldOrInNone() throws Exception {
        assertThat(SuggestedCommand.quoted("rein show run_1")).isEqualTo("'rein show run_1'");
        assertThat(SuggestedCommand.quoted("rein show \"my run\"")).isEqualTo("'rein show \"my run\"'");
        assertThat(SuggestedCommand.quoted("rein show 'run_1\\x1b[2Jold'")).isEqualTo("\"rein show 'run_1\\x1b[2Jold'\"");
        assertThat(SuggestedCommand.quoted("rein show -- '-my $run'\\''s'")).isEqualTo("rein show -- '-my $run'\\''s'");
        assertThat(SuggestedCommand.quoted("rein reply 'a!b' \"TEXT\"")).isEqualTo("rein reply 'a!b' \"TEXT\"");
        for (String command : List.of("rein show run_1", "rein show \"my run\"", "rein show 'run_1\\x1b[2Jold'",
                "rein reply 'run_`x`' \"TEXT\"", "rein memory list --tenant 'it'\\''s $5'")) {
            String quoted = SuggestedCommand.quoted(command);
            if (!quoted.equals(command)) {
                assertThat(ParsedBack.sh(quoted)).as(quoted).containsExactly(command);
            }
        }
    }

    /** A run paused for approval, stored by an application under {@code id} (renamed, for an id Rein no longer stores). */
    private static void storePausedRunAs(InProcessCli cli, String id) throws Exception {
        String send = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunResult paused = Agent.builder().model(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("send_message", send))))
                    .tools(MessagingTools.outbox(cli.home().resolve("outbox.jsonl"))).store(store).runIds(() -> "run_made")
                    .build().run("佐藤さんに連絡して");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            store.save(LegacyRunIdCliTest.renamed(store.load(paused.runId()).orElseThrow(), id));
        }
    }

    /**
     * No command a message suggests is built by hand: a literal opening {@code 'rein ...} with an id added after it nests
     * the id's own quotes in the command's ({@code 'rein approve 'run_1\x1b[2Jold''}), and the integration tests reach
     * only some hints. So every command set off in quotes goes through SuggestedCommand, and a shell-quoted id elsewhere
     * stands only bare after a colon ("continue it with: rein reply ID"). Before (rev106): the old
     * {@code "decide with 'rein approve " + CliHome.shellId(runId) + "'"} in ResumeCommand passed every test.
     *
     * <p>What it reads: the string literals of rein-cli's main code only (rein-store-jdbc's unreadable-entry hint and
     * rein-core's messages are its tests' to check) outside comments, those joined by {@code +} alone taken as
     * one. (1) A command a literal opens in quotes ({@code 'rein } or {@code \"rein }) closes in that literal and holds no
     * format specifier: whatever is added to it, under any name, or put in by String.format, is built by hand; a bare
     * command holds none either.
     * (2) A literal ending in a bare command of rein's ({@code "... with: rein resume " + ...}) is followed by a word
     * quoted for the shell ({@code CliHome.shellId}, {@code ShellWords}) or by a value named in {@link #SAFE_AFTER}.
     * (3) {@code shellId(} is called only by SuggestedCommand and CliHome, or bare after a colon.
     *
     * <p>What it cannot see: a command assembled from pieces none of which is a literal opening it (a StringBuilder, a
     * constant holding "'rein "), what is added after the first value following a bare command ({@code "rein example " +
     * name + " --report " + value}), a command whose words are not rein's subcommands' names, or a value that is quoted
     * by other means than the ones named. Those still need a reader.
     */
    @Test
    void everySuggestedCommandIsBuiltThroughSuggestedCommand() throws IOException {
        Pattern opened = Pattern.compile("('|\\\\\")rein ");
        java.util.Set<String> commands = Rein.commandLine(new CliEnvironment(System.out, System.err, java.util.Map.of(),
                Terminal.NONE, (name, env) -> null, false, new java.io.ByteArrayInputStream(new byte[0]))).getSubcommands().keySet();
        Pattern bare = Pattern.compile("(?:^|[^'\"\\w])rein (?:" + String.join("|", commands) + ")(?: [a-z-]+)* $");
        Pattern bareFormat = Pattern.compile("(?:^|[^'\"\\w])rein (?:" + String.join("|", commands)
                + ")(?: [a-z-]+)* (?:-- )?%[-#+ 0,(]*\\d*[sdn]");
        List<String> found = new ArrayList<>();
        try (var sources = Files.walk(Path.of("src/main/java"))) {
            for (Path file : sources.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = file.getFileName().toString();
                for (Literal literal : literals(Files.readString(file))) {
                    String where = name + ":" + literal.line() + ": \"" + literal.text() + "\"";
                    Matcher m = opened.matcher(literal.text());
                    while (m.find()) {
                        String rest = literal.text().substring(m.end());
                        int close = rest.indexOf(m.group(1));
                        if (close < 0 || rest.substring(0, close).matches("(?s).*%[-#+ 0,(]*\\d*[sdn].*")) {
                            found.add(where + (close < 0 ? " " + literal.after() : "") + ": a quoted command built by hand");
                        }
                    }
                    // a bare command holding a format specifier ("continue with: rein resume %s"): a value String.format puts
                    // in, unquoted, as the quoted ones above
                    if (bareFormat.matcher(literal.text()).find()) {
                        found.add(where + ": a bare command with a format specifier, its value not quoted for the shell");
                    }
                    // what is added to the literal: "..." + it, or .append("...").append(it)
                    String after = literal.after();
                    String added = after.startsWith("+") ? after.substring(1).strip()
                            : after.startsWith(").append(") ? after.substring(").append(".length()).strip() : null;
                    if (added == null) {
                        continue;
                    }
                    if (bare.matcher(literal.text()).find() && !added.startsWith("CliHome.shellId(") && !added.startsWith("ShellWords.")
                            && SAFE_AFTER.stream().noneMatch(safe -> (name + ": " + added).startsWith(safe))) {
                        found.add(where + " + " + added + ": a bare command given a value not quoted for the shell");
                    }
                    if (added.matches("(CliHome\\.)?shellId\\(.*") && !name.equals("SuggestedCommand.java") && !name.equals("CliHome.java")
                            && !literal.text().matches(".*: rein [a-z]+ $")) {
                        found.add(where + " + " + added + ": a shell-quoted id outside SuggestedCommand, not bare after a colon");
                    }
                }
            }
        }
        assertThat(found).as("suggested commands built by hand, not through SuggestedCommand").isEmpty();
    }

    /**
     * Values a bare command may be given unquoted, by file: each is a name Rein checked or made, never a word as typed.
     * (A new entry needs the reason.)
     */
    private static final List<String> SAFE_AFTER = List.of(
            "ExampleCommand.java: Examples.list().getFirst().name()", // the name of an example Rein ships
            "ExampleCommand.java: name "); // found among the examples (Examples.find) before any message names it

    /** A string literal of the main code, those joined by {@code +} alone made one: its first line, text as written, and the code after it. */
    private record Literal(int line, String text, String after) {}

    /** The string literals of {@code source} outside comments and char literals (a text block fails the scan: the main code has none). */
    private static List<Literal> literals(String source) {
        List<Literal> literals = new ArrayList<>();
        int line = 1;
        int i = 0;
        StringBuilder text = null;
        int first = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\n') {
                line++;
            }
            if (source.startsWith("//", i)) {
                i = source.indexOf('\n', i);
                i = i < 0 ? source.length() : i;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                line += (int) source.substring(i, end).chars().filter(ch -> ch == '\n').count();
                i = end + 2;
            } else if (c == '\'') {
                i = source.charAt(i + 1) == '\\' ? source.indexOf('\'', i + 3) + 1 : i + 3;
            } else if (c == '"') {
                if (source.startsWith("\"\"\"", i)) { // a text block would be read as "" and then a literal from its text on
                    throw new AssertionError("a text block at line " + line + ": the scan of suggested commands does not read"
                            + " them; read it in literals() first");
                }
                int end = i + 1;
                while (source.charAt(end) != '"') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                if (text == null) {
                    text = new StringBuilder();
                    first = line;
                }
                text.append(source, i + 1, end);
                i = end + 1;
                // "a" + "b": one literal
                Matcher joined = Pattern.compile("\\s*\\+\\s*\"").matcher(source).region(i, source.length());
                if (joined.lookingAt()) {
                    line += (int) source.substring(i, joined.end() - 1).chars().filter(ch -> ch == '\n').count();
                    i = joined.end() - 1;
                } else {
                    String after = source.substring(i, Math.min(source.length(), i + 200)).strip();
                    literals.add(new Literal(first, text.toString(), after.replaceAll("\\s+", " ")));
                    text = null;
                }
            } else {
                i++;
            }
        }
        return literals;
    }
}
