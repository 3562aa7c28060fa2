package dev.rein.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.eval.TrialModel;
import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

class OrderInvestigationTest {
    @Test
    void theDemoInvestigatesPausesForApprovalAndReshipsOnce() {
        DemoOutput demo = SuiteRuns.demo(OrderInvestigation.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("= WAITING_APPROVAL (approval_required)")
                .contains("demo-approver approves.")
                .contains("re-shipment R-1 created")
                .contains("= SUCCEEDED")
                .contains("Re-shipments made: 1");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new OrderInvestigation().suite());
    }

    @Test
    void aRejectedReshipmentNeverRunsAndTheModelIsToldWhy() {
        OrdersWorld world = new OrdersWorld();
        // The demo's script up to the re-shipment, then an answer that reports the rejection.
        ScriptedModel model = ScriptedModel.of(new OrderInvestigation().demoScript().subList(0, 4)).then(
                ScriptedModel.text(OrderInvestigation.ANSWER_A104 + " The re-shipment was rejected: wait for the restock."));
        Agent agent = OrderInvestigation.agent(world, new TrialModel(model, "claude-sonnet-5"), OrderInvestigation.SUPERVISOR,
                OrderInvestigation.budget());
        RunResult paused = agent.run(OrderInvestigation.RESHIP_GOAL);
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        ApprovalRequest request = paused.pendingApprovals().get(0);
        assertThat(request.tool()).isEqualTo("reship_order");
        agent.runs().reject(paused.runId(), request.actionHash(), "wait for the restock instead", "lead");
        RunResult done = agent.resume(paused.runId());
        assertThat(done.succeeded()).as(done.message()).isTrue();
        assertThat(world.reshipments()).isEmpty();
        assertThat(done.history().toString()).contains("wait for the restock instead");
    }
}
