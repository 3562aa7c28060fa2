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
     * No command a message suggests for a run is built by hand: a literal opening {@code 'rein ...} with the run's id
     * added after it nests the id's own quotes in the command's ({@code 'rein approve 'run_1\x1b[2Jold''}), and the
     * integration test above reaches only the hints an application's run gets, not resume's pending decision, nextTurn,
     * RunReport, JsonStream or WatchedStore. So every such command goes through SuggestedCommand, and a shell-quoted id
     * elsewhere stands only bare after a colon ("continue it with: rein reply ID"). Before (rev106): the old
     * {@code "decide with 'rein approve " + CliHome.shellId(runId) + "'"} in ResumeCommand passed every test.
     */
    @Test
    void everySuggestedCommandForARunIsBuiltThroughSuggestedCommand() throws IOException {
        Pattern byHand = Pattern.compile("'rein [^'\"]*\"\\s*\\+\\s*[^+;]*(shellId|[rR]unId\\b|\\bid\\b)");
        List<String> found = new ArrayList<>();
        try (var sources = Files.walk(Path.of("src/main/java"))) {
            for (Path file : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                String name = file.getFileName().toString();
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    String joined = i + 1 < lines.size() ? line + " " + lines.get(i + 1).strip() : line;
                    if (byHand.matcher(line).find() || byHand.matcher(joined).find() && line.matches(".*'rein [^'\"]*\"\\s*\\+?\\s*$")) {
                        found.add(name + ":" + (i + 1) + ": " + line.strip());
                    } else if (line.contains("shellId(") && !line.strip().startsWith("*") && !name.equals("SuggestedCommand.java")
                            && !name.equals("CliHome.java") && !line.matches(".*: rein [a-z]+ \".*")) {
                        found.add(name + ":" + (i + 1) + ": " + line.strip());
                    }
                }
            }
        }
        assertThat(found).as("suggested commands for a run built by hand, not through SuggestedCommand").isEmpty();
    }
}
