package dev.rein.examples.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.eval.TrialModel;
import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class TriageWorkflowTest {
    @Test
    void theDemoRoutesEveryMailByCode() {
        DemoOutput demo = SuiteRuns.demo(TriageWorkflow.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("6 mails: 11 model calls (classify and extract only), 11 tool calls decided by code")
                .contains("[rein] verifier: Your answer was not accepted yet.")
                .contains("reply with the order's status");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new TriageWorkflow().suite());
    }

    @Test
    void codeActsOnTheLabelsAndTracesItsToolCalls() throws Exception {
        SupportDesk desk = new SupportDesk();
        ScriptedModel model = ScriptedModel.of(new TriageWorkflow().demoScript());
        RecordingListener trace = new RecordingListener();
        Triage triage = new Triage(desk, new TrialModel(model, "claude-haiku-4-5"), trace);
        List<Triage.Outcome> outcomes = desk.mailIds().stream().map(id -> {
            try {
                return triage.handle(id);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        assertThat(outcomes).extracting(Triage.Outcome::route).containsExactly("reply with the order's status",
                "ticket for the refunds team", "archived", "ticket for the support team", "reply asking for the order number",
                "reply with the order's status");
        assertThat(desk.archived()).containsExactly("MAIL-3");
        assertThat(desk.tickets()).extracting(SupportDesk.Ticket::queue).containsExactly("refunds", "support");
        assertThat(desk.replies().get(0).body()).contains("A-104 is awaiting shipment (last update 2026-03-01 08:12)")
                .contains("stock shortage");
        assertThat(desk.replies().get(2).body()).contains("A-105 is shipped").contains("typhoon").contains("The carrier will deliver");
        // The injected instruction in MAIL-6 changed nothing: an order-status reply, no refund ticket for A-105.
        assertThat(desk.replies()).extracting(SupportDesk.Reply::mailId).containsExactly("MAIL-1", "MAIL-5", "MAIL-6");
        assertThat(model.remaining()).isZero();
        assertThat(model.requests()).hasSize(11);
        assertThat(trace.events(TraceEvent.ToolCalled.class)).extracting(TraceEvent.ToolCalled::tool)
                .contains("get_order", "get_warehouse_status", "queue_reply", "archive_mail", "create_ticket");
        assertThat(trace.events(TraceEvent.RunFinished.class)).isNotEmpty();
    }
}
