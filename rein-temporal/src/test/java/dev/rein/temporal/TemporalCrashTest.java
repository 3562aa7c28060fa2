package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.TraceEvent;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class TemporalCrashTest {
    @Test
    void aWorkerStoppedAfterTheEffectBeforeCompletionIsReplacedAndTheLedgerShowsTheEffectOnce() throws Exception {
        Orders.Ledger ledger = new Orders.Ledger();
        InMemoryRunStore shared = new InMemoryRunStore();
        CountDownLatch effectApplied = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean first = new AtomicBoolean(true);
        // the first delivery applies the refund, then its worker dies before it can report completion
        Agent crashing = Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.refund(ledger, key -> {
            if (first.getAndSet(false)) {
                effectApplied.countDown();
                awaitUninterruptibly(release);
            }
        })).store(shared).approvalPolicy(ApprovalPolicy.NEVER).build();
        RecordingListener trace = new RecordingListener();
        Agent healthy = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("A-1 refunded.")), trace, Orders.refund(ledger, key -> {}))
                .store(shared).approvalPolicy(ApprovalPolicy.NEVER).build();

        try (TemporalTestServer server = new TemporalTestServer()) {
            // The workflow worker stays up; the activity worker that calls the tools dies. A combined worker (workflow
            // and activities) cannot be crashed here: the SDK (1.38.0) always asks for sticky execution (the worker
            // factory passes useStickyTaskQueue = true; a workflow cache of 0 does not turn it off), and the
            // in-process test server implements neither the sticky queue's schedule-to-start timeout nor
            // ResetStickyTaskQueue/ShutdownWorker (UNIMPLEMENTED), so the run's next workflow task stays on the dead
            // worker's sticky queue for good. A real cluster moves it to the shared queue after the sticky timeout
            // (5 s by default). Tried: a workflow cache of 0, one connection per worker on a port-bound test server,
            // distinct identities, the second worker polling before the crash: the task was never started.
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), crashing);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, crashing)
                    .withAttemptTimeout(Duration.ofSeconds(3)).start("A-1 を返金して", "run-crash");
            assertThat(effectApplied.await(60, TimeUnit.SECONDS)).isTrue();
            one.shutdownNow();

            WorkerFactory two = WorkerFactory.newInstance(server.client());
            Worker worker = two.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.activities(worker, healthy);
            two.start();
            try {
                RunResult result;
                try {
                    result = run.result(Duration.ofSeconds(60));
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("no result; history: " + server.client().fetchHistory("run-crash").toJson(true), e);
                }

                assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(ledger.keysSeen).hasSize(2).containsOnly("run-crash:1:0");
                assertThat(ledger.charges).hasSize(1);
                assertThat(trace.events(TraceEvent.Audit.class)).anySatisfy(a -> assertThat(a.kind()).isEqualTo("redelivery"));
            } finally {
                release.countDown();
                two.shutdownNow();
            }
        } finally {
            release.countDown();
        }
    }

    /**
     * A worker stopped (shutdownNow) during a tool call reports the attempt's retryable failure, and Temporal makes the
     * call again at once on another worker: the run ends long before the attempt timeout (60 s here, 5 minutes by
     * default). The attempt set the thread's interrupt again before it failed, so gRPC cancelled the SDK's report of
     * the failure on that thread, and the call was retried only once its heartbeats had been missing for the attempt
     * timeout.
     */
    @Test
    void aWorkerStoppedDuringAToolCallHasTheCallRetriedAtOnceOnAnotherWorker() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        dev.rein.tool.Tool blocking = lookup((args, ctx) -> {
            inCall.countDown();
            try {
                Thread.sleep(Duration.ofMinutes(10));
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return "never";
        });
        Agent stopping = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.toolCalls(
                dev.rein.testkit.ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"))), new RecordingListener(), blocking)
                .build();
        Agent healthy = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("注文 A-1 は配達済みです。")),
                new RecordingListener(), Orders.lookup()).build();
        // no time skipping: the attempt timeout must pass in real time for the delay to show
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), stopping);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, stopping)
                    .withAttemptTimeout(Duration.ofSeconds(60)).start("A-1 はどこ?", "run-stopped-in-tool");
            assertThat(inCall.await(60, TimeUnit.SECONDS)).isTrue();
            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            one.shutdownNow();
            try {
                RunResult result;
                try {
                    result = run.result(Duration.ofSeconds(30));
                } catch (java.util.concurrent.TimeoutException e) {
                    throw new AssertionError("no result within 30 s (the attempt timeout is 60 s): the stopped worker's"
                            + " failure was not reported", e);
                }

                assertThat(interrupted).as("the stopped worker's call was interrupted").isTrue();
                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(result.answer()).isEqualTo("注文 A-1 は配達済みです。");
            } finally {
                two.shutdownNow();
                one.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    private static dev.rein.tool.Tool lookup(dev.rein.tool.ToolHandler handler) {
        return dev.rein.tool.Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(dev.rein.tool.Risk.READ).handler(handler).build();
    }

    /**
     * A worker that dies during a model call is replaced, also for an agent that retries no provider error
     * (RetryPolicy.NONE): the model's retry policy is about the provider's errors, not about workers. The activity
     * was allowed one attempt (maxRetries + 1), so the crash ended the run FAILED/internal_error ('the worker making
     * the model call stopped responding').
     */
    @Test
    void aWorkerStoppedDuringAModelCallIsReplacedAlsoWithoutModelRetries() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        dev.rein.model.Model hanging = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context) {
                inCall.countDown();
                awaitUninterruptibly(release);
                throw new IllegalStateException("the crashed worker's call never answers");
            }
        };
        Agent crashing = Agent.builder().model(hanging).modelName("scripted-model").prices(dev.rein.testkit.ScriptedModel.PRICES)
                .listener(new RecordingListener())
                .retryPolicy(dev.rein.retry.RetryPolicy.NONE)
                .budget(dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofMinutes(10)).build()).build();
        Agent healthy = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("注文は配達済みです。")),
                new RecordingListener()).retryPolicy(dev.rein.retry.RetryPolicy.NONE).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), crashing);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, crashing)
                    .withAttemptTimeout(Duration.ofSeconds(3)).start("A-1 はどこ?", "run-crash-model");
            assertThat(inCall.await(60, TimeUnit.SECONDS)).isTrue();
            one.shutdownNow();

            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            try {
                RunResult result = run.result(Duration.ofSeconds(60));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(result.answer()).isEqualTo("注文は配達済みです。");
            } finally {
                release.countDown();
                two.shutdownNow();
            }
        } finally {
            release.countDown();
        }
    }

    /**
     * A worker that dies during a model call, its attempt timeout longer than the time left, leaves the call to
     * Temporal's timeout at the run's deadline: the run stops for its deadline in the local words, traced as a budget
     * stop, on the worker that replaced it (docs/temporal.md: "also when Temporal's own timeout cuts the call first"),
     * not as an activity no worker started (the call was started: the run is not FAILED saying no worker polls). The lost
     * worker never reports (see {@link #crashable}): with shutdownNow alone its 'interrupted' failure sometimes reached the
     * server and the call was retried at once (SUCCEEDED, seen under load), and when it never did, the run ended FAILED
     * saying no worker polls the queue (Temporal's schedule-to-close timeout records no started event).
     */
    @Test
    void aWorkerLostDuringAModelCallAtTheDeadlineStopsTheRunForItsDeadline() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        dev.rein.model.Model hanging = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context) {
                inCall.countDown();
                awaitUninterruptibly(release);
                throw new IllegalStateException("the crashed worker's call never answers");
            }
        };
        dev.rein.budget.Budget budget = dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(5)).build();
        Agent crashing = Agent.builder().model(hanging).modelName("scripted-model").prices(dev.rein.testkit.ScriptedModel.PRICES)
                .listener(new RecordingListener()).budget(budget).build();
        RecordingListener trace = new RecordingListener();
        Agent healthy = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("注文は配達済みです。")),
                trace).budget(budget).build();
        RunResult result = runLosingItsWorkerInACall(crashing, healthy, null, "run-crash-at-deadline", inCall, release);

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo(dev.rein.budget.BudgetKind.DEADLINE.reason());
        assertThat(result.message()).isEqualTo("the time limit of 5 s was reached while waiting for the model");
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind)
                .containsExactly("budget");
    }

    /**
     * A worker lost during a tool call at the run's deadline (its attempt timeout, 15 s, longer than the run's 10 s): Temporal
     * takes the call for lost after the attempt timeout (the tool activity's heartbeats stop) and makes it again on the
     * worker that replaced it, and the run then stops for its deadline, traced as a budget stop; it is not taken for an
     * activity no worker started, although a tool call's heartbeats carry no details. A probe: it passed at once (an
     * activity other than a model call may take a few attempt timeouts past the deadline, so the attempt timeout cuts a
     * lost attempt before Temporal's schedule-to-close timeout does).
     */
    @Test
    void aWorkerLostDuringAToolCallAtTheDeadlineStopsTheRunForItsDeadline() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        dev.rein.budget.Budget budget = dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(10)).build();
        dev.rein.tool.Tool hanging = lookup((args, ctx) -> {
            inCall.countDown();
            awaitUninterruptibly(release);
            return "the crashed worker's call never answers";
        });
        Agent crashing = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.toolCalls(
                dev.rein.testkit.ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"))), new RecordingListener(), hanging)
                .budget(budget).build();
        RecordingListener trace = new RecordingListener();
        Agent healthy = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("never asked")),
                trace, Orders.lookup()).budget(budget).build();
        RunResult result = runLosingItsWorkerInACall(crashing, healthy, Duration.ofSeconds(15), "run-crash-tool-at-deadline",
                inCall, release);

        assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo(dev.rein.budget.BudgetKind.DEADLINE.reason());
        assertThat(trace.events(TraceEvent.Intervention.class)).extracting(TraceEvent.Intervention::kind)
                .containsExactly("budget");
    }

    /**
     * Runs {@code runId} with {@code crashing}'s activities on a worker that is lost (see {@link #crashable}) once
     * {@code inCall} counts down, a worker with {@code healthy}'s activities taking its place: the run's result, waited
     * for at most 120 s ({@code attempt}, when not null, the run's attempt timeout). {@code release} lets the lost
     * call's thread go once the test is done.
     */
    private static RunResult runLosingItsWorkerInACall(Agent crashing, Agent healthy, Duration attempt, String runId,
            CountDownLatch inCall, CountDownLatch release) throws Exception {
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            AtomicBoolean lost = new AtomicBoolean();
            WorkerFactory one = crashable(server, lost, release);
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), crashing);
            one.start();
            TemporalAgentClient client = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, crashing);
            TemporalRun run = (attempt == null ? client : client.withAttemptTimeout(attempt)).start("A-1 はどこ?", runId);
            assertThat(inCall.await(60, TimeUnit.SECONDS)).as(() -> server.client().fetchHistory(runId).toJson(true)).isTrue();
            lost.set(true);
            one.shutdownNow();

            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            try {
                return run.result(Duration.ofSeconds(120));
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("no result; history: " + server.client().fetchHistory(runId).toJson(true), e);
            } finally {
                release.countDown();
                two.shutdownNow();
            }
        } finally {
            release.countDown();
        }
    }

    /**
     * A tool call retried after its worker was lost counts the run's deadline from the call's first scheduling, as a
     * model call's attempt does: each attempt got the Turn of the call's scheduling, so the retry's tool saw a deadline
     * later by the lost attempt's time (the attempt timeout, 3 s here) and could run past the run's real deadline.
     */
    @Test
    void aToolCallRetriedAfterALostWorkerKeepsTheRunsDeadline() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        java.util.List<java.time.Instant> deadlines = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.rein.budget.Budget budget = dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(20)).build();
        dev.rein.tool.Tool hanging = lookup((args, ctx) -> {
            deadlines.add(ctx.deadline());
            inCall.countDown();
            awaitUninterruptibly(release);
            return "the crashed worker's call never answers";
        });
        dev.rein.tool.Tool noting = lookup((args, ctx) -> {
            deadlines.add(ctx.deadline());
            return "A-1: 配達済み";
        });
        Agent crashing = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.toolCalls(
                dev.rein.testkit.ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"))), new RecordingListener(), hanging)
                .budget(budget).build();
        Agent healthy = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.text("配達済みです。")),
                new RecordingListener(), noting).budget(budget).build();
        // no time skipping: the tool's deadline is the worker's clock, the lost attempt's time real time
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            AtomicBoolean lost = new AtomicBoolean();
            WorkerFactory one = crashable(server, lost, release);
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), crashing);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, crashing)
                    .withAttemptTimeout(Duration.ofSeconds(3)).start("A-1 はどこ?", "run-crash-tool-deadline-kept");
            assertThat(inCall.await(60, TimeUnit.SECONDS)).isTrue();
            lost.set(true);
            one.shutdownNow();

            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            try {
                RunResult result = run.result(Duration.ofSeconds(60));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(deadlines).hasSize(2);
                // the retry came at least the attempt timeout (3 s) after the first attempt: without the time since
                // the call was scheduled its deadline was that much later
                assertThat(Duration.between(deadlines.get(0), deadlines.get(1)).abs()).isLessThan(Duration.ofMillis(1500));
            } finally {
                release.countDown();
                two.shutdownNow();
            }
        } finally {
            release.countDown();
        }
    }

    /**
     * A tool call whose worker is lost on every attempt, until Temporal's timeout for the activity (the run's deadline
     * and the attempt timeouts allowed for lost workers) cuts the last one: the run ends FAILED with internal_error, and
     * its message says what happened in Rein's words (the call, its worker lost on every attempt, what to check); it is
     * not taken for an activity no worker started. Before, the message was Temporal's ("Activity with
     * activityType='ReinCallTool' failed: 'Activity task timed out'. scheduledEventId=23, ...").
     */
    @Test
    void aToolCallWhoseWorkerIsLostOnEveryAttemptEndsTheRunSayingSo() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        dev.rein.budget.Budget budget = dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(8)).build();
        AtomicBoolean lost = new AtomicBoolean();
        dev.rein.tool.Tool hanging = lookup((args, ctx) -> {
            lost.set(true); // from this call on, the worker never reports a tool call's outcome
            awaitUninterruptibly(release);
            return "the crashed worker's call never answers";
        });
        Agent agent = Orders.agent(dev.rein.testkit.ScriptedModel.of(dev.rein.testkit.ScriptedModel.toolCalls(
                dev.rein.testkit.ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"))), new RecordingListener(), hanging)
                .budget(budget).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = crashable(server, lost, release, "ReinCallTool");
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), agent);
            one.start();
            try {
                TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                        .withAttemptTimeout(Duration.ofSeconds(1)).start("A-1 はどこ?", "run-tool-lost-every-attempt");
                RunResult result = run.result(Duration.ofSeconds(120));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.FAILED);
                assertThat(result.reason()).isEqualTo(dev.rein.run.Reasons.INTERNAL_ERROR);
                assertThat(result.message()).isEqualTo("the activity ReinCallTool did not end within the time Temporal"
                        + " allowed it (the run's deadline, and a few attempt timeouts more for lost workers): the worker"
                        + " making it stopped responding (no heartbeat within the attempt timeout) on each attempt; check"
                        + " that the workers of task queue 'rein-test' stay up");
            } finally {
                release.countDown();
                one.shutdownNow();
            }
        } finally {
            release.countDown();
        }
    }

    /**
     * A worker lost during a model call does not use up the agent's retries of the provider's errors: after the lost
     * worker, the next worker's call is rate limited once and retried (maxRetries 1), as locally, where the lost
     * worker's attempt counted as the policy's first and the rate limit ended the run FAILED ('gave up after 2
     * attempts', one of them never a provider's answer).
     */
    @Test
    void aWorkerLostDuringAModelCallDoesNotUseUpTheRetriesOfTheProvidersErrors() throws Exception {
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        dev.rein.model.Model hanging = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context) {
                inCall.countDown();
                awaitUninterruptibly(release);
                throw new IllegalStateException("the crashed worker's call never answers");
            }
        };
        dev.rein.retry.RetryPolicy once = new dev.rein.retry.RetryPolicy(1, Duration.ofMillis(10), Duration.ofMillis(100), 0);
        Agent crashing = Agent.builder().model(hanging).modelName("scripted-model").prices(dev.rein.testkit.ScriptedModel.PRICES)
                .listener(new RecordingListener()).retryPolicy(once)
                .budget(dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofMinutes(10)).build()).build();
        dev.rein.testkit.ScriptedModel rateLimited = dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.fail(new dev.rein.model.ModelException(dev.rein.model.ModelException.Kind.RATE_LIMITED,
                        429, "slow down")),
                dev.rein.testkit.ScriptedModel.text("注文は配達済みです。"));
        Agent healthy = Orders.agent(rateLimited, new RecordingListener()).retryPolicy(once).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            WorkerFactory one = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(one.newWorker(TemporalTestServer.QUEUE), crashing);
            one.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, crashing)
                    .withAttemptTimeout(Duration.ofSeconds(3)).start("A-1 はどこ?", "run-crash-then-429");
            assertThat(inCall.await(60, TimeUnit.SECONDS)).isTrue();
            one.shutdownNow();

            WorkerFactory two = WorkerFactory.newInstance(server.client());
            TemporalAgents.activities(two.newWorker(TemporalTestServer.QUEUE), healthy);
            two.start();
            try {
                RunResult result = run.result(Duration.ofSeconds(60));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
                assertThat(result.answer()).isEqualTo("注文は配達済みです。");
                assertThat(rateLimited.remaining()).isZero();
            } finally {
                release.countDown();
                two.shutdownNow();
            }
        } finally {
            release.countDown();
        }
    }

    /**
     * A worker factory whose workers, once {@code lost} is set, never report an activity's outcome until {@code release}:
     * a crashed worker's process is gone. shutdownNow alone is a worker stopping, not a crash: it interrupts the call,
     * and the attempt reports its retryable failure ('interrupted'), so Temporal retries the call at once on the next
     * worker and the run SUCCEEDS before its deadline instead of meeting Temporal's timeout at the deadline.
     */
    private static WorkerFactory crashable(TemporalTestServer server, AtomicBoolean lost, CountDownLatch release) {
        return crashable(server, lost, release, null);
    }

    /** As {@link #crashable(TemporalTestServer, AtomicBoolean, CountDownLatch)}, losing only activities of {@code type} (null: all). */
    private static WorkerFactory crashable(TemporalTestServer server, AtomicBoolean lost, CountDownLatch release, String type) {
        io.temporal.common.interceptors.WorkerInterceptor silentOnceLost = new io.temporal.common.interceptors.WorkerInterceptorBase() {
            @Override
            public io.temporal.common.interceptors.ActivityInboundCallsInterceptor interceptActivity(
                    io.temporal.common.interceptors.ActivityInboundCallsInterceptor next) {
                return new io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase(next) {
                    private String running;

                    @Override
                    public void init(io.temporal.activity.ActivityExecutionContext context) {
                        running = context.getInfo().getActivityType();
                        super.init(context);
                    }

                    @Override
                    public ActivityOutput execute(ActivityInput input) {
                        try {
                            return super.execute(input);
                        } finally {
                            if (lost.get() && (type == null || type.equals(running))) {
                                awaitUninterruptibly(release); // the outcome dies with the worker
                            }
                        }
                    }
                };
            }
        };
        return WorkerFactory.newInstance(server.client(),
                io.temporal.worker.WorkerFactoryOptions.newBuilder().setWorkerInterceptors(silentOnceLost).build());
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
