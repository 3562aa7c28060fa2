package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reads of one response run together; a read that fails for good ends the run only once the others have ended. */
class TemporalParallelReadsTest {
    @Test
    void aReadThatFailsForGoodEndsTheRunAfterTheOtherReadsOfItsStepHaveEnded() {
        Tool slow = Tool.builder("slow_lookup").description("Looks up slowly")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .risk(Risk.READ).handler((args, ctx) -> {
                    Thread.sleep(2_000);
                    return "注文は配達済み";
                }).build();
        ToolInterceptor broken = (invocation, chain) -> {
            if (invocation.call().name().equals("lookup_order")) {
                return null; // breaks the chain's contract: a bug, which ends the run FAILED/internal_error
            }
            return chain.proceed(invocation);
        };
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("slow_lookup", "{\"id\":\"A-2\"}")),
                ScriptedModel.text("never asked"));
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(model, trace, Orders.lookup(), slow).toolInterceptor(broken).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1 と A-2 は?", "run-broken-read").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("internal_error");
            // the slow read ended (its completion traced) before the run's end, which is the trace's last event
            List<TraceEvent> events = trace.events();
            assertThat(events.get(events.size() - 1)).isInstanceOf(TraceEvent.RunFinished.class);
            assertThat(trace.events(TraceEvent.ToolCompleted.class)).anySatisfy(c -> assertThat(c.tool()).isEqualTo("slow_lookup"));
        }
    }
}
