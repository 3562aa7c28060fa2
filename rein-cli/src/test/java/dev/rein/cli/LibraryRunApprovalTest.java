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
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A run the library paused in a SQLite store ($REIN_HOME/rein.db), decided from the command line. */
class LibraryRunApprovalTest {
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
    private final InProcessCli cli = new InProcessCli();

    private RunResult pauseInTheStore(ScriptedModel model, Path outbox) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            return Agent.builder().model(model).tools(MessagingTools.outbox(outbox)).store(store).build().run("佐藤さんに連絡して");
        }
    }

    private RunResult resumeFromTheStore(ScriptedModel model, Path outbox, String runId) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            return Agent.builder().model(model).tools(MessagingTools.outbox(outbox)).store(store).build().resume(runId);
        }
    }

    @Test
    void aRunTheLibraryPausedIsListedShownAndDecidedByTheCliThenResumedByTheLibrary() {
        Path outbox = cli.home().resolve("app-outbox.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
        RunResult paused = pauseInTheStore(model, outbox);
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        String id = paused.runId();

        InProcessCli.Outcome runs = cli.run("runs");
        assertThat(runs.exitCode()).as(runs.stderr()).isZero();
        assertThat(runs.stdout()).contains(id).contains("WAITING_APPROVAL");
        InProcessCli.Outcome show = cli.run("show", id);
        assertThat(show.exitCode()).as(show.stderr()).isZero();
        assertThat(show.stdout()).contains("send_message").contains("明日10時に変更です。");

        InProcessCli.Outcome approve = cli.run("approve", id, "--as", "佐藤");
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(cli.run("show", id).stdout()).contains("approved by 佐藤");

        InProcessCli.Outcome resume = cli.run("resume", id);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(resume.stderrLines()).singleElement().asString().isEqualTo("rein resume: run " + id + " was stored by an"
                + " application, not started by 'rein run', so rein resume does not know its model, tools and prompt; continue it"
                + " from the application (agent.resume, agent.reply). 'rein show " + id + "' and 'rein approve " + id + "' work on it");
        InProcessCli.Outcome none = cli.run("resume", "run_nosuchrun");
        assertThat(none.stderrLines()).singleElement().asString()
                .isEqualTo("rein resume: there is no run 'run_nosuchrun' in the run store " + cli.home().resolve("rein.db").toAbsolutePath()
                        + "; list the stored runs with 'rein runs'");

        RunResult done = resumeFromTheStore(model, outbox, id);
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(MessagingTools.read(outbox)).hasSize(1);
    }

    @Test
    void aRunTheLibraryPausedIsRejectedOrEditedByTheCli() {
        Path outbox = cli.home().resolve("app-outbox.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("了解"));
        String id = pauseInTheStore(model, outbox).runId();
        String edited = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日11時です。\"}";
        InProcessCli.Outcome edit = cli.run("approve", id, "--edit", edited);
        assertThat(edit.exitCode()).as(edit.stderr()).isZero();
        assertThat(edit.stderr()).contains("checked against the schema of send_message when the application that stored the run resumes it");
        RunResult done = resumeFromTheStore(model, outbox, id);
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(MessagingTools.read(outbox)).singleElement().satisfies(m -> assertThat(m.toString()).contains("明日11時です。"));
    }

    /** An application may name its runs (Agent.Builder.runIds): the CLI decides those as it does its own. */
    @Test
    void aRunAnApplicationNamedItselfIsShownAndDecidedByTheCli() {
        Path outbox = cli.home().resolve("app-outbox.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
        String id = "注文:42/確認";
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunResult paused = Agent.builder().model(model).tools(MessagingTools.outbox(outbox)).store(store).runIds(() -> id).build()
                    .run("佐藤さんに連絡して");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        }
        assertThat(cli.run("show", id).exitCode()).isZero();
        InProcessCli.Outcome approve = cli.run("approve", id, "--as", "佐藤");
        // before: "'注文:42/確認' is not a run id; list the runs with 'rein runs'" (exit 2), though 'rein runs' listed it
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        InProcessCli.Outcome resume = cli.run("resume", id);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(resume.stderrLines()).singleElement().asString().startsWith("rein resume: run " + id + " was stored by an application");
        RunResult done = resumeFromTheStore(model, outbox, id);
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(MessagingTools.read(outbox)).hasSize(1);
    }

    /**
     * After a decision on a run an application stored, the way on is the application's: rein resume refuses such a run,
     * as it does not know its model, tools and prompt. Before: "continue the run with: rein resume ID" after the decision,
     * and "continue it with 'rein resume ID'" when every action was decided already.
     */
    @Test
    void aDecisionOnARunTheLibraryPausedPointsToTheApplicationNotToReinResume() {
        Path outbox = cli.home().resolve("app-outbox.jsonl");
        String id = pauseInTheStore(ScriptedModel.of(toolCalls(call("send_message", SEND)), text("了解")), outbox).runId();
        InProcessCli.Outcome approve = cli.run("approve", id);
        assertThat(approve.exitCode()).as(approve.stderr()).isZero();
        assertThat(approve.stderrLines().getLast()).isEqualTo("continue the run from the application that stored it"
                + " (agent.resume): rein resume does not know its model, tools and prompt");
        InProcessCli.Outcome again = cli.run("approve", id);
        assertThat(again.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(again.stderrLines()).singleElement().asString().contains("is decided already (see 'rein show " + id + "');"
                + " continue the run from the application that stored it (agent.resume)").doesNotContain("rein resume " + id);
    }

    /**
     * rein approve on a run an application stored that is not waiting: one that ended is told to take a reply from the
     * application, one stored RUNNING to be continued there if its process stopped. Before: each was told only "see
     * 'rein show ID'" (rein reply and rein resume, which the CLI's own runs are pointed to, refuse such a run).
     */
    @Test
    void approveOnARunTheLibraryEndedOrLeftRunningPointsToTheApplication() {
        Path outbox = cli.home().resolve("app-outbox.jsonl");
        String id;
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunResult done = Agent.builder().model(ScriptedModel.of(text("済みました。"))).tools(MessagingTools.outbox(outbox))
                    .store(store).build().run("佐藤さんに連絡して");
            assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
            id = done.runId();
        }
        InProcessCli.Outcome ended = cli.run("approve", id);
        assertThat(ended.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(ended.stderrLines()).singleElement().asString().endsWith("there is nothing to approve; see 'rein show " + id
                + "', or ask a follow-up from the application that stored it (agent.reply)").doesNotContain("rein reply");
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            dev.rein.state.RunSnapshot snapshot = store.load(id).orElseThrow();
            store.save(snapshot.withStatus(RunStatus.RUNNING, null, null, snapshot.updatedAt()));
        }
        InProcessCli.Outcome running = cli.run("approve", id);
        assertThat(running.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(running.stderrLines()).singleElement().asString().endsWith("is RUNNING, not waiting for any approval; see 'rein show "
                + id + "'. If the process that ran it has stopped (it crashed or was killed), continue the run from the"
                + " application that stored it (agent.resume)").doesNotContain("rein resume");
    }
}
