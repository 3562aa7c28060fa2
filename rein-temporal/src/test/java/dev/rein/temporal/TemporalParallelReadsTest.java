package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
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
import java.util.function.Supplier;
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

    /**
     * A per-tool cap holds on Temporal as locally, for reads run together and for side-effecting calls run one at a
     * time, within a step and across steps: a call refused for its cap is not counted as made (the counted flag the
     * workflow carries from call to call), and the calls over the cap are the last in call order.
     */
    @Test
    void perToolCapsRefuseTheSameCallsAsLocally() {
        Supplier<ScriptedModel> script = () -> ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-2\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-3\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-2\"}")),
                ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-4\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-3\"}")),
                ScriptedModel.text("A-1 と A-2 を確認し、A-1 を返金しました。"));
        Orders.Ledger localLedger = new Orders.Ledger();
        RecordingListener local = new RecordingListener();
        RunResult expected = capped(script.get(), local, localLedger).run("A-1 から A-4 を確認して返金して");

        Orders.Ledger ledger = new Orders.Ledger();
        RecordingListener remote = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(capped(script.get(), remote, ledger)).start("A-1 から A-4 を確認して返金して", "run-caps").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED).isEqualTo(expected.status());
            assertThat(result.answer()).isEqualTo(expected.answer());
            assertThat(ledger.charges).hasSize(1).hasSameSizeAs(localLedger.charges);
            assertThat(outcomes(remote)).isEqualTo(outcomes(local)).containsExactly(
                    "lookup_order NONE", "lookup_order NONE", "lookup_order LIMIT_REACHED", "refund NONE",
                    "refund LIMIT_REACHED", "lookup_order LIMIT_REACHED", "refund LIMIT_REACHED");
        }
    }

    /**
     * A write waits for a worker until the deadline and the grace counted from its own scheduling, after the step's
     * reads: its activity options were made before the reads ran, so a slow read's time was counted twice (the write's
     * wait for a worker as long as the read's, though scheduled 3 s later). Read from the calls' schedule-to-start
     * timeouts; no time skipping, so that the read's 3 s pass on the workflow's clock.
     */
    @Test
    void aWriteWaitsForAWorkerUntilTheDeadlineCountedFromItsOwnScheduling() {
        Tool slow = Tool.builder("slow_lookup").description("Looks up slowly")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .risk(Risk.READ).handler((args, ctx) -> {
                    Thread.sleep(3_000);
                    return "注文は配達済み";
                }).build();
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("slow_lookup", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("refund", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("A-1 を返金しました。"));
        Agent agent = Orders.agent(model, new RecordingListener(), slow, Orders.refund(new Orders.Ledger(), key -> {}))
                .approvalPolicy(ApprovalPolicy.NEVER)
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofMinutes(2)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            RunResult result = server.start(agent).start("A-1 を返金して", "run-write-wait").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            List<Duration> waits = server.client().fetchHistory("run-write-wait").getEvents().stream()
                    .filter(io.temporal.api.history.v1.HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .map(io.temporal.api.history.v1.HistoryEvent::getActivityTaskScheduledEventAttributes)
                    .filter(a -> a.getActivityType().getName().equals("ReinCallTool"))
                    .map(a -> Duration.ofSeconds(a.getScheduleToStartTimeout().getSeconds(),
                            a.getScheduleToStartTimeout().getNanos())).toList();
            assertThat(waits).hasSize(2); // the read, then the write
            assertThat(waits.get(1)).isLessThanOrEqualTo(waits.get(0).minusSeconds(2));
        }
    }

    private static Agent capped(ScriptedModel model, RecordingListener trace, Orders.Ledger ledger) {
        return Orders.agent(model, trace, Orders.lookup().toBuilder().maxCalls(2).build(),
                Orders.refund(ledger, key -> {}).toBuilder().maxCalls(1).build()).approvalPolicy(ApprovalPolicy.NEVER).build();
    }

    /** Each call's tool and error class, in call order (the scripted model numbers a response's calls: toolu_R_N). */
    private static List<String> outcomes(RecordingListener trace) {
        return trace.events(TraceEvent.ToolCompleted.class).stream()
                .sorted(java.util.Comparator.comparingInt((TraceEvent.ToolCompleted c) -> c.step())
                        .thenComparingInt(c -> Integer.parseInt(c.callId().substring(c.callId().lastIndexOf('_') + 1))))
                .map(c -> c.tool() + " " + c.errorClass()).toList();
    }

    /** A cancel of the run while the reads of a step run stops them, and the run ends CANCELLED once they have stopped. */
    @Test
    void aCancelWhileReadsRunEndsTheRunOnceTheyHaveStopped() {
        List<String> seen = new CopyOnWriteArrayList<>();
        Tool slow = Tool.builder("slow_lookup").description("Looks up very slowly")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .risk(Risk.READ).timeout(Duration.ofMinutes(5)).handler((args, ctx) -> {
                    seen.add("started");
                    try {
                        Thread.sleep(90_000);
                    } catch (InterruptedException e) {
                        seen.add("interrupted");
                        throw e;
                    }
                    return "注文は配達済み";
                }).build();
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("slow_lookup", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("slow_lookup", "{\"id\":\"A-2\"}")),
                ScriptedModel.text("never asked"));
        RecordingListener trace = new RecordingListener();
        Agent agent = Orders.agent(model, trace, slow).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(1)).start("A-1 と A-2 は?",
                    "run-cancel-reads");
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.stream().filter("started"::equals).count() < 2 && System.nanoTime() < until) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }

            run.cancel();
            RunResult result = run.result();

            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            // both reads had stopped when the run ended
            assertThat(seen).containsExactlyInAnyOrder("started", "started", "interrupted", "interrupted");
            List<TraceEvent> events = trace.events();
            assertThat(events.get(events.size() - 1)).isInstanceOf(TraceEvent.RunFinished.class);
        }
    }
}
