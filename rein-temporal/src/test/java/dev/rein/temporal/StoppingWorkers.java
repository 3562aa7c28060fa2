package dev.rein.temporal;

import dev.rein.agent.Agent;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The workers of an agent's activities that stop polling part way through a run, so that its next activity is never
 * taken up: one slot (no poll is out for the next activity while one runs), stopped gracefully (the activity they run
 * still reports), on the queue of a {@link TemporalTestServer} whose workflow worker stays. The set-up the tests of an
 * activity no worker takes up share.
 */
final class StoppingWorkers implements AutoCloseable {
    private final AtomicReference<WorkerFactory> activities = new AtomicReference<>();
    private WorkerFactory back;

    /** For the agent's listeners: stops the workers as the run begins (while ReinBegin runs, its one slot taken). */
    RunListenerFactory stopAtRunStart() {
        RunListener stop = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.RunStarted) {
                    stop();
                }
            }
        };
        return runId -> stop;
    }

    /** Stops the workers polling; the activity they run goes on and reports. */
    void stop() {
        activities.get().shutdown();
    }

    /** Registers the workflow on {@code server}'s queue and {@code agent}'s activities on these workers, and starts both. */
    void start(TemporalTestServer server, Agent agent) {
        start(server, agent, WorkerOptions.getDefaultInstance());
    }

    /** As {@link #start(TemporalTestServer, Agent)}, the workflow worker made with {@code workflowWorker}. */
    void start(TemporalTestServer server, Agent agent, WorkerOptions workflowWorker) {
        TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE, workflowWorker));
        activities.set(WorkerFactory.newInstance(server.client()));
        TemporalAgents.activities(activities.get().newWorker(TemporalTestServer.QUEUE, WorkerOptions.newBuilder()
                .setMaxConcurrentActivityExecutionSize(1).setAllowActivityHeartbeatDuringShutdown(true).build()), agent);
        server.env.start();
        activities.get().start();
    }

    /** A worker of {@code agent}'s activities back on {@code server}'s queue (stopped with these on close). */
    void bringBack(TemporalTestServer server, Agent agent) {
        back = WorkerFactory.newInstance(server.client());
        TemporalAgents.activities(back.newWorker(TemporalTestServer.QUEUE), agent);
        back.start();
    }

    /** Whether {@code history} has scheduled an activity of {@code activityType}. */
    static boolean scheduled(WorkflowExecutionHistory history, String activityType) {
        return history.getEvents().stream().filter(io.temporal.api.history.v1.HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .anyMatch(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals(activityType));
    }

    /** The schedule-to-start timeout of run {@code runId}'s first activity of {@code activityType}, or null. */
    static Duration startTimeout(TemporalTestServer server, String runId, String activityType) {
        return server.client().fetchHistory(runId).getEvents().stream()
                .filter(io.temporal.api.history.v1.HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .map(io.temporal.api.history.v1.HistoryEvent::getActivityTaskScheduledEventAttributes)
                .filter(a -> a.getActivityType().getName().equals(activityType))
                .map(a -> Duration.ofSeconds(a.getScheduleToStartTimeout().getSeconds(), a.getScheduleToStartTimeout().getNanos()))
                .findFirst().orElse(null);
    }

    @Override
    public void close() {
        if (activities.get() != null) {
            activities.get().shutdownNow();
        }
        if (back != null) {
            back.shutdownNow();
        }
    }
}
