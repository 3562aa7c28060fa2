package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.hang;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** agent.stream(goal) as a user tries it: Japanese deltas with a typed result, a pause, a consumer that stops. */
class RunStreamConsumerTest {
    @Test
    void japaneseDeltasJoinToTheTypedAnswerAndTheResultComesOnceAndLast() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls("調べます。", call("echo", "{\"text\":\"注文\"}")),
                text("{\"decision\":\"返金\"}"));
        record V(String decision) {}
        Agent agent = Agent.builder().model(model).tools(TestTools.echo()).outputType(V.class).build();
        try (RunStream s = agent.stream("注文を確認して")) {
            List<RunEvent> events = s.stream().toList();
            RunResult r = ((RunEvent.Finished) events.get(events.size() - 1)).result();
            assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(r.output(V.class).decision()).isEqualTo("返金");
            String text = events.stream().filter(e -> e instanceof RunEvent.TextDelta).map(e -> ((RunEvent.TextDelta) e).text())
                    .collect(Collectors.joining());
            assertThat(text).isEqualTo("調べます。{\"decision\":\"返金\"}");
            assertThat(events.stream().filter(e -> e.type().equals("result")).count()).isEqualTo(1);
            assertThat(s.result().get()).isSameAs(r);
        }
    }

    @Test
    void aPauseForApprovalIsStreamedAndEndsTheStream() {
        Tool refund = Tool.builder("refund").description("Refunds.").risk(dev.rein.tool.Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}}}")
                .handler((a, c) -> "refunded").build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-104\"}"))))
                .tools(refund).approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).build();
        try (RunStream s = agent.stream("返金して")) {
            List<String> types = s.stream().map(RunEvent::type).toList();
            assertThat(types).contains("approval_requested").endsWith("result");
            assertThat(s.result().join().status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        }
    }

    @Test
    void closingTheJavaStreamMidwayCancelsTheRun() throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"x\"}")), hang()))
                .tools(TestTools.echo()).build();
        RunStream s = agent.stream("hang");
        try (var events = s.stream()) {
            Iterator<RunEvent> it = events.iterator();
            while (it.hasNext()) {
                if (it.next().type().equals("tool_result")) {
                    break;
                }
            }
        }
        RunResult r = s.result().get(10, TimeUnit.SECONDS);
        assertThat(r.status()).isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void interruptingTheIteratingThreadCancelsTheRun() throws Exception {
        Agent agent = Agent.builder().model(ScriptedModel.of(hang())).build();
        RunStream s = agent.stream("hang");
        List<String> seen = new ArrayList<>();
        Thread t = Thread.ofVirtual().start(() -> s.forEach(e -> seen.add(e.type())));
        Thread.sleep(500);
        t.interrupt();
        t.join(5000);
        RunResult r = s.result().get(10, TimeUnit.SECONDS);
        assertThat(r.status()).isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void eventsReadAfterTheRunEndedAreAllThere() throws Exception {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo", "{\"text\":\"a\"}")), text("終わり"));
        RunStream s = Agent.builder().model(model).tools(TestTools.echo()).build().stream("go");
        s.result().get(10, TimeUnit.SECONDS);
        List<String> types = s.stream().map(RunEvent::type).toList();
        assertThat(types).startsWith("run_started").endsWith("run_finished", "result");
    }
}
