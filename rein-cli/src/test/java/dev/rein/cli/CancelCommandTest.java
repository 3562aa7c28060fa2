package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.state.StoredEvent;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.ScriptedModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code rein cancel RUN}: ends a stored run that waits for approval (or whose process died) as CANCELLED, through
 * {@code Runs.cancel}, each invocation its own "process". Before, the CLI had no way to do this: a paused run stayed
 * WAITING_APPROVAL for good unless its actions were decided and it was resumed.
 */
class CancelCommandTest {
    private static final String SEND = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
    private final InProcessCli cli = new InProcessCli();

    private String runId() throws Exception {
        try (var files = Files.list(cli.home().resolve("runs"))) {
            return files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
    }

    private String pausedRun(String... trace) throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message", SEND)), text("送信しました。"));
        cli.models((name, env) -> model);
        List<String> args = new java.util.ArrayList<>(List.of("run", "--tools", "send_message"));
        args.addAll(List.of(trace));
        args.add("連絡して");
        InProcessCli.Outcome run = cli.run(args.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        return runId();
    }

    private List<StoredEvent> storedTrace(String id) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            return store.events(id);
        }
    }

    @Test
    void aPausedRunIsCancelledItsActionNeverRunsAndItsTraceEndsWithTheCancellation() throws Exception {
        Path trace = cli.home().resolve("run.jsonl");
        String id = pausedRun("--trace", trace.toString());

        InProcessCli.Outcome cancel = cli.run("cancel", id, "--reason", "宛先が違います", "--trace", trace.toString());

        assertThat(cancel.exitCode()).as(cancel.stderr()).isEqualTo(ExitCodes.SUCCEEDED);
        assertThat(cancel.stdout()).isEmpty();
        assertThat(cancel.stderrLines()).singleElement().asString().isEqualTo("rein cancel: cancelled run " + id
                + " (it was WAITING_APPROVAL; the 1 action it waited for will never run); see 'rein show " + id + "', or"
                + " continue it with 'rein reply " + id + " \"TEXT\"' (the calls the cancel left without a result are answered"
                + " as cancelled first)");
        JsonNode shown = Json.parse(cli.run("show", "--json", id).stdout());
        assertThat(shown.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(shown.path("reason").asText()).isEqualTo("cancelled");
        assertThat(shown.path("message").asText()).isEqualTo("宛先が違います");
        assertThat(shown.path("pending_approvals").asInt()).isZero();
        // the stored trace ends with what Runs.cancel records: the transition and the run's end
        List<StoredEvent> events = storedTrace(id);
        assertThat(events.get(events.size() - 2).type()).isEqualTo("state_change");
        assertThat(Json.parse(events.get(events.size() - 2).json()).path("from").asText()).isEqualTo("WAITING_APPROVAL");
        assertThat(events.getLast().type()).isEqualTo("run_finished");
        // and so does the --trace file the run was started with
        List<String> lines = Files.readAllLines(trace);
        assertThat(Json.parse(lines.getLast()).path("type").asText()).isEqualTo("run_finished");
        assertThat(Json.parse(lines.getLast()).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(Json.parse(lines.get(lines.size() - 2)).path("to").asText()).isEqualTo("CANCELLED");

        InProcessCli.Outcome resume = cli.run("resume", id);
        assertThat(resume.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.home().resolve("outbox.jsonl")).doesNotExist();
    }

    @Test
    void withJsonItPrintsTheRunAsRunJsonDoesAndWithoutAReasonTheLibrarysMessageIsStored() throws Exception {
        String id = pausedRun();
        InProcessCli.Outcome cancel = cli.run("cancel", "--json", id);
        assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
        JsonNode json = Json.parse(cancel.stdout());
        assertThat(cancel.stdout().lines()).hasSize(1);
        assertThat(json.fieldNames()).toIterable().containsExactly("run_id", "status", "reason", "answer", "steps", "usage", "cost_usd");
        assertThat(json.path("run_id").asText()).isEqualTo(id);
        assertThat(json.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(json.path("reason").asText()).isEqualTo("cancelled");
        assertThat(json.path("steps").asInt()).isEqualTo(1);
        assertThat(Json.parse(cli.run("show", "--json", id).stdout()).path("message").asText()).isEqualTo("cancelled by a person");
    }

    @Test
    void aRunThatEndedAnUnknownRunNoStoreAndAnEmptyReasonAreOneLineUsageErrors() throws Exception {
        InProcessCli.Outcome noStore = cli.run("cancel", "run_nope");
        assertThat(noStore.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noStore.stderrLines()).singleElement().asString().startsWith("rein cancel: no run store in ");
        assertThat(cli.home().resolve("rein.db")).doesNotExist();

        String id = pausedRun();
        InProcessCli.Outcome missing = cli.run("cancel", "run_nope");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(missing.stderrLines()).singleElement().asString().isEqualTo("rein cancel: there is no run 'run_nope' in the"
                + " run store " + cli.home().resolve("rein.db").toAbsolutePath() + "; list the stored runs with 'rein runs'");

        InProcessCli.Outcome empty = cli.run("cancel", id, "--reason", " ");
        assertThat(empty.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(empty.stderrLines()).singleElement().asString().isEqualTo("rein cancel: --reason is empty: say why the run is"
                + " cancelled, e.g. --reason \"no longer needed\", or leave --reason out");

        assertThat(cli.run("cancel", id).exitCode()).isZero();
        InProcessCli.Outcome again = cli.run("cancel", "--json", id);
        assertThat(again.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(again.stdout()).isEmpty();
        assertThat(again.stderrLines()).singleElement().asString().isEqualTo("rein cancel: run " + id + " already ended CANCELLED"
                + " (cancelled); there is nothing to cancel; see 'rein show " + id + "'");

        ScriptedModel answers = ScriptedModel.of(text("42"));
        cli.models((name, env) -> answers);
        InProcessCli fresh = new InProcessCli().models((name, env) -> answers);
        fresh.run("run", "--tools", "", "答えは?");
        String done;
        try (var files = Files.list(fresh.home().resolve("runs"))) {
            done = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        InProcessCli.Outcome ended = fresh.run("cancel", done);
        assertThat(ended.stderrLines()).singleElement().asString().isEqualTo("rein cancel: run " + done + " already ended"
                + " SUCCEEDED (completed); there is nothing to cancel; see 'rein show " + done + "'");
    }

    /**
     * An action approved but not yet carried out (no resume) never runs either, once the run is cancelled: the line said
     * only "(it was WAITING_APPROVAL)", as it counted the actions still undecided.
     */
    @Test
    void anActionDecidedButNotCarriedOutIsNamedAsNeverRunning() throws Exception {
        String id = pausedRun();
        assertThat(cli.run("approve", id).exitCode()).isZero();

        InProcessCli.Outcome cancel = cli.run("cancel", id);

        assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
        assertThat(cancel.stderrLines()).singleElement().asString().startsWith("rein cancel: cancelled run " + id
                + " (it was WAITING_APPROVAL; the 1 action it waited for will never run, though decided); see 'rein show " + id + "'");
        assertThat(cli.run("resume", id).exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.home().resolve("outbox.jsonl")).doesNotExist();
    }

    /**
     * A run stored RUNNING: its process died, or another process still runs it (the store cannot tell). It is cancelled,
     * as Runs.cancel allows, and the line says what a process still running it then does.
     */
    @Test
    void aRunStoredRunningIsCancelledAndTheLineSaysWhatAProcessStillRunningItDoes() throws Exception {
        ScriptedModel first = ScriptedModel.of(toolCalls(call("lookup_contact", "{\"name\":\"佐藤\"}")));
        cli.models((name, env) -> first);
        cli.run("run", "--tools", "lookup_contact", "佐藤さんの連絡先を調べて");
        String id = runId();
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunSnapshot ended = store.load(id).orElseThrow();
            store.save(ended.withStatus(RunStatus.RUNNING, null, null, ended.updatedAt()));
        }

        InProcessCli.Outcome cancel = cli.run("cancel", id);

        assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
        assertThat(cancel.stderrLines()).containsExactly("rein cancel: run " + id + " was stored as RUNNING: it is taken to"
                + " have stopped with its process; if another process is still running it, that process stops at its next save"
                + " of the run (FAILED, store_conflict) without overwriting the cancellation, and a tool call it has under way"
                + " may still finish", "rein cancel: cancelled run " + id + " (it was RUNNING); see 'rein show " + id + "', or"
                + " continue it with 'rein reply " + id + " \"TEXT\"' (the calls the cancel left without a result are answered"
                + " as cancelled first)");
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            assertThat(store.load(id).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        }
    }
}
