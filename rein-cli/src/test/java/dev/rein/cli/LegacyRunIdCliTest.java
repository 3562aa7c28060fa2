package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.MessagingTools;
import dev.rein.testkit.ScriptedModel;
import java.lang.reflect.RecordComponent;
import org.junit.jupiter.api.Test;

/**
 * A run an older Rein saved under an id with a control character: 'rein runs' shows the id escaped
 * ({@code run_1\x1b[2Jold}), and that shown form, typed back, names the run; the id as it is (bash's $'...') does too,
 * and an id stored exactly as typed wins over one shown that way.
 */
class LegacyRunIdCliTest {
    private static final String OLD = "run_1\u001b[2Jold";
    private static final String SHOWN = "run_1\\x1b[2Jold";
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
    private final InProcessCli cli = new InProcessCli();

    /** A run paused for approval, saved under {@code id} as an older Rein could. */
    private void storePausedRunAs(String id, String goal) throws Exception {
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("send_message", SEND))))
                    .tools(MessagingTools.outbox(cli.home().resolve("outbox.jsonl"))).store(store).runIds(() -> "run_made_" + goal.length()).build();
            dev.rein.agent.RunResult paused = agent.run(goal);
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            store.save(renamed(store.load(paused.runId()).orElseThrow(), id));
        }
    }

    /** {@code snapshot} under another id, as an older Rein (or another application) could have saved it. */
    static RunSnapshot renamed(RunSnapshot snapshot, String id) throws Exception {
        RecordComponent[] components = RunSnapshot.class.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            String name = components[i].getName();
            values[i] = name.equals("runId") ? id : name.equals("version") ? 1L : components[i].getAccessor().invoke(snapshot);
        }
        return RunSnapshot.class.getDeclaredConstructor(types).newInstance(values);
    }

    @Test
    void theIdAsRunsShowsItNamesTheRunForShowAndApproveSaysWhyItCannotDecideIt() throws Exception {
        storePausedRunAs(OLD, "古い実行");
        assertThat(cli.run("runs").stdout()).contains(SHOWN);

        // before: "there is no run 'run_1\x1b[2Jold' in the run store ...", though 'rein runs' listed it so
        InProcessCli.Outcome show = cli.run("show", SHOWN);
        assertThat(show.exitCode()).as(show.stderr()).isZero();
        assertThat(show.stdout()).contains("古い実行").contains(SHOWN).doesNotContain("\u001b");
        InProcessCli.Outcome raw = cli.run("show", OLD);
        assertThat(raw.exitCode()).as(raw.stderr()).isZero();
        assertThat(cli.run("show", "--json", SHOWN).stdout()).contains("古い実行");

        InProcessCli.Outcome approve = cli.run("approve", SHOWN, "--as", "佐藤");
        assertThat(approve.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(approve.stderrLines()).singleElement().asString()
                .startsWith("rein approve: run " + SHOWN + " cannot be decided or continued: its id holds the control character U+001B")
                .contains("\"rein show '" + SHOWN + "'\"").doesNotContain("Runs.cancel").doesNotContain("\u001b");
        InProcessCli.Outcome resume = cli.run("resume", SHOWN);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(resume.stderrLines()).singleElement().asString().startsWith("rein resume: run " + SHOWN + " cannot be decided or");
        assertThat(cli.run("show", "run_1\\x1b[2Jnew").stderr()).contains("there is no run 'run_1\\x1b[2Jnew'");
    }

    /** Runs.cancel ends such a run (it is read and cancelled, not decided); rein cancel takes the id as 'rein runs' shows it. */
    @Test
    void theIdAsRunsShowsItNamesTheRunForCancelWhichEndsIt() throws Exception {
        storePausedRunAs(OLD, "古い実行");
        assertThat(cli.run("approve", SHOWN).stderr()).contains("\"rein cancel '" + SHOWN + "'\" ends it");

        InProcessCli.Outcome cancel = cli.run("cancel", SHOWN, "--reason", "古い版の実行");

        assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
        // no 'rein reply' to point to: such a run cannot be continued
        assertThat(cancel.stderrLines()).singleElement().asString().isEqualTo("rein cancel: cancelled run " + SHOWN
                + " (it was WAITING_APPROVAL; the 1 action it waited for will never run); see \"rein show '" + SHOWN + "'\"");
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            assertThat(store.load(OLD).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(store.load(OLD).orElseThrow().message()).isEqualTo("古い版の実行");
        }
        assertThat(cli.run("show", "--json", SHOWN).stdout()).contains("\"status\":\"CANCELLED\"");
    }

    @Test
    void anIdStoredExactlyAsTypedWinsAndTheOtherIsNamedWithHowToGiveIt() throws Exception {
        storePausedRunAs(OLD, "古い実行");
        storePausedRunAs(SHOWN, "文字どおりの実行");
        InProcessCli.Outcome show = cli.run("show", SHOWN);
        assertThat(show.exitCode()).as(show.stderr()).isZero();
        assertThat(show.stdout()).contains("文字どおりの実行").doesNotContain("古い実行");
        assertThat(show.stderrLines()).singleElement().asString()
                .isEqualTo("rein show: run " + SHOWN + " is shown, stored under that id as typed; 'rein runs' shows another run's"
                        + " id the same way, with control characters in it: give that one as it is, rein show $'run_1\\x1b[2Jold'");
        InProcessCli.Outcome other = cli.run("show", OLD);
        assertThat(other.exitCode()).as(other.stderr()).isZero();
        assertThat(other.stdout()).contains("古い実行");
    }
    /**
     * A command a message suggests names the run it is about when pasted into a POSIX shell: the id as 'rein runs' shows
     * it, quoted, since a shell strips the backslash of {@code run_1\x1b[2Jold} unquoted (another run's id) and cuts
     * {@code my run} in two. Before: the shown id unquoted.
     */
    @Test
    void aSuggestedCommandQuotesTheRunIdForTheShell() throws Exception {
        storePausedRunAs(OLD, "古い実行");
        String quoted = "'" + SHOWN + "'";
        assertThat(cli.run("approve", SHOWN).stderr())
                .contains("; \"rein show " + quoted + "\" shows it, \"rein cancel " + quoted + "\" ends it,");
        assertThat(cli.run("cancel", SHOWN).stderr()).contains("); see \"rein show " + quoted + "\"");
        assertThat(cli.run("cancel", SHOWN).stderr()).contains("there is nothing to cancel; see \"rein show " + quoted + "\"");
        storePausedRunAs("my run", "空白のある実行");
        assertThat(cli.run("resume", "my run").stderr())
                .contains(" 'rein show \"my run\"' and 'rein approve \"my run\"' work on it");
    }

    /**
     * An id is given to the shell in plain single quotes, which POSIX sh reads too ({@code '} as {@code '\''}), when it
     * holds nothing to escape; bash's $'...' only when it must: a control character (or an invisible format character)
     * can be typed no other way, and must not reach the terminal raw. Before: always $'...', which sh does not read.
     */
    @Test
    void anIdIsQuotedForPosixShUnlessItHoldsACharacterOnlyDollarQuotesCanGive() {
        assertThat(CliHome.shellIdAsItIs(SHOWN)).isEqualTo("'" + SHOWN + "'");
        assertThat(CliHome.shellIdAsItIs("run_it's")).isEqualTo("'run_it'\\''s'");
        assertThat(CliHome.shellIdAsItIs(OLD)).isEqualTo("$'run_1\\x1b[2Jold'");
        assertThat(CliHome.shellIdAsItIs("run_1\u200bold")).isEqualTo("$'run_1\\u200bold'");
    }
}
