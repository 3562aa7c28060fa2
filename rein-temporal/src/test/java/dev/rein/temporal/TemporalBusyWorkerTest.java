package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An activity scheduled in a run with a time limit that no worker takes up by the deadline and the grace, because the
 * workers are all busy or have stopped polling: the run ends STOPPED_BUDGET for its deadline, as the budget stop no
 * worker took up does, not FAILED as a misconfiguration.
 */
class TemporalBusyWorkerTest {

    /** Another workflow's activity, holding the only slot of the queue's activity worker for 25 s. */
    @ActivityInterface
    public interface Hog {
        String hog();
    }

    static final CountDownLatch HOGGING = new CountDownLatch(1);

    public static final class HogImpl implements Hog {
        @Override
        public String hog() {
            HOGGING.countDown();
            try {
                Thread.sleep(25_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "done";
        }
    }

    @WorkflowInterface
    public interface Hogging {
        @WorkflowMethod
        String hog();
    }

    public static class HoggingImpl implements Hogging {
        @Override
        public String hog() {
            return io.temporal.workflow.Workflow.newActivityStub(Hog.class, ActivityOptions.newBuilder()
                    .setStartToCloseTimeout(Duration.ofMinutes(1)).build()).hog();
        }
    }

    /**
     * A live worker whose one slot another workflow's activity holds, and a run with a 2 s limit: its ReinBegin waits
     * for a worker until the deadline and the grace (12 s), and the run ends STOPPED_BUDGET deadline, saying no worker
     * took ReinBegin up, untraced (no worker would run ReinEnd either). It ended FAILED internal_error as if no worker
     * polled the queue; before the wait was bounded it waited for the slot and ended STOPPED_BUDGET.
     */
    @Test
    void aRunWhoseWorkersAreAllBusyPastItsDeadlineStopsForItsBudget() throws Exception {
        RecordingListener trace = new RecordingListener();
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.text("a"), ScriptedModel.text("b")))
                .tools(Orders.lookup()).listener(trace)
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofSeconds(2)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            Worker workflows = server.env.newWorker(TemporalTestServer.QUEUE);
            TemporalAgents.workflows(workflows);
            workflows.registerWorkflowImplementationTypes(HoggingImpl.class);
            WorkerFactory factory = WorkerFactory.newInstance(server.client());
            Worker activities = factory.newWorker(TemporalTestServer.QUEUE, WorkerOptions.newBuilder()
                    .setMaxConcurrentActivityExecutionSize(1).build());
            TemporalAgents.activities(activities, agent);
            activities.registerActivitiesImplementations(new HogImpl());
            server.env.start();
            factory.start();
            try {
                WorkflowClient.start(server.client().newWorkflowStub(Hogging.class, WorkflowOptions.newBuilder()
                        .setTaskQueue(TemporalTestServer.QUEUE).setWorkflowId("hog").build())::hog);
                assertThat(HOGGING.await(30, TimeUnit.SECONDS)).as("the slot taken").isTrue();
                TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                        .start("A-1 はどこ?", "run-busy-workers");

                RunResult result = run.result(Duration.ofSeconds(60));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
                assertThat(result.reason()).isEqualTo("deadline");
                assertThat(result.message()).startsWith("the time limit of 2 s was reached; no worker took up ReinBegin by"
                        + " the run's deadline and the grace of 10 s: none polls task queue '" + TemporalTestServer.QUEUE
                        + "', or all were busy").contains("the end is not traced")
                        .contains("every worker of task queue '" + TemporalTestServer.QUEUE + "' must register the agent")
                        .contains("setMaxConcurrentActivityExecutionSize");
                assertThat(trace.events(TraceEvent.RunFinished.class)).as("no worker traced the end").isEmpty();
            } finally {
                factory.shutdownNow();
            }
        }
    }

    /**
     * The deadline passes in a model call as the worker stops polling: the budget stop's intervention (ReinIntervene)
     * is never taken up, and the run ends STOPPED_BUDGET deadline, as it had decided, saying the stop was not traced.
     * It ended FAILED internal_error.
     */
    @Test
    void aBudgetStopWhoseInterventionNoWorkerTookUpEndsAsTheRunDecided() throws Exception {
        AtomicReference<WorkerFactory> factory = new AtomicReference<>();
        dev.rein.model.Model slow = (request, context) -> {
            factory.get().shutdown();
            Thread.sleep(8_000); // past the deadline, where the worker stops waiting for the model
            throw new IllegalStateException("the model answers after the run's deadline");
        };
        RecordingListener trace = new RecordingListener();
        Agent agent = Agent.builder().model(slow).modelName("scripted-model").prices(ScriptedModel.PRICES)
                .tools(Orders.lookup()).listener(trace)
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofSeconds(3)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            factory.set(WorkerFactory.newInstance(server.client()));
            TemporalAgents.activities(factory.get().newWorker(TemporalTestServer.QUEUE, WorkerOptions.newBuilder()
                    .setMaxConcurrentActivityExecutionSize(1).setAllowActivityHeartbeatDuringShutdown(true).build()), agent);
            server.env.start();
            factory.get().start();
            try {
                TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                        .withAttemptTimeout(Duration.ofMinutes(1)).start("A-1 はどこ?", "run-intervention-not-taken-up");

                RunResult result = run.result(Duration.ofSeconds(60));

                assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
                assertThat(result.reason()).isEqualTo("deadline");
                assertThat(result.message()).startsWith("the time limit of 3 s was reached while waiting for the model;"
                        + " no worker took up ReinIntervene by the run's deadline and the grace of 10 s: none polls task"
                        + " queue '" + TemporalTestServer.QUEUE + "', or all were busy")
                        .contains("the budget stop and the end are not traced").doesNotContain("summary");
                assertThat(run.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
                assertThat(trace.events(TraceEvent.RunFinished.class)).as("no worker traced the end").isEmpty();
            } finally {
                factory.get().shutdownNow();
            }
        }
    }

    /**
     * A run with a 10 h limit: each activity but the model call may wait for a worker until the deadline and the grace,
     * and its whole limit (schedule-to-close) stays the time left and three attempt timeouts, as before that wait was
     * bounded. Raising it to cover the wait and the activity's own run after it added the time left twice (about 20 h
     * here), so an activity no worker ran ended the run that much later; the wait and one attempt cover it.
     */
    @Test
    void aRunWithALongLimitGivesEachActivityNoMoreThanItsLimitAndAFewAttemptsInAll() throws Exception {
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofHours(10)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1 はどこ?", "run-long-limit").result(Duration.ofSeconds(60));

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            java.util.List<io.temporal.api.history.v1.ActivityTaskScheduledEventAttributes> scheduled = server.client()
                    .fetchHistory("run-long-limit").getEvents().stream()
                    .filter(io.temporal.api.history.v1.HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .map(io.temporal.api.history.v1.HistoryEvent::getActivityTaskScheduledEventAttributes)
                    .filter(a -> !a.getActivityType().getName().equals("ReinCallModel")).toList();
            assertThat(scheduled).extracting(a -> a.getActivityType().getName()).contains("ReinBegin", "ReinCallTool", "ReinEnd");
            scheduled.forEach(a -> assertThat(Duration.ofSeconds(a.getScheduleToCloseTimeout().getSeconds()))
                    .as(a.getActivityType().getName()).isLessThanOrEqualTo(Duration.ofHours(10).plusMinutes(15)));
        }
    }
}
