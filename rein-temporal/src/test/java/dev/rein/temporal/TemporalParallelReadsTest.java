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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The reads of one response run together; a read that fails for good cancels the others (their activities, through a
 * cancellation scope) and ends the run once they have ended, as a local run interrupts them and waits.
 */
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
            // the slow read ended (completed, or cancelled: it may end before its worker hears the cancel) before the
            // run's end, which is the trace's last event
            List<TraceEvent> events = trace.events();
            assertThat(events.get(events.size() - 1)).isInstanceOf(TraceEvent.RunFinished.class);
        }
    }

    @Test
    void aReadThatFailsForGoodCancelsTheOtherReadsOfItsStepAndEndsTheRunOnceTheyHaveStopped() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Tool slow = Tool.builder("slow_lookup").description("Looks up very slowly")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .risk(Risk.READ).timeout(Duration.ofMinutes(5)).handler((args, ctx) -> {
                    try {
                        Thread.sleep(90_000);
                    } catch (InterruptedException e) {
                        seen.add("interrupted");
                        throw e;
                    }
                    seen.add("finished");
                    return "注文は配達済み";
                }).build();
        ToolInterceptor broken = (invocation, chain) -> {
            if (invocation.call().name().equals("lookup_order")) {
                return null;
            }
            return chain.proceed(invocation);
        };
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("slow_lookup", "{\"id\":\"A-2\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never asked"));
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(model, trace, Orders.lookup(), slow).toolInterceptor(broken).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            long from = System.nanoTime();
            // a short attempt timeout: the worker heartbeats often, so it hears the cancel of the slow read soon
            RunResult result = server.start(agent).withAttemptTimeout(Duration.ofSeconds(1))
                    .start("A-1 と A-2 は?", "run-broken-read-cancels").result();
            Duration took = Duration.ofNanos(System.nanoTime() - from);

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("internal_error");
            // the slow read was interrupted, not waited for: the run ended long before its 90 seconds
            assertThat(took).isLessThan(Duration.ofSeconds(60));
            assertThat(seen).containsExactly("interrupted");
            assertThat(trace.events(TraceEvent.ToolCompleted.class)).noneSatisfy(c -> assertThat(c.tool()).isEqualTo("slow_lookup"));
            // and it had stopped before the run's end, which is the trace's last event
            List<TraceEvent> events = trace.events();
            assertThat(events.get(events.size() - 1)).isInstanceOf(TraceEvent.RunFinished.class);
        }
    }
}
