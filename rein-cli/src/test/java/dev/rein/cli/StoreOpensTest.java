package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.sql.DriverManager;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A command on a stored run opens the SQLite run store once: the typed id is resolved with the store the command
 * works on. Before, {@code CliHome.storedRunId} opened it to resolve the id and the command opened it again (two
 * connections, two schema checks) for {@code show}, {@code approve}, {@code resume}, {@code reply} and {@code cancel}.
 * Connections are counted with {@link DriverManager}'s log, which names each one made (the store connects once when
 * opened, to check its schema, and keeps that connection).
 */
class StoreOpensTest {
    private final InProcessCli cli = new InProcessCli();

    private long connections(Supplier<InProcessCli.Outcome> command, int exitCode) {
        StringWriter log = new StringWriter();
        InProcessCli.Outcome outcome;
        // the log writer is the JVM's: only this store's connections are counted, and it is removed after the command
        DriverManager.setLogWriter(new PrintWriter(log, true));
        try {
            outcome = command.get();
        } finally {
            DriverManager.setLogWriter(null);
        }
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(exitCode);
        String store = "DriverManager.getConnection(\"jdbc:sqlite:" + cli.home().resolve("rein.db").toAbsolutePath() + "\")";
        return log.toString().lines().filter(store::equals).count();
    }

    private String runId() throws Exception {
        try (var files = Files.list(cli.home().resolve("runs"))) {
            return files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
    }

    @Test
    void eachCommandOnAStoredRunOpensTheStoreOnce() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message",
                "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}")), text("送信しました。"),
                text("はい、了解です。"));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "-q", "--tools", "send_message", "連絡して").exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id = runId();

        assertThat(connections(() -> cli.run("show", id), ExitCodes.SUCCEEDED)).as("show").isEqualTo(1);
        assertThat(connections(() -> cli.run("approve", id, "--as", "alice"), ExitCodes.SUCCEEDED)).as("approve").isEqualTo(1);
        assertThat(connections(() -> cli.run("resume", "-q", id), ExitCodes.SUCCEEDED)).as("resume").isEqualTo(1);
        assertThat(connections(() -> cli.run("reply", "-q", id, "ありがとう"), ExitCodes.SUCCEEDED)).as("reply").isEqualTo(1);
    }

    @Test
    void cancelOpensTheStoreOnce() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message",
                "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}")));
        cli.models((name, env) -> model);
        assertThat(cli.run("run", "-q", "--tools", "send_message", "連絡して").exitCode()).isEqualTo(ExitCodes.WAITING_APPROVAL);

        String id = runId();
        assertThat(connections(() -> cli.run("cancel", id), ExitCodes.SUCCEEDED)).isEqualTo(1);
    }
}
