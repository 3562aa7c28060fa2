package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.RunResult;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.testkit.ScriptedModel;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@code --json} result object is one contract whether it is made from a run this process ended ({@link RunResult})
 * or from a stored run ({@link RunSnapshot}, {@code rein cancel --json}): the same bytes for the same fields.
 */
class ResultJsonTest {
    private static final Usage USAGE = new Usage(1200, 340, 56, 78, Map.of(), true, Map.of("web_search", 3L), 90);

    @Test
    void aRunResultAndASnapshotWithTheSameFieldsGiveTheSameBytes() {
        RunResult result = new RunResult("run_1", RunStatus.CANCELLED, "cancelled", "宛先が違います", "途中までの答え", 2, USAGE,
                new BigDecimal("0.001230"), Duration.ofMillis(5), null, List.of());
        RunSnapshot snapshot = new RunSnapshot(RunSnapshot.FORMAT, "run_1", 3, "連絡して", "m", RunStatus.CANCELLED,
                "cancelled", "宛先が違います", "途中までの答え", Instant.EPOCH, Instant.EPOCH, 5, null, List.of(), 2, USAGE,
                new BigDecimal("0.001230"), 0, Map.of(), null, null, null);
        String expected = "{\"run_id\":\"run_1\",\"status\":\"CANCELLED\",\"reason\":\"cancelled\",\"answer\":\"途中までの答え\","
                + "\"steps\":2,\"usage\":{\"input_tokens\":1200,\"output_tokens\":340,\"cache_creation_input_tokens\":78,"
                + "\"cache_read_input_tokens\":56,\"reasoning_output_tokens\":90,\"server_tool_uses\":{\"web_search\":3},"
                + "\"estimated\":true},\"cost_usd\":0.00123}";
        assertThat(ResultJson.write(result)).isEqualTo(expected);
        assertThat(ResultJson.line(ResultJson.of(snapshot))).isEqualTo(expected);
    }

    /** A paused run: what 'rein run --json' printed is what its stored snapshot gives, pending_actions included. */
    @Test
    void aPausedRunsJsonIsTheSameFromItsResultAndFromItsStoredSnapshot() throws Exception {
        InProcessCli cli = new InProcessCli();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send_message",
                "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}")), text("送信しました。"));
        cli.models((name, env) -> model);
        InProcessCli.Outcome run = cli.run("run", "--json", "--tools", "send_message", "連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        try (JdbcRunStore store = JdbcRunStore.sqlite(cli.home())) {
            RunSnapshot stored = store.load(id).orElseThrow();
            assertThat(ResultJson.line(ResultJson.of(stored))).isEqualTo(run.stdout().strip())
                    .contains("\"pending_actions\":[{");
        }
    }
}
