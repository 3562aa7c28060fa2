package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import io.temporal.activity.ActivityInterface;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A run no worker serves, and a run id Temporal does not know, are refused saying what is wrong and what to do. */
class TemporalMisconfigurationTest {
    /**
     * A client that starts runs on a queue no worker polls (a misspelled queue, workers not started):
     * asking the run's status says so and names the queue, where Temporal's own answer, after about a
     * minute, was a bare DEADLINE_EXCEEDED.
     */
    @Test
    void aQueryAboutARunNoWorkerServesSaysSoAndNamesTheQueue() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);
            TemporalRun run = TemporalAgents.client(server.client(), "orders-typo", agent).start("A-1?", "run-no-worker");

            assertThatThrownBy(run::status).isInstanceOf(ReinException.class)
                    .hasMessageContaining("no worker answered a query about run 'run-no-worker'")
                    .hasMessageContaining("'orders-typo'").hasMessageContaining("TemporalAgents.worker");
        }
    }

    /**
     * The same run's result(timeout) says so too: no worker has taken up the run, on which queue it was started, and
     * what to start or fix, where the TimeoutException only said the run had not ended (no activity was pending to name).
     */
    @Test
    void theResultOfARunOnAQueueNoWorkerPollsSaysSoWhenItTimesOut() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);
            TemporalRun run = TemporalAgents.client(server.client(), "orders-typo", agent).start("A-1?", "run-wrong-queue");

            assertThatThrownBy(() -> run.result(Duration.ofSeconds(3))).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("run 'run-wrong-queue' has not ended")
                    .hasMessageContaining("no worker has taken up the run").hasMessageContaining("'orders-typo'")
                    .hasMessageContaining("TemporalAgents.worker").hasMessageContaining("same queue");
        }
    }

    @Test
    void attachingToARunIdTemporalDoesNotKnowIsRefusedOnTheFirstQuery() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).attach("run-never-started");

            assertThatThrownBy(run::pendingApprovals).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal has no run with id 'run-never-started'");
        }
    }

    /**
     * The handle's other calls on a run id Temporal does not know say so as its queries do, where result(),
     * result(timeout) and cancel() threw Temporal's bare WorkflowNotFoundException ("workflowId='…', runId=''").
     */
    @Test
    void resultAndCancelOfARunIdTemporalDoesNotKnowSayThereIsNoSuchRun() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).attach("run-never-started");

            assertThatThrownBy(run::result).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal has no run with id 'run-never-started'");
            assertThatThrownBy(() -> run.result(Duration.ofSeconds(5))).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal has no run with id 'run-never-started'");
            assertThatThrownBy(run::cancel).isInstanceOf(ReinException.class)
                    .hasMessageContaining("Temporal has no run with id 'run-never-started'");
        }
    }

    /** Some other application's activities, polled on the run's queue by a worker that lacks Rein's. */
    @ActivityInterface
    public interface Shipping {
        String ship(String order);
    }

    /**
     * A worker that registered the run's workflow but not the agent's activities (TemporalAgents.workflows alone, on a
     * queue where it polls other activities): Temporal retries ReinBegin without end, each attempt failing with "not
     * registered", and the run stays RUNNING until its deadline. Waiting for the result meanwhile says why, where it was
     * a bare TimeoutException naming only the workflow id.
     */
    @Test
    void aRunWhoseWorkerLacksTheAgentsActivitiesSaysSoWhenTheResultTimesOut() {
        // a deadline the test server's skipped time does not reach within the wait (it skips the retries' waits)
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofDays(30)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.workflows(worker);
            worker.registerActivitiesImplementations((Shipping) order -> "shipped " + order);
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent).start("A-1?", "run-no-activities");

            assertThatThrownBy(() -> run.result(Duration.ofSeconds(3))).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("run 'run-no-activities' has not ended")
                    .hasMessageContaining("ReinBegin").hasMessageContaining("is not registered with a worker")
                    .hasMessageContaining("'" + TemporalTestServer.QUEUE + "'").hasMessageContaining("TemporalAgents.worker");
        }
    }

    /**
     * A run whose activities no worker of its queue can run (here a worker that registered the workflow and other
     * activities, not the agent's) ends when its deadline has passed, FAILED with a message naming the activity, the
     * last failure, the queue and what to register, where Temporal retried the activity without end and the run stayed
     * RUNNING long past its deadline with nothing said (result() never returned).
     */
    @Test
    void aRunWhoseWorkerLacksTheAgentsActivitiesEndsFailedAfterItsDeadlineSayingWhatToRegister() throws TimeoutException {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofMinutes(2)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.workflows(worker);
            worker.registerActivitiesImplementations((Shipping) order -> "shipped " + order);
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent).start("A-1 はどこ?", "run-never-served");

            RunResult result = run.result(Duration.ofSeconds(60)); // the test server skips the retries' waits

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.message()).contains("ReinBegin").contains("is not registered with a worker")
                    .contains("'" + TemporalTestServer.QUEUE + "'").contains("TemporalAgents.worker");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        }
    }

    /**
     * A queue with a workflow worker and no activity worker at all: the run's first activity is never started. The
     * result's timeout says which activity waits and on which queue, and what to start.
     */
    @Test
    void aRunWhoseActivitiesNoWorkerPollsSaysSoWhenTheResultTimesOut() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent).start("A-1?", "run-no-activity-worker");

            assertThatThrownBy(() -> run.result(Duration.ofSeconds(3))).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("run 'run-no-activity-worker' has not ended")
                    .hasMessageContaining("ReinBegin").hasMessageContaining("no worker has started it")
                    .hasMessageContaining("'" + TemporalTestServer.QUEUE + "'").hasMessageContaining("TemporalAgents.worker");
        }
    }

    /**
     * A run whose workflow task fails on its workers again and again (workflow code that cannot replay it after a
     * redeploy, a non-determinism error, or a bug) stays RUNNING while Temporal retries the task without end: the
     * result's timeout says the workflow task fails, with the workers' failure and the queue, where it said only that
     * the run had not ended.
     */
    @Test
    void aRunWhoseWorkflowTaskFailsOnItsWorkersSaysSoWhenTheResultTimesOut() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            worker.registerWorkflowImplementationTypes(BrokenWorkflow.class);
            TemporalAgents.activities(worker, agent);
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent).start("A-1?",
                    "run-failing-task");

            assertThatThrownBy(() -> run.result(Duration.ofSeconds(3))).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("run 'run-failing-task' has not ended")
                    .hasMessageContaining("workflow task fails").hasMessageContaining("壊れたワークフロー")
                    .hasMessageContaining("'" + TemporalTestServer.QUEUE + "'");
        }
    }

    /** Workflow code that fails every workflow task of the run's type, as a worker with code that cannot run it. */
    public static class BrokenWorkflow implements io.temporal.workflow.DynamicWorkflow {
        @Override
        public Object execute(io.temporal.common.converter.EncodedValues args) {
            throw new IllegalStateException("壊れたワークフロー");
        }
    }

    /**
     * A run whose activities no worker polls for (a queue with a workflow worker only) ends when its deadline has
     * passed, with a message naming the activity no worker took up, the queue and what to start, where it stayed
     * RUNNING without end. STOPPED_BUDGET for its deadline, as a run whose workers were all busy (which Temporal does
     * not tell apart) ends: it ended FAILED internal_error.
     */
    @Test
    void aRunWhoseActivitiesNoWorkerPollsEndsByItsDeadlineSayingWhatToStart() throws TimeoutException {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofSeconds(2)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            // the test server does not skip time while an activity waits for a worker: a short deadline and attempt
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withAttemptTimeout(Duration.ofSeconds(1)).start("A-1 はどこ?", "run-never-polled");

            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo("deadline");
            assertThat(result.message()).contains("ReinBegin").contains("no worker")
                    .contains("'" + TemporalTestServer.QUEUE + "'").contains("TemporalAgents.worker");
        }
    }

    /**
     * A model call no worker takes up, in a run without a time limit (the workers of the agent's activities stopped
     * after the run began): since 1ef586e2 the call had no timeout but its attempt's, which starts only when a worker
     * takes it, so the run stayed RUNNING without end (before, it ended after 365 days). It now ends FAILED with
     * internal_error once the call has waited the model call's start timeout, saying no worker took it up and to check
     * that one polls the queue. The test server does not skip time while an activity waits for a worker: a short one.
     */
    @Test
    void aModelCallNoWorkerTakesUpInARunWithoutATimeLimitEndsFailedAfterTheStartTimeout() throws TimeoutException {
        StoppingWorkers workers = new StoppingWorkers();
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(workers.stopAtRunStart())
                .budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(); workers) {
            workers.start(server, agent);
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withModelCallStartTimeout(Duration.ofSeconds(2)).start("A-1 はどこ?", "run-call-never-taken");

            RunResult result = run.result(Duration.ofSeconds(30));

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("internal_error");
            assertThat(result.message()).contains("ReinCallModel").contains("no worker took it up within 2 s")
                    .contains("'" + TemporalTestServer.QUEUE + "'").contains("TemporalAgents.worker")
                    .contains("withModelCallStartTimeout");
        }
    }

    /**
     * As above, with a worker of the agent's activities back once the model call's start timeout has passed: the run's
     * end is traced and recorded by that worker (ReinEnd, the trace's RunFinished) as other failures are, with the same
     * status, reason and message. The workflow used to end the run with a result of its own, nothing traced. The worker
     * starts while the workflow task that schedules ReinEnd is held (as in the cancel's test below), so that it polls
     * before ReinEnd's wait (2 s) begins, however slow the machine.
     */
    @Test
    void aModelCallNoWorkerTookUpEndsTheRunWithItsEndTracedByAWorkerThatCameBack() throws Exception {
        StoppingWorkers workers = new StoppingWorkers();
        RecordingListener trace = new RecordingListener();
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(trace)
                .listener(workers.stopAtRunStart()).budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        HeldActivity end = new HeldActivity("ReinEnd");
        String runId = "run-call-never-taken-end-traced";
        try (TemporalTestServer server = new TemporalTestServer(false, end); workers) { // real time, as runWithNoWorkerBack
            workers.start(server, agent, HeldActivity.WORKFLOW_WORKER);
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withModelCallStartTimeout(Duration.ofSeconds(2)).start("A-1 はどこ?", runId);

            // once the model call has timed out and the end is being scheduled, a worker starts
            assertThat(end.awaitScheduling(server, runId)).as("ReinEnd scheduled").isTrue();
            try {
                workers.bringBack(server, agent);
            } finally {
                end.release.countDown();
            }
            RunResult result = run.result(Duration.ofSeconds(30));

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo("internal_error");
            assertThat(result.message()).contains("ReinCallModel").contains("no worker took it up within 2 s")
                    .contains("withModelCallStartTimeout");
            assertThat(scheduled(server.client().fetchHistory(runId), "ReinEnd")).as("the end traced by an activity")
                    .isTrue();
            assertThat(trace.events(dev.rein.trace.TraceEvent.RunFinished.class)).singleElement().satisfies(f -> {
                assertThat(f.status()).isEqualTo(RunStatus.FAILED);
                assertThat(f.reason()).isEqualTo("internal_error");
                assertThat(f.message()).isEqualTo(result.message());
            });
        } finally {
            end.release.countDown(); // the workflow task let go, however the test failed
        }
    }

    /**
     * A model call no worker took up in a run with a time limit: the wait for a worker to trace the end is capped so
     * that the run ends by its deadline and the grace (10 s), as the call itself would have (maxDuration 20 s, a start
     * timeout of 18 s: it waited 18 s more for ReinEnd, ending at 36 s where its call's limit was 30 s).
     */
    @Test
    void aModelCallNoWorkerTookUpInARunWithADeadlineEndsByTheDeadlineAndTheGrace() throws Exception {
        Unserved run = runWithNoWorkerBack(Duration.ofSeconds(20), Duration.ofSeconds(18), null, null, "run-unserved-deadline");

        assertThat(run.result().status()).as(run.result().reason() + ": " + run.result().message())
                .isEqualTo(RunStatus.FAILED);
        assertThat(run.result().message()).contains("no worker took it up within 18 s");
        assertThat(run.endStartTimeout()).isLessThanOrEqualTo(Duration.ofSeconds(12));
        assertThat(run.took()).isLessThan(Duration.ofSeconds(34));
    }

    /**
     * With no worker ever back, the end waits for one no longer than the attempt timeout (how long a worker may be
     * gone), not the start timeout again: a user who sets the start timeout to fail fast waited twice it.
     */
    @Test
    void aModelCallNoWorkerTookUpWaitsForItsEndNoLongerThanTheAttemptTimeout() throws Exception {
        Unserved run = runWithNoWorkerBack(null, Duration.ofSeconds(4), Duration.ofSeconds(1), null, "run-unserved-attempt");

        assertThat(run.result().status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.result().message()).contains("no worker took it up within 4 s");
        assertThat(run.endStartTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(run.took()).isLessThan(Duration.ofSeconds(9));
    }

    /**
     * The end traced by a worker that came back late counts the run's time up to then, as the workflow's own result
     * does when none comes back: it used to count only up to the start of the wait. ReinEnd waits for a worker the
     * start timeout, 8 s, and the worker is back 2 s after it was scheduled: 6 s to spare for starting the worker on a
     * loaded machine (with 4 s, 2 s to spare and the history polled for ReinEnd, it was once back too late).
     */
    @Test
    void aModelCallNoWorkerTookUpHasItsEndTracedWithTheTimeOfTheWaitForAWorker() throws Exception {
        Unserved run = runWithNoWorkerBack(null, Duration.ofSeconds(8), Duration.ofSeconds(10), Duration.ofSeconds(2),
                "run-unserved-late-worker");

        assertThat(run.endStartTimeout()).isEqualTo(Duration.ofSeconds(8));
        assertThat(run.traced()).as("the end traced by the worker that came back").isTrue();
        // 8 s for the model call, 2 s more before the worker came back, less the workflow task that scheduled ReinEnd
        // (counted by neither); the count up to the start of the wait was 8 s and that task
        assertThat(run.result().duration()).isGreaterThanOrEqualTo(Duration.ofMillis(9_500));
    }

    /**
     * A run whose model call no worker took up, cancelled while ReinEnd waits for a worker: Rein's result and status are
     * the end the run had decided (FAILED, the call's failure), while Temporal's own view (the history's close event,
     * the Web UI, 'temporal workflow describe') shows the execution Canceled, since the Java SDK closes every execution
     * whose cancel was asked as cancelled, whatever the workflow returns (docs/temporal.md says where each is seen).
     *
     * <p>The test waits on the workflow scheduling ReinEnd, and holds that workflow task until the cancel is sent, so
     * that the cancel is recorded before ReinEnd's wait (the call's start timeout, 2 s) can end the run. It polled the
     * history for ReinEnd for at most 30 s and cancelled then, whatever it had seen: on a loaded machine the cancel came
     * while the model call still waited (the run then ended CANCELLED, its end waiting for a worker none runs, and the
     * result timed out after 30 s), or after ReinEnd's 2 s were up and the run had ended.
     */
    @Test
    void aRunCancelledWhileItsEndWaitsForAWorkerIsFailedForReinAndCanceledForTemporal() throws Exception {
        String runId = "run-unserved-end-cancelled";
        StoppingWorkers workers = new StoppingWorkers();
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .listener(workers.stopAtRunStart()).budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        HeldActivity end = new HeldActivity("ReinEnd");
        try (TemporalTestServer server = new TemporalTestServer(false, end); workers) { // real time, as runWithNoWorkerBack
            workers.start(server, agent, HeldActivity.WORKFLOW_WORKER);
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withModelCallStartTimeout(Duration.ofSeconds(2)).start("A-1 はどこ?", runId);
            assertThat(end.awaitScheduling(server, runId)).as("ReinEnd scheduled").isTrue();
            try {
                run.cancel();
            } finally {
                end.release.countDown();
            }

            RunResult result = run.result(Duration.ofSeconds(30));

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.message()).contains("no worker took it up within 2 s");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(server.client().fetchHistory(runId).getLastEvent().hasWorkflowExecutionCanceledEventAttributes())
                    .as("Temporal's own view: the execution canceled").isTrue();
        } finally {
            end.release.countDown();
        }
    }

    /**
     * Holds the workflow task that schedules the first activity of a type until {@link #release}, {@link #scheduling}
     * counted down as it is scheduled (not in a replay): what the test does then is seen by the workflow before that
     * activity can wait, run or time out.
     */
    private static final class HeldActivity extends io.temporal.common.interceptors.WorkerInterceptorBase {
        /**
         * The workflow worker's options: a held workflow task is no deadlock, which the SDK's detector would fail after
         * 1 s without a yield.
         */
        static final io.temporal.worker.WorkerOptions WORKFLOW_WORKER = io.temporal.worker.WorkerOptions.newBuilder()
                .setDefaultDeadlockDetectionTimeout(Duration.ofMinutes(5).toMillis()).build();
        final java.util.concurrent.CountDownLatch scheduling = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        private final String activityType;

        HeldActivity(String activityType) {
            this.activityType = activityType;
        }

        /**
         * Waits until the activity is being scheduled, or the run has closed without (a product regression: the test
         * fails at once, not after a bound); the bound of 5 minutes is only for a run that does neither.
         */
        boolean awaitScheduling(TemporalTestServer server, String runId) throws InterruptedException {
            long until = System.nanoTime() + Duration.ofMinutes(5).toNanos();
            while (!scheduling.await(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (closed(server.client().fetchHistory(runId)) || System.nanoTime() > until) {
                    return scheduling.getCount() == 0;
                }
            }
            return true;
        }

        private static boolean closed(io.temporal.common.WorkflowExecutionHistory history) {
            io.temporal.api.history.v1.HistoryEvent last = history.getLastEvent();
            return last.hasWorkflowExecutionCompletedEventAttributes() || last.hasWorkflowExecutionFailedEventAttributes()
                    || last.hasWorkflowExecutionCanceledEventAttributes()
                    || last.hasWorkflowExecutionTerminatedEventAttributes()
                    || last.hasWorkflowExecutionTimedOutEventAttributes()
                    || last.hasWorkflowExecutionContinuedAsNewEventAttributes();
        }

        @Override
        public io.temporal.common.interceptors.WorkflowInboundCallsInterceptor interceptWorkflow(
                io.temporal.common.interceptors.WorkflowInboundCallsInterceptor next) {
            return new io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase(next) {
                @Override
                public void init(io.temporal.common.interceptors.WorkflowOutboundCallsInterceptor outbound) {
                    super.init(new io.temporal.common.interceptors.WorkflowOutboundCallsInterceptorBase(outbound) {
                        @Override
                        public <R> ActivityOutput<R> executeActivity(ActivityInput<R> input) {
                            if (input.getActivityName().equals(activityType)
                                    && !io.temporal.workflow.Workflow.isReplaying() && scheduling.getCount() > 0) {
                                scheduling.countDown();
                                try {
                                    release.await(5, java.util.concurrent.TimeUnit.MINUTES);
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }
                            return super.executeActivity(input);
                        }
                    });
                }
            };
        }
    }

    /** A run of {@link #runWithNoWorkerBack}: its result, how long it took, ReinEnd's start timeout, whether it traced. */
    private record Unserved(RunResult result, Duration took, Duration endStartTimeout, boolean traced) {
    }

    /**
     * A run whose activities' worker stops once the run has begun, so that its model call is never taken up; a worker
     * comes back {@code backAfter} after ReinEnd was scheduled (seen as the workflow schedules it, not in the history
     * polled: the poll's delay was part of the worker's lateness on a loaded machine), or never when null.
     */
    private static Unserved runWithNoWorkerBack(Duration maxDuration, Duration startTimeout, Duration attempt,
                                                Duration backAfter, String runId) throws Exception {
        StoppingWorkers workers = new StoppingWorkers();
        RecordingListener trace = new RecordingListener();
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(trace)
                .listener(workers.stopAtRunStart()).budget(dev.rein.budget.Budget.builder().maxDuration(maxDuration).build())
                .build();
        HeldActivity end = new HeldActivity("ReinEnd");
        end.release.countDown(); // seen, not held: the worker comes back while ReinEnd waits for one
        // no time skipping: the waits for a worker are what is measured, in real time, and a skip while the run starts
        // could pass its deadline before its first model call (the run then stops for its budget)
        try (TemporalTestServer server = new TemporalTestServer(false, end); workers) {
            workers.start(server, agent);
            TemporalAgentClient client = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withModelCallStartTimeout(startTimeout);
            if (attempt != null) {
                client = client.withAttemptTimeout(attempt);
            }
            long started = System.nanoTime();
            TemporalRun run = client.start("A-1 はどこ?", runId);
            if (backAfter != null) {
                assertThat(end.awaitScheduling(server, runId)).as("ReinEnd scheduled").isTrue();
                Thread.sleep(backAfter.toMillis());
                workers.bringBack(server, agent);
            }
            RunResult result = run.result(Duration.ofSeconds(60));
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            return new Unserved(result, took, StoppingWorkers.startTimeout(server, runId, "ReinEnd"),
                    !trace.events(dev.rein.trace.TraceEvent.RunFinished.class).isEmpty());
        }
    }

    /**
     * A run whose deadline passed before its next model step (here before its first, the time limit shorter than
     * ReinBegin took), with no worker left: its ReinStopForBudget waits for one no longer than the deadline and the
     * grace (10 s), as a model call no worker took up does, and the run ends STOPPED_BUDGET, untraced, saying no worker
     * took the stop up. It waited its whole schedule-to-close, the attempt timeout four times (4 minutes here, 20 by
     * default), and then ended FAILED internal_error.
     */
    @Test
    void aBudgetStopNoWorkerTookUpAfterTheDeadlineEndsByTheDeadlineAndTheGrace() throws Exception {
        String runId = "run-unserved-budget-stop";
        StoppingWorkers workers = new StoppingWorkers();
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .listener(workers.stopAtRunStart()).budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofMillis(1)).build())
                .build();
        // no time skipping: the wait for a worker must pass in real time
        try (TemporalTestServer server = new TemporalTestServer(false); workers) {
            workers.start(server, agent);
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withAttemptTimeout(Duration.ofMinutes(1)).start("A-1 はどこ?", runId);
            RunResult result;
            try {
                result = run.result(Duration.ofSeconds(40));
            } catch (TimeoutException e) {
                throw new AssertionError("no result within 40 s; ReinStopForBudget's schedule-to-start: "
                        + stopStartTimeout(server, runId), e);
            }

            assertThat(scheduled(server.client().fetchHistory(runId), "ReinStopForBudget")).isTrue();
            // the workflow had decided the run stops for its budget: it ends so, without the summary or a traced end
            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo("deadline");
            assertThat(result.message()).startsWith("the time limit of 1 ms was reached")
                    .contains("no worker took up ReinStopForBudget").contains("so no summary was made and the end is not traced")
                    .contains("by the run's deadline and the grace of 10 s")
                    // the register sentence every unserved activity's message shares
                    .contains("every worker of task queue '" + TemporalTestServer.QUEUE + "' must register the agent with"
                            + " TemporalAgents.worker");
            assertThat(scheduled(server.client().fetchHistory(runId), "ReinEnd")).isFalse();
            assertThat(stopStartTimeout(server, runId)).isLessThanOrEqualTo(Duration.ofSeconds(10));
        }
    }

    /**
     * The deadline passes during a model call: the call reports the deadline, and the budget stop's intervention
     * (ReinIntervene) is scheduled after the deadline. It may wait for a worker no longer than the deadline and the
     * grace (10 s, counted from when it is scheduled), as ReinStopForBudget and the model call do: with no worker it
     * waited its whole schedule-to-close, four attempt timeouts (4 minutes here, 20 by default), before the run ended.
     * Read from the activity's schedule-to-start timeout, which the test server keeps (see the budget stop's test
     * above for a run ended by it); ReinEnd's own wait is as it was.
     */
    @Test
    void anActivityScheduledAfterTheDeadlineWaitsForAWorkerNoLongerThanTheGrace() throws Exception {
        String runId = "run-intervention-after-deadline";
        dev.rein.model.Model slow = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context) {
                try {
                    Thread.sleep(30_000); // past the deadline, where the worker stops waiting for the model
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("the model answers after the run's deadline");
            }
        };
        Agent agent = Agent.builder().model(slow).modelName("scripted-model").prices(dev.rein.testkit.ScriptedModel.PRICES)
                .tools(Orders.lookup()).listener(new RecordingListener())
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofSeconds(3)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalAgents.worker(server.env.newWorker(TemporalTestServer.QUEUE), agent);
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withAttemptTimeout(Duration.ofMinutes(1)).start("A-1 はどこ?", runId);

            RunResult result = run.result(Duration.ofSeconds(40));

            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            // the deadline found in the call (ReinIntervene) or, on a slow machine, before the next step
            // (ReinStopForBudget); ReinBegin, scheduled at once, waits up to the whole time limit and the grace
            java.util.Map<String, Duration> waits = new java.util.LinkedHashMap<>();
            server.client().fetchHistory(runId).getEvents().stream()
                    .filter(io.temporal.api.history.v1.HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .map(io.temporal.api.history.v1.HistoryEvent::getActivityTaskScheduledEventAttributes)
                    .forEach(a -> waits.put(a.getActivityType().getName(), Duration.ofSeconds(
                            a.getScheduleToStartTimeout().getSeconds(), a.getScheduleToStartTimeout().getNanos())));
            assertThat(waits).containsKey("ReinEnd").containsAnyOf(java.util.Map.entry("ReinIntervene", waits.getOrDefault(
                    "ReinIntervene", Duration.ZERO)), java.util.Map.entry("ReinStopForBudget", waits.getOrDefault(
                    "ReinStopForBudget", Duration.ZERO)));
            waits.forEach((activity, wait) -> {
                if (activity.equals("ReinBegin")) {
                    assertThat(wait).as(activity).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(13));
                } else if (activity.equals("ReinIntervene") || activity.equals("ReinStopForBudget")) {
                    assertThat(wait).as(activity).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(10));
                }
            });
        }
    }

    private static Duration stopStartTimeout(TemporalTestServer server, String runId) {
        return StoppingWorkers.startTimeout(server, runId, "ReinStopForBudget");
    }

    private static boolean scheduled(io.temporal.common.WorkflowExecutionHistory history, String activityType) {
        return StoppingWorkers.scheduled(history, activityType);
    }

    /** A model call's start timeout that is not positive is refused, saying what the timeout is and its default. */
    @Test
    void aModelCallStartTimeoutThatIsNotPositiveIsRefusedSayingWhatItIs() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient client = server.start(agent);
            for (Duration bad : java.util.Arrays.asList(null, Duration.ZERO, Duration.ofSeconds(-1))) {
                assertThatThrownBy(() -> client.withModelCallStartTimeout(bad)).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("start timeout must be positive, got " + bad)
                        .hasMessageContaining("wait for a worker to take it up").hasMessageContaining("365 days");
            }
            assertThat(client.withModelCallStartTimeout(Duration.ofDays(365L * 20_000))).isNotNull();
        }
    }

    /**
     * An empty task queue (an unset configuration value) is refused when the client is made, naming the queue, where
     * each start failed with Temporal's bare WorkflowServiceException ("workflowId='…', runId=''"), which named
     * neither the queue nor what to set.
     */
    @Test
    void anEmptyTaskQueueIsRefusedWhenTheClientIsMade() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);

            assertThatThrownBy(() -> TemporalAgents.client(server.client(), " ", agent)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("task queue is empty").hasMessageContaining("the workers' queue");
        }
    }

    /** No task queue at all (a configuration value that is not set: System.getenv answers null) is refused the same way. */
    @Test
    void noTaskQueueIsRefusedWhenTheClientIsMadeAsAnEmptyOneIs() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(agent);

            assertThatThrownBy(() -> TemporalAgents.client(server.client(), null, agent)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("task queue is empty").hasMessageContaining("the workers' queue");
        }
    }

    /** A null agent or run store is refused saying what to pass, where it was a NullPointerException naming the parameter. */
    @Test
    void aNullAgentOrRunStoreIsRefusedSayingWhatToPass() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            var client = server.client();
            assertThatThrownBy(() -> TemporalAgents.client(client, "q", null)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("the agent is null").hasMessageContaining("pass the Agent");
            assertThatThrownBy(() -> TemporalAgents.client(client, "q", agent, null)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("the run store is null").hasMessageContaining("OutputStore");
            assertThatThrownBy(() -> TemporalAgents.worker(server.env.newWorker("w1"), null)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("the agent is null");
            assertThatThrownBy(() -> TemporalAgents.worker(server.env.newWorker("w2"), agent, null))
                    .isInstanceOf(ReinException.class).hasMessageContaining("the run store is null");
            assertThatThrownBy(() -> TemporalAgents.activities(server.env.newWorker("w3"), null))
                    .isInstanceOf(ReinException.class).hasMessageContaining("the agent is null");
            assertThatThrownBy(() -> TemporalAgents.activities(server.env.newWorker("w4"), agent, null))
                    .isInstanceOf(ReinException.class).hasMessageContaining("the run store is null");
            // the refused worker had nothing registered: the agent can still be given to it
            var w2 = server.env.newWorker("w5");
            assertThatThrownBy(() -> TemporalAgents.worker(w2, agent, null)).isInstanceOf(ReinException.class);
            TemporalAgents.worker(w2, agent);
        }
    }

    /** A null worker or client is refused saying what to pass, where it was a bare NullPointerException. */
    @Test
    void aNullWorkerOrClientIsRefusedSayingWhatToPass() {
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        assertThatThrownBy(() -> TemporalAgents.worker(null, agent)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the worker is null").hasMessageContaining("WorkerFactory.newWorker");
        assertThatThrownBy(() -> TemporalAgents.workflows(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the worker is null");
        assertThatThrownBy(() -> TemporalAgents.activities(null, agent)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the worker is null");
        assertThatThrownBy(() -> TemporalAgents.client(null, "q", agent)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the WorkflowClient is null").hasMessageContaining("TemporalAgents.clientOptions()");
    }

    /**
     * A worker runs one agent: a second agent registered on the same worker is refused saying to give it a worker and
     * task queue of its own, where Temporal's own message only said that ReinAgentRun (or ReinEnd) was already
     * registered.
     */
    @Test
    void aSecondAgentOnTheSameWorkerIsRefusedSayingToGiveItAQueueOfItsOwn() {
        Agent orders = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        Agent support = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.worker(worker, orders);

            assertThatThrownBy(() -> TemporalAgents.worker(worker, support)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("already runs an agent").hasMessageContaining("task queue of its own")
                    .hasMessageContaining("'" + TemporalTestServer.QUEUE + "'");
            assertThatThrownBy(() -> TemporalAgents.activities(worker, support)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("already runs an agent");
        }
    }

    /**
     * A worker that already runs an agent's activities (TemporalAgents.activities) is refused a whole agent with nothing
     * registered, where the run workflow was registered and then the activities refused, the worker left half set up:
     * the workflow could then no longer be added to it. Once refused, the worker takes the workflow and runs a run.
     */
    @Test
    void aWorkerThatAlreadyRunsTheActivitiesIsRefusedAWholeAgentWithNothingRegistered() throws TimeoutException {
        Agent orders = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        Agent support = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.activities(worker, orders);

            assertThatThrownBy(() -> TemporalAgents.worker(worker, support)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("already runs an agent").hasMessageContaining("task queue of its own");
            TemporalAgents.workflows(worker);
            server.env.start();
            RunResult result = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, orders)
                    .start("A-1 はどこ?", "run-after-refusal").result(Duration.ofSeconds(60));
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    /**
     * A worker that has only the run workflow (TemporalAgents.workflows) is refused a whole agent saying it has the
     * workflow and to add the activities alone, where it said the worker already runs an agent.
     */
    @Test
    void aWorkerWithOnlyTheWorkflowIsRefusedAWholeAgentSayingToAddTheActivitiesAlone() {
        Agent orders = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.workflows(worker);

            assertThatThrownBy(() -> TemporalAgents.worker(worker, orders)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("already has Rein's run workflow").hasMessageContaining("TemporalAgents.activities(");
            assertThatThrownBy(() -> TemporalAgents.workflows(worker)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("already has Rein's run workflow");
            TemporalAgents.activities(worker, orders);
        }
    }

    /**
     * A worker whose factory has started takes no registration (Temporal refuses activities then): the agent is refused
     * at once with nothing registered, saying to register it before the factory starts, where the workflow was
     * registered (on a worker that, started without it, never polls for it) and then Temporal's bare
     * IllegalStateException came from the activities; TemporalAgents.workflows alone was taken and silently did nothing.
     */
    @Test
    void aWorkerWhoseFactoryHasStartedIsRefusedSayingToRegisterBeforeTheStart() {
        Agent orders = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE);
            server.env.start();

            assertThatThrownBy(() -> TemporalAgents.worker(worker, orders)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("has started").hasMessageContaining("before").hasMessageContaining("start()");
            assertThatThrownBy(() -> TemporalAgents.workflows(worker)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("has started");
            assertThatThrownBy(() -> TemporalAgents.activities(worker, orders)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("has started");
        }
    }

    /**
     * A worker made to run local activities only (WorkerOptions.setLocalActivityWorkerOnly) never polls for Rein's
     * activities, which are regular ones: the agent is refused on it with nothing registered, saying why, where it was
     * taken and every run on the queue waited until its deadline with no worker to run its activities.
     */
    @Test
    void aWorkerForLocalActivitiesOnlyIsRefusedTheAgentsActivities() {
        Agent orders = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            Worker worker = server.env.newWorker(TemporalTestServer.QUEUE,
                    io.temporal.worker.WorkerOptions.newBuilder().setLocalActivityWorkerOnly(true).build());

            assertThatThrownBy(() -> TemporalAgents.worker(worker, orders)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("local activities only").hasMessageContaining("setLocalActivityWorkerOnly");
            assertThatThrownBy(() -> TemporalAgents.activities(worker, orders)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("local activities only");
            TemporalAgents.workflows(worker); // nothing was registered: the workflow alone is still taken
        }
    }

    /**
     * A worker whose agent lacks a tool the model asks for (a worker deployed with an older tool list) answers the
     * call as a local run does: an error result the model sees, naming the tool, and the run goes on to its answer;
     * no activity fails and the run does not hang (probe).
     */
    @Test
    void aToolTheWorkersAgentLacksIsAnErrorResultTheModelSeesAsLocally() throws TimeoutException {
        Orders.Ledger ledger = new Orders.Ledger();
        dev.rein.testkit.ScriptedModel model = dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"A-1\"}")),
                dev.rein.testkit.ScriptedModel.text("返金できませんでした。"));
        Agent worker = Orders.agent(model, new RecordingListener(), Orders.lookup()).build();
        Agent client = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(ledger, key -> {})).build();
        RunResult local = Orders.agent(dev.rein.testkit.ScriptedModel.of(
                dev.rein.testkit.ScriptedModel.toolCalls(dev.rein.testkit.ScriptedModel.call("refund", "{\"id\":\"A-1\"}")),
                dev.rein.testkit.ScriptedModel.text("返金できませんでした。")), new RecordingListener(), Orders.lookup()).build()
                .run("A-1 を返金して");
        try (TemporalTestServer server = new TemporalTestServer()) {
            server.start(worker);
            RunResult result = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, client)
                    .start("A-1 を返金して", "run-missing-tool").result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED).isEqualTo(local.status());
            assertThat(result.answer()).isEqualTo("返金できませんでした。");
            ToolResultBlock refused = (ToolResultBlock) result.history().get(2).content().get(0);
            ToolResultBlock refusedLocally = (ToolResultBlock) local.history().get(2).content().get(0);
            assertThat(refused.isError()).isTrue();
            assertThat(refused.content()).isEqualTo(refusedLocally.content()).contains("refund");
            assertThat(ledger.charges).isEmpty();
        }
    }
}
