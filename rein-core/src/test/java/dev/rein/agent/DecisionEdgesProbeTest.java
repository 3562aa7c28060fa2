package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.approval.ApprovalException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.approval.ApprovalRequest;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Probes (passed at once) of docs/safety.md's decisions: a second decision on a decided action, a decision on a run
 * that has ended, and a rejection whose reason the model gets as the call's result and the trace records.
 */
class DecisionEdgesProbeTest {
    @Test
    void aSecondDecisionAndADecisionOnAnEndedRunAreRefusedAndARejectionsReasonReachesTheModel() {
        AtomicInteger refunds = new AtomicInteger();
        Tool refund = Tool.builder("refund").description("Refunds.").risk(Risk.WRITE)
                .handler((args, ctx) -> "refunded " + refunds.incrementAndGet()).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("refund", "{\"id\":\"A-104\"}")), text("返金は見送りました"));
        RecordingListener trace = new RecordingListener();
        Agent agent = Agent.builder().model(model).tools(refund).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).listener(trace)
                .build();
        RunResult paused = agent.run("A-104 を返金して");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        ApprovalRequest request = paused.pendingApprovals().get(0);

        agent.runs().reject(paused.runId(), request.actionHash(), "返金の上限を超えています", "sato");
        assertThatThrownBy(() -> agent.runs().approve(paused.runId(), request.actionHash(), "suzuki"))
                .isInstanceOf(ApprovalException.class).hasMessageContaining("already decided");

        RunResult ended = agent.resume(paused.runId());
        assertThat(ended.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(refunds.get()).isZero();
        List<Message> sent = model.requests().get(1).messages();
        ToolResultBlock result = (ToolResultBlock) sent.get(sent.size() - 1).content().get(0);
        assertThat(result.isError()).isTrue();
        assertThat(result.content()).contains("返金の上限を超えています");
        assertThat(trace.events(TraceEvent.ApprovalDecided.class)).singleElement().satisfies(d -> {
            assertThat(d.decision()).isEqualTo("reject");
            assertThat(d.decidedBy()).isEqualTo("sato");
            assertThat(d.reason()).isEqualTo("返金の上限を超えています");
        });

        assertThatThrownBy(() -> agent.runs().approve(paused.runId(), request.actionHash(), "suzuki"))
                .isInstanceOf(ApprovalException.class).hasMessageContaining("is SUCCEEDED, not waiting for approval");
    }
}
