package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.state.StoreException;
import dev.rein.testkit.ScriptedModel;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/cli.md: a store that cannot be used is a usage error on one line that says what to do. A
 * store that opens but cannot be written (a lock another process keeps, a read-only file) is found
 * before a run starts or continues, not at its first save.
 */
class StoreProblemsTest {
    private final InProcessCli cli = new InProcessCli();

    private String runId() throws Exception {
        try (var files = Files.list(cli.home().resolve("runs"))) {
            return files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
    }

    /**
     * Before: 'rein run' created the model and ran while every save and trace event waited 10 s for
     * the lock and failed (WARN lines of the run listener on stderr), and then ended, the run not
     * stored; 'rein approve' said only "[SQLITE_BUSY] The database file is locked".
     */
    @Test
    void aStoreLockedByAnotherProcessIsNamedBeforeARunStartsOrContinues() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(text("最初の答え")));
        assertThat(cli.run("run", "最初の質問").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String id = runId();
        int created = cli.modelsCreated();
        String file = cli.home().resolve("rein.db").toAbsolutePath().toString();
        // a database tool with unsaved edits keeps a write transaction open
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            other.setAutoCommit(false);
            other.createStatement().executeUpdate("UPDATE rein_runs SET steps = steps");
            for (String[] args : List.of(new String[] {"run", "二つ目の質問"}, new String[] {"reply", id, "続けて"})) {
                InProcessCli.Outcome o = cli.run(args);
                assertThat(o.exitCode()).as(args[0]).isEqualTo(ExitCodes.USAGE);
                assertThat(o.stdout()).as(args[0]).isEmpty();
                assertThat(o.stderrLines()).as(args[0]).singleElement().asString()
                        .startsWith("rein " + args[0] + ": the run store " + file + " is locked by another process ([SQLITE_BUSY]")
                        .endsWith("; try again when that process is done");
            }
            assertThat(cli.run("runs").stdout()).as("reading is not blocked").contains(id);
            other.rollback();
        }
        assertThat(cli.modelsCreated()).as("no model was created for a run that could not be stored").isEqualTo(created);
        assertThat(cli.run("reply", id, "続けて").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
    }

    /**
     * The store fails after the start check passed (another process took it over, the disk filled up):
     * here its tables are moved away while the model answers, so the run's final save and its last trace
     * events fail. Before: the run was reported SUCCEEDED with exit 0 and nothing said that 'rein show'
     * and 'rein reply' would not find its end.
     */
    @Test
    void aStoreThatFailsDuringTheRunIsSaidAndTheExitCodeIsNotSuccess() throws Exception {
        String file = cli.home().resolve("rein.db").toAbsolutePath().toString();
        cli.models((name, env) -> ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"6 * 7\"}")), (request, call) -> {
            moveTablesAway(file, "");
            return text("答えは42です").answer(request, call);
        }));
        InProcessCli.Outcome o = cli.run("run", "-q", "質問");
        assertThat(o.stdout()).as("the answer itself is still printed").contains("答えは42です");
        assertThat(o.exitCode()).as(o.stderr()).isEqualTo(ExitCodes.FAILED);
        String id = runId();
        assertThat(o.stderr()).contains("rein run: run " + id + " ended SUCCEEDED, but the run store " + file
                + " could not store its final state").contains("no such table: rein_runs")
                .contains("'rein show " + id + "'")
                .contains("trace events of run " + id + " could not be stored in the run store " + file);
        moveTablesAway(file, "_moved");
        InProcessCli.Outcome shown = cli.run("show", id);
        assertThat(shown.stdout()).as("the store still holds the run as it was before its end").contains("RUNNING");

        InProcessCli.Outcome json = cli.models((name, env) -> ScriptedModel.of((request, call) -> {
            moveTablesAway(file, "");
            return text("二つ目").answer(request, call);
        })).run("run", "--json", "二つ目の質問");
        assertThat(json.exitCode()).as(json.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(json.stderr()).contains("could not store its final state");
        moveTablesAway(file, "_moved");
    }

    /** Before: 'rein runs' failed on one row edited outside Rein ('No enum constant dev.rein.run.RunStatus.DONE') and listed none. */
    @Test
    void aRunWhoseRowWasEditedBeyondReadingIsLeftOutOfTheListingSayingWhyAndTheOthersAreListed() throws Exception {
        cli.models((name, env) -> ScriptedModel.of(text("一つ目")));
        assertThat(cli.run("run", "-q", "一つ目の質問").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String first = runId();
        cli.models((name, env) -> ScriptedModel.of(text("二つ目")));
        assertThat(cli.run("run", "-q", "二つ目の質問").exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
        String file = cli.home().resolve("rein.db").toAbsolutePath().toString();
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            other.createStatement().executeUpdate("UPDATE rein_runs SET status = 'DONE', snapshot = '{' WHERE run_id = '" + first + "'");
        }
        for (String json : List.of("", "--json")) {
            InProcessCli.Outcome o = json.isEmpty() ? cli.run("runs") : cli.run("runs", json);
            assertThat(o.exitCode()).isEqualTo(ExitCodes.SUCCEEDED);
            assertThat(o.stdout()).contains("二つ目の質問").doesNotContain(first);
            assertThat(o.stderrLines()).singleElement().asString()
                    .startsWith("rein runs: run " + first + " in jdbc:sqlite:" + file + " cannot be listed: its status 'DONE' is not one"
                            + " Rein knows, and its snapshot is damaged (")
                    .endsWith("restore the run store from a backup, or delete the run's row");
        }
    }

    /** Renames the run store's tables (to NAME_moved, or back when {@code from} is "_moved"), as if the store went away. */
    private static void moveTablesAway(String file, String from) {
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            for (String table : List.of("rein_runs", "rein_events")) {
                String to = from.isEmpty() ? table + "_moved" : table;
                other.createStatement().executeUpdate("ALTER TABLE " + table + from + " RENAME TO " + to);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A file this user cannot write (root writes any, so the store's own error stands in for SQLite's). */
    @Test
    void aReadOnlyStoreIsNamedWithWhatToDoNotCalledAnUnwritableDirectory() {
        CliHome home = CliHome.of(java.util.Map.of("REIN_HOME", cli.home().toString()));
        var readOnly = new StoreException("cannot write to the run store in jdbc:sqlite:" + home.storeFile()
                + ": [SQLITE_READONLY] Attempt to write a readonly database (attempt to write a readonly database) (the database"
                + " cannot be written: ...)", new org.sqlite.SQLiteException(
                "[SQLITE_READONLY] Attempt to write a readonly database (attempt to write a readonly database)",
                org.sqlite.SQLiteErrorCode.SQLITE_READONLY));
        assertThat(home.unusableStore(readOnly).getMessage()).isEqualTo("the run store " + home.storeFile().toAbsolutePath()
                + " cannot be written (read-only for this user, or on a read-only file system) ([SQLITE_READONLY] Attempt to write"
                + " a readonly database (attempt to write a readonly database)); make it and its directory writable for this"
                + " user, or set REIN_HOME to the directory of a store you can write");
    }

    /**
     * A run refused before it starts leaves nothing behind: no rein.db, no home directory. Before: the store was
     * created (an empty rein.db, its directory) to check that it could be written, and then the missing API key,
     * or the OpenTelemetry settings, refused the run.
     */
    @Test
    void aRunRefusedForItsKeyOrSettingsCreatesNoStore() throws Exception {
        java.nio.file.Path home = cli.home().resolve("新しい家");
        InProcessCli missingKey = new InProcessCli().env("REIN_HOME", home.toString()).models(ProviderModels::create);
        InProcessCli.Outcome o = missingKey.run("run", "--json", "今日は何日?");
        assertThat(o.exitCode()).as(o.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(o.stderrLines()).singleElement().asString().startsWith("rein run: ANTHROPIC_API_KEY is not set");
        assertThat(home).as("nothing was written for a refused run").doesNotExist();

        InProcessCli badTelemetry = new InProcessCli().env("REIN_HOME", home.toString())
                .env("OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318")
                .models((name, env) -> ScriptedModel.of(text("答え")));
        o = badTelemetry.run("run", "--json", "今日は何日?");
        assertThat(o.exitCode()).as(o.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(home).as("nothing was written for a refused run").doesNotExist();

        java.nio.file.Files.createDirectories(home);
        o = missingKey.run("run", "今日は何日?");
        assertThat(o.exitCode()).isEqualTo(ExitCodes.USAGE);
        try (var files = Files.list(home)) {
            assertThat(files.toList()).as("no rein.db in an existing home").isEmpty();
        }
    }
}
