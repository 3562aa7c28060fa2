package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run paused for approval and resumed by an agent with another budget ran on the resuming agent's limits from
 * there (run_resumed records them): its replay applies them after the resume, as the run did.
 */
class ReplayResumedLimitsTest {
    private static Tool refund() {
        return Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}},\"required\":[\"order\"]}")
                .handler((args, ctx) -> "refunded " + args.get("order").asText()).build();
    }

    private static Agent.Builder agent(ScriptedModel model, InMemoryRunStore store) {
        return Agent.builder().model(model).systemPrompt("You handle orders.").tools(refund()).store(store)
                .approvalPolicy(ApprovalPolicy.SIDE_EFFECTS);
    }

    @Test
    void aRunResumedUnderOtherLimitsReplaysWithThemAfterTheResume(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        InMemoryRunStore store = new InMemoryRunStore();
        Agent starting = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-104\"}"))), store)
                .budget(Budget.builder().maxSteps(10).build()).listener(JsonlTraceListener.to(trace)).build();
        RunResult paused = starting.run("Refund A-104");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        starting.runs().approve(paused.runId(), starting.runs().pending(paused.runId()).get(0).actionHash(), "sato");
        // Resumed by an agent that allows one step: the run stops for its budget after the approved call, with a summary
        Agent resuming = agent(ScriptedModel.of(text("Refunded A-104; nothing is left to do.")), store)
                .budget(Budget.builder().maxSteps(1).build()).listener(JsonlTraceListener.to(trace)).build();
        RunResult done = resuming.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(Files.readString(trace)).contains("\"type\":\"run_resumed\"").contains("\"max_steps\":1");

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), new InMemoryRunStore()).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(report.result().history()).isEqualTo(done.history());
    }

    @Test
    void aReplyByAnAgentWithOtherLimitsReplaysWithThemInItsTurn(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        InMemoryRunStore store = new InMemoryRunStore();
        Agent first = agent(ScriptedModel.of(text("Which order?")), store)
                .budget(Budget.builder().maxSteps(10).build()).listener(JsonlTraceListener.to(trace)).build();
        RunResult asked = first.run("Refund my order");
        // The reply's agent allows one step a turn: its turn stops for its budget after the refund, with a summary
        Agent replying = agent(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-104\"}")),
                text("Refunded A-104.")), store).approvalPolicy(ApprovalPolicy.NEVER)
                .budget(Budget.builder().maxSteps(1).build()).listener(JsonlTraceListener.to(trace)).build();
        RunResult done = replying.reply(asked.runId(), "A-104");
        assertThat(done.status()).isEqualTo(RunStatus.STOPPED_BUDGET);

        ReplayReport report = Replay.from(trace).replay(agent(ScriptedModel.of(), new InMemoryRunStore())
                .approvalPolicy(ApprovalPolicy.NEVER).build());

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().history()).isEqualTo(done.history());
    }
}
