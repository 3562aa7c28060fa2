package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.MessagingTools;
import dev.rein.testkit.ScriptedModel;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A run an application stored under an id that starts with '-' (Agent.Builder.runIds names runs freely): every command a
 * message suggests for it gives the id where picocli takes it for the RUN, after {@code --}, not for an option.
 */
class DashRunIdCliTest {
    private static final String ID = "-app1";
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
    /** A command a message suggests: 'rein show -- -app1', "continue the run with: rein resume -- -app1". */
    private static final Pattern SUGGESTED = Pattern.compile("rein (?:show|approve|resume|reply|cancel)(?: [^' ()]+)*");
    private final InProcessCli cli = new InProcessCli();

    private void pauseInTheStore() {
        pauseInTheStore(ID);
    }

    private void pauseInTheStore(String id) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunResult paused = Agent.builder().model(ScriptedModel.of(toolCalls(call("send_message", SEND)), text("ok")))
                    .tools(MessagingTools.outbox(cli.home().resolve("outbox.jsonl"))).store(store).runIds(() -> id).build()
                    .run("佐藤さんに連絡して");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        }
    }

    /** The RUN picocli parses from a suggested command, or "REFUSED ..." (an unknown option '-app1'). */
    private static String runOf(String command) {
        return ParsedBack.runOf(List.of(command.split(" ")));
    }

    private static List<String> suggested(List<String> lines) {
        List<String> commands = new ArrayList<>();
        for (String line : lines) {
            Matcher m = SUGGESTED.matcher(line);
            while (m.find()) {
                if (m.group().contains(ID)) {
                    commands.add(m.group());
                }
            }
        }
        return commands;
    }

    /**
     * Before: 'rein show -app1', 'rein approve -app1', 'rein resume -app1' and the like, in which picocli takes the id for
     * an unknown option ("Unknown option: '-app1'").
     */
    @Test
    void everyCommandSuggestedForTheRunGivesItsIdAfterDoubleDash() {
        pauseInTheStore();
        List<String> lines = new ArrayList<>();
        // stored by an application: 'rein show' and 'rein approve' work on it
        lines.addAll(cli.run("resume", "--", ID).stderrLines());
        // no action with that hash; an empty --action, an empty --edit: see 'rein show'
        lines.addAll(cli.run("approve", "--action", "ffff", "--", ID).stderrLines());
        lines.addAll(cli.run("approve", "--action=", "--", ID).stderrLines());
        lines.addAll(cli.run("approve", "--edit=", "--", ID).stderrLines());
        InProcessCli.Outcome approve = cli.run("approve", "--", ID);
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        lines.addAll(approve.stderrLines());
        lines.addAll(cli.run("approve", "--", ID).stderrLines()); // decided already
        InProcessCli.Outcome cancel = cli.run("cancel", "--", ID);
        assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
        lines.addAll(cancel.stderrLines());
        lines.addAll(cli.run("cancel", "--", ID).stderrLines()); // nothing to cancel
        lines.addAll(cli.run("approve", "--", ID).stderrLines()); // ended

        List<String> commands = suggested(lines);
        assertThat(commands).as(String.join("\n", lines)).hasSizeGreaterThanOrEqualTo(9);
        for (String command : commands) {
            assertThat(runOf(command)).as(command).isEqualTo(ID);
        }
    }

    /** The one form every suggested command builds on; the id as it is (a control character in it) too. */
    @Test
    void anIdStartingWithADashIsGivenAfterDoubleDash() {
        assertThat(CliHome.shellId(ID)).isEqualTo("-- -app1");
        assertThat(CliHome.shellId("run-1")).isEqualTo("run-1");
        assertThat(CliHome.shellIdAsItIs("-app\u001b1")).isEqualTo("-- $'-app\\x1b1'");
        assertThat(CliHome.shellIdAsItIs("-app1")).isEqualTo("-- '-app1'");
        assertThat(runOf("rein show " + CliHome.shellId(ID))).isEqualTo(ID);
        assertThat(runOf("rein reply " + CliHome.shellId(ID) + " TEXT")).isEqualTo(ID);
    }

    /**
     * An id a shell would read otherwise ('$' expanded, "'" opening a quote) reaches rein approve's and rein cancel's
     * hints quoted, after '--' for its leading '-': each such command, read back by sh, names the run. A test that fails
     * if the quoting is undone in any of them (ApproveCommand's see-'rein show' lines, its decided-already line,
     * CancelCommand's, StoredRunOptions'); RunReport's and ResumeCommand.nextTurn's commands, run as printed, are
     * {@link PrintedCommandsRunTest}'s.
     */
    @Test
    void everySuggestedCommandGivesBackAnIdTheShellWouldReadOtherwise() throws Exception {
        String id = "-my $run's";
        pauseInTheStore(id);
        String form = CliHome.shellId(id);
        assertThat(form).isEqualTo("-- '-my $run'\\''s'");
        List<String> lines = new ArrayList<>();
        lines.addAll(cli.run("resume", "--", id).stderrLines());
        lines.addAll(cli.run("approve", "--action", "ffff", "--", id).stderrLines());
        lines.addAll(cli.run("approve", "--edit=", "--", id).stderrLines());
        assertThat(cli.run("approve", "--", id).exitCode()).isZero();
        lines.addAll(cli.run("approve", "--", id).stderrLines()); // decided already
        lines.addAll(cli.run("cancel", "--", id).stderrLines());
        lines.addAll(cli.run("cancel", "--", id).stderrLines()); // nothing to cancel
        lines.addAll(cli.run("approve", "--", id).stderrLines()); // ended
        int found = 0;
        for (String line : lines) {
            for (String command : List.of("rein show ", "rein approve ", "rein cancel ")) {
                for (int at = line.indexOf(command); at >= 0; at = line.indexOf(command, at + 1)) {
                    String rest = line.substring(at + command.length());
                    if (rest.startsWith("--help")) {
                        continue;
                    }
                    assertThat(rest).as("the id as the shell gives it back: " + line).startsWith(form);
                    List<String> words = ParsedBack.sh(command + form);
                    assertThat(ParsedBack.runOf(words)).as(command + form + " -> " + words).isEqualTo(id);
                    found++;
                }
            }
        }
        assertThat(found).as(String.join("\n", lines)).isGreaterThanOrEqualTo(8);
    }
}
