package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.run.Verdict;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A worker stopped with shutdownNow interrupts the activity it runs, and the attempt fails retryably ('interrupted'),
 * so Temporal makes it again on another worker, also when the application's code ends on that interrupt with an
 * exception of its own (the interrupt then shows in the thread's interrupt status or in the exception's causes) rather
 * than with InterruptedException.
 */
class TemporalStoppedWorkerTest {
    /** The stopping worker's code waits here, then ends on the interrupt as {@code onInterrupt} says. */
    private static void blockUntilInterrupted(CountDownLatch inCall, boolean setAgain, String what) {
        inCall.countDown();
        try {
            Thread.sleep(Duration.ofMinutes(10));
        } catch (InterruptedException e) {
            if (setAgain) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException(what + " was stopped", e);
        }
    }

    /** Runs on a worker running {@code stopping}'s activities, stops it during the call, and lets {@code healthy}'s finish. */
    private static RunResult stoppedDuringTheCall(Agent stopping, Agent healthy, CountDownLatch inCall, String runId)
            throws Exception {
        // no time skipping: the attempt timeout must pass in real time for a retry after it to show
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), stopping);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, stopping)
                    .withAttemptTimeout(Duration.ofSeconds(60)).start("A-1 はどこ?", runId);
            assertThat(inCall.await(60, TimeUnit.SECONDS)).isTrue();
            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            one.shutdownNow();
            try {
                return run.result(Duration.ofSeconds(30));
            } finally {
                two.shutdownNow();
                one.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * A tool interceptor of the application's (a rate limiter waiting for a permit, say) that turns the interrupt into an
     * IllegalStateException, its cause the InterruptedException and the interrupt status cleared, has the call made
     * again on the next worker. Failed before: the run ended FAILED, internal_error, as if the interceptor had a bug.
     */
    @Test
    void aToolInterceptorEndingOnTheStopsInterruptWithAnExceptionOfItsOwnIsMadeAgainOnAnotherWorker() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        dev.rein.tool.ToolInterceptor limiter = (invocation, chain) -> {
            blockUntilInterrupted(inCall, false, "the wait for a permit");
            return chain.proceed(invocation);
        };
        Agent stopping = Orders.agent(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order",
                "{\"id\":\"A-1\"}"))), new RecordingListener(), Orders.lookup()).toolInterceptor(limiter).build();
        Agent healthy = Orders.agent(ScriptedModel.of(ScriptedModel.text("注文 A-1 は配達済みです。")), new RecordingListener(),
                Orders.lookup()).build();

        RunResult result = stoppedDuringTheCall(stopping, healthy, inCall, "run-stopped-in-interceptor");

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertOneToolResultFromTheHealthyWorker(result);
    }

    private static void assertOneToolResultFromTheHealthyWorker(RunResult result) {
        assertThat(result.history().stream().map(Message::content).flatMap(java.util.List::stream)
                .filter(ToolResultBlock.class::isInstance).map(ToolResultBlock.class::cast)).singleElement()
                .satisfies(r -> {
                    assertThat(r.isError()).as(r.content()).isFalse();
                    assertThat(r.content()).contains("order A-1: 2 items, 4,200 円, 配達済み");
                });
    }

    /**
     * Probe (passed at once): a verifier that turns the interrupt into an IllegalStateException is made again on the
     * next worker, since a verifier runs on a thread of its own and the attempt's thread meets InterruptedException.
     */
    @Test
    void aVerifierEndingOnTheStopsInterruptWithAnExceptionOfItsOwnIsMadeAgainOnAnotherWorker() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        Agent stopping = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .verifier(answer -> {
                    blockUntilInterrupted(inCall, false, "the check");
                    return Verdict.pass();
                }).build();
        Agent healthy = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .verifier(answer -> Verdict.pass()).build();

        RunResult result = stoppedDuringTheCall(stopping, healthy, inCall, "run-stopped-in-verifier");

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("注文 A-1 と A-2 は配達済みです。");
    }

    /**
     * A tool that aborts on interrupt and ends on it with an exception, its interrupt status set again (as
     * Tool.abortsOnInterrupt asks), is made again on the next worker. Failed before: the stopped call's exception
     * became its result ("Tool 'lookup_order' failed with IllegalStateException: the lookup was stopped"), which the
     * model was shown, and the call was never made again.
     */
    @Test
    void anInlineToolEndingOnTheStopsInterruptWithAnExceptionIsMadeAgainOnAnotherWorker() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        dev.rein.tool.Tool blocking = dev.rein.tool.Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(dev.rein.tool.Risk.READ).abortsOnInterrupt(true).handler((args, ctx) -> {
                    blockUntilInterrupted(inCall, true, "the lookup");
                    return "never";
                }).build();
        Agent stopping = Orders.agent(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order",
                "{\"id\":\"A-1\"}"))), new RecordingListener(), blocking).build();
        Agent healthy = Orders.agent(ScriptedModel.of(ScriptedModel.text("注文 A-1 は配達済みです。")), new RecordingListener(),
                Orders.lookup()).build();

        RunResult result = stoppedDuringTheCall(stopping, healthy, inCall, "run-stopped-in-inline-tool");

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertOneToolResultFromTheHealthyWorker(result);
    }

    /**
     * A model that aborts on interrupt and ends on it with an unchecked exception, its interrupt status set again, is
     * called again on the next worker. Failed before: the run ended FAILED, provider_error ("the model client for model
     * 'scripted-model' failed with IllegalStateException: the model call was stopped").
     */
    @Test
    void aModelEndingOnTheStopsInterruptWithAnExceptionIsCalledAgainOnAnotherWorker() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        dev.rein.model.Model hanging = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context) {
                blockUntilInterrupted(inCall, true, "the model call");
                throw new AssertionError("unreachable");
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        Agent stopping = Agent.builder().model(hanging).modelName("scripted-model").prices(ScriptedModel.PRICES)
                .listener(new RecordingListener()).tools(Orders.lookup()).build();
        Agent healthy = Orders.agent(ScriptedModel.of(ScriptedModel.text("注文 A-1 は配達済みです。")), new RecordingListener(),
                Orders.lookup()).build();

        RunResult result = stoppedDuringTheCall(stopping, healthy, inCall, "run-stopped-in-model-call");

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("注文 A-1 は配達済みです。");
    }

    /**
     * Probe of what docs/temporal.md says of a graceful stop (passed at once): WorkerFactory.shutdown interrupts nothing,
     * the call on the stopping worker runs to its end, but the SDK refuses its heartbeats from then on, so a call that
     * goes on longer than the attempt timeout is taken for lost and made again on another worker (same idempotency key).
     */
    @Test
    void aCallOutlastingTheAttemptTimeoutAfterAGracefulStopIsMadeAgainOnAnotherWorker() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        java.util.List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean interrupted = new java.util.concurrent.atomic.AtomicBoolean();
        dev.rein.tool.Tool slow = dev.rein.tool.Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(dev.rein.tool.Risk.READ).timeout(Duration.ofMinutes(1)).handler((args, ctx) -> {
                    keys.add(ctx.idempotencyKey());
                    inCall.countDown();
                    try {
                        Thread.sleep(Duration.ofSeconds(8));
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                        throw e;
                    }
                    return "order A-1 (slow worker)";
                }).build();
        dev.rein.tool.Tool fast = dev.rein.tool.Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(dev.rein.tool.Risk.READ).handler((args, ctx) -> {
                    keys.add(ctx.idempotencyKey());
                    return "order A-1: 2 items, 4,200 円, 配達済み";
                }).build();
        Agent stopping = Orders.agent(ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order",
                "{\"id\":\"A-1\"}"))), new RecordingListener(), slow).build();
        Agent healthy = Orders.agent(ScriptedModel.of(ScriptedModel.text("注文 A-1 は配達済みです。")), new RecordingListener(),
                fast).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), stopping);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, stopping)
                    .withAttemptTimeout(Duration.ofSeconds(2)).start("A-1 はどこ?", "run-graceful-stop");
            assertThat(inCall.await(60, TimeUnit.SECONDS)).isTrue();
            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            one.shutdown();
            try {
                RunResult result = run.result(Duration.ofSeconds(30));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
                assertOneToolResultFromTheHealthyWorker(result);
                assertThat(keys).hasSize(2).containsOnly(keys.get(0));
                one.awaitTermination(30, TimeUnit.SECONDS);
                assertThat(interrupted).as("the graceful stop interrupted the call").isFalse();
            } finally {
                two.shutdownNow();
                one.shutdownNow();
            }
        }
    }
}
