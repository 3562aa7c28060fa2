package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose paused call a person edited (then resumed, into the same trace) replays without divergence. */
class ReplayApprovalEditTest {
    private final AtomicInteger refunds = new AtomicInteger();

    private Agent.Builder agent(ScriptedModel model, InMemoryRunStore store) {
        Tool refund = Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"},\"amount\":{\"type\":\"integer\"}},"
                        + "\"required\":[\"order\",\"amount\"]}")
                .handler((args, ctx) -> "返金しました: " + args.get("order").asText() + " " + args.get("amount").asInt() + " 円 ("
                        + refunds.incrementAndGet() + ")").build();
        return Agent.builder().model(model).systemPrompt("You handle orders.").tools(refund).store(store)
                .approvalPolicy(ApprovalPolicy.SIDE_EFFECTS);
    }

    @Test
    void aCallAPersonEditedReplaysWithTheEditAndWithoutRunningAgain(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        InMemoryRunStore store = new InMemoryRunStore();
        Agent recording = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-104\",\"amount\":5000}")),
                text("3000 円を返金しました")), store).listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = recording.run("A-104 を返金して");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        ApprovalRequest request = recording.runs().pending(paused.runId()).get(0);
        recording.runs().edit(paused.runId(), request.actionHash(), Json.parse("{\"order\":\"A-104\",\"amount\":3000}"), "佐藤");
        RunResult done = recording.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(refunds.get()).isEqualTo(1);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), new InMemoryRunStore()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().history()).isEqualTo(done.history());
        assertThat(refunds.get()).as("the refund did not run again").isEqualTo(1);
    }

    @Test
    void anEditThatNoLongerFitsTheToolEndsTheReplayAtThePauseInsteadOfThrowing(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        InMemoryRunStore store = new InMemoryRunStore();
        Agent recording = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-104\",\"amount\":5000}")),
                text("3000 円を返金しました")), store).listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = recording.run("A-104 を返金して");
        ApprovalRequest request = recording.runs().pending(paused.runId()).get(0);
        recording.runs().edit(paused.runId(), request.actionHash(), Json.parse("{\"order\":\"A-104\",\"amount\":3000}"), "佐藤");
        recording.resume(paused.runId());

        // Today's refund takes at least 4000: the call fits, the recorded edit to 3000 no longer does
        Tool refund = Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"},"
                        + "\"amount\":{\"type\":\"integer\",\"minimum\":4000}},\"required\":[\"order\",\"amount\"]}")
                .handler((args, ctx) -> "never").build();
        Agent today = Agent.builder().model(ScriptedModel.of()).systemPrompt("You handle orders.").tools(refund)
                .approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).build();
        ReplayReport report = Replay.from(trace).replay(today);

        assertThat(report.reproduced()).isFalse();
        assertThat(report.firstDivergence().orElseThrow().description())
                .startsWith("step 1: the tool `refund` is now defined otherwise, so the step request differs at tools[0].input_schema.properties.amount.minimum");
        assertThat(report.result().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(refunds.get()).isEqualTo(1);
    }
}
