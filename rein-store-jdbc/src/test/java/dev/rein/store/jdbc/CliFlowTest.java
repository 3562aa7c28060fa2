package dev.rein.store.jdbc;

import dev.rein.testkit.MessagingTools;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.state.RunSummary;
import dev.rein.state.RunView;
import dev.rein.state.Runs;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.ToolRegistry;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequence of calls the CLI makes for {@code rein run}, {@code rein runs}, {@code rein show},
 * {@code rein approve} and {@code rein resume}, each "command" with its own store and agent as if
 * it were a separate process, on the demo messaging tools.
 */
class CliFlowTest {
    @TempDir
    Path dir;

    private Agent agent(JdbcRunStore store, ScriptedModel model) {
        return Agent.builder().model(model).tools(MessagingTools.outbox(dir.resolve("outbox.jsonl"))).store(store).build();
    }

    @Test
    void runPausesThenApproveAndResumeFromOtherProcessesSendOnce() {
        String runId;
        try (JdbcRunStore store = JdbcRunStore.sqlite(dir)) {              // rein run "..."
            RunResult paused = agent(store, ScriptedModel.of(
                    toolCalls(call("lookup_contact", "{\"name\":\"佐藤\"}")),
                    toolCalls(call("send_message", "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"会議は15時に変更です。\"}"))))
                    .run("佐藤さんに会議が15時に変わったと伝えて");
            assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            runId = paused.runId();
        }
        assertThat(MessagingTools.read(dir.resolve("outbox.jsonl"))).isEmpty();

        try (JdbcRunStore store = JdbcRunStore.sqlite(dir)) {              // rein runs
            RunSummary row = Runs.in(store).list().get(0);
            assertThat(row.runId()).isEqualTo(runId);
            assertThat(row.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(row.steps()).isEqualTo(2);
            assertThat(row.pendingApprovals()).isEqualTo(1);
        }

        String hash;
        try (JdbcRunStore store = JdbcRunStore.sqlite(dir)) {              // rein show RUN
            RunView view = Runs.in(store).show(runId);
            ApprovalRequest pending = view.pendingApprovals().get(0);
            hash = pending.actionHash();
            assertThat(view.describe()).contains("WAITING_APPROVAL").contains("send_message [IRREVERSIBLE] action " + hash)
                    .contains("会議は15時に変更です。").contains("approval_requested");
        }

        try (JdbcRunStore store = JdbcRunStore.sqlite(dir)) {              // rein approve RUN --edit '{...}'
            Runs.in(store, ToolRegistry.of(MessagingTools.outbox(dir.resolve("outbox.jsonl"))), Clock.systemUTC())
                    .edit(runId, hash, Json.parse("{\"to\":\"sato@example.jp\",\"subject\":\"会議の時間\",\"body\":\"会議は15時からです。\"}"), "cli-user");
        }

        try (JdbcRunStore store = JdbcRunStore.sqlite(dir)) {              // rein resume RUN
            RunResult done = agent(store, ScriptedModel.of(text("佐藤さんに送りました。"))).resume(runId);
            assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        }
        assertThat(MessagingTools.read(dir.resolve("outbox.jsonl"))).singleElement().satisfies(m -> {
            assertThat(m.path("subject").asText()).isEqualTo("会議の時間");
            assertThat(m.path("idempotency_key").asText()).isEqualTo(runId + ":2:0");
        });
    }
}
