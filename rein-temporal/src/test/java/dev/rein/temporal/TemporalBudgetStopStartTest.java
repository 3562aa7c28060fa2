package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import io.temporal.api.history.v1.HistoryEvent;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How long a budget stop (ReinStopForBudget) in a run with a time limit may wait for a worker to take it up: the time
 * left to the deadline and the grace, counted from when the stop is scheduled, so a live worker always gets the grace.
 */
class TemporalBudgetStopStartTest {

    /**
     * A stop scheduled more than the grace after the deadline (a slow listener here; a slow activity, busy workers or a
     * worker back late alike) still gives a worker the grace to take it up. It had a schedule-to-start of 1 ms, which a
     * real server may let run out before a live worker polls: the run then ended FAILED "no worker polls".
     */
    @Test
    void aStopScheduledLongAfterTheDeadlineStillGivesAWorkerTheGrace() throws Exception {
        RunListener slow = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (event instanceof TraceEvent.ToolCompleted) {
                    sleep(Duration.ofMillis(10_500)); // past the deadline and the 10 s grace
                }
            }
        };
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .listener(id -> slow).budget(Budget.builder().maxDuration(Duration.ofMillis(500)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofMinutes(1))
                    .start("A-1 はどこ?", "run-late-budget-stop");
            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(stopStartTimeout(server, "run-late-budget-stop")).isGreaterThanOrEqualTo(Duration.ofSeconds(10));
        }
    }

    /**
     * A stop for another limit than the deadline (here the steps) in a run with a time limit waits for a worker until
     * the deadline and the grace, as a model call would have, not just the attempt timeout: it was cut at 3 s here and
     * would have ended the run 59 minutes before its deadline.
     */
    @Test
    void aStopForAnotherLimitMayWaitUntilTheDeadlineAndTheGrace() throws Exception {
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .budget(Budget.builder().maxSteps(1).maxDuration(Duration.ofHours(1)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(3))
                    .start("A-1 はどこ?", "run-steps-budget-stop");
            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo("max_steps");
            assertThat(stopStartTimeout(server, "run-steps-budget-stop")).isGreaterThan(Duration.ofMinutes(59))
                    .isLessThanOrEqualTo(Duration.ofHours(1).plusSeconds(10));
        }
    }

    /**
     * With an attempt timeout under about 3.3 s (here 1 s, a 4 s limit) the stop's schedule-to-close (the time left and
     * three attempt timeouts) was shorter than the deadline and the grace, and a real server caps the schedule-to-start
     * at the schedule-to-close: the stop did not get the grace its message names. Its schedule-to-close now covers the
     * whole wait and an attempt timeout after it (the deadline is behind a stop taken up that late; covering its whole
     * start-to-close made a long limit's activities wait about twice the limit in all).
     */
    @Test
    void aStopWithAShortAttemptTimeoutKeepsTheWholeWaitForAWorker() throws Exception {
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .budget(Budget.builder().maxSteps(1).maxDuration(Duration.ofSeconds(4)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(1))
                    .start("A-1 はどこ?", "run-short-attempt-budget-stop");
            RunResult result = run.result(Duration.ofSeconds(60));

            assertThat(result.status()).as(result.reason() + ": " + result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
            var stop = stop(server, "run-short-attempt-budget-stop");
            Duration start = duration(stop.getScheduleToStartTimeout());
            assertThat(start).isGreaterThanOrEqualTo(Duration.ofSeconds(10));
            assertThat(duration(stop.getScheduleToCloseTimeout()))
                    .isGreaterThanOrEqualTo(start.plus(duration(stop.getHeartbeatTimeout())));
        }
    }

    private static io.temporal.api.history.v1.ActivityTaskScheduledEventAttributes stop(TemporalTestServer server,
            String runId) {
        return server.client().fetchHistory(runId).getEvents().stream()
                .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .map(HistoryEvent::getActivityTaskScheduledEventAttributes)
                .filter(a -> a.getActivityType().getName().equals("ReinStopForBudget"))
                .findFirst().orElseThrow(() -> new AssertionError("no ReinStopForBudget was scheduled"));
    }

    private static Duration duration(com.google.protobuf.Duration d) {
        return Duration.ofSeconds(d.getSeconds(), d.getNanos());
    }

    private static Duration stopStartTimeout(TemporalTestServer server, String runId) {
        return server.client().fetchHistory(runId).getEvents().stream()
                .filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .map(HistoryEvent::getActivityTaskScheduledEventAttributes)
                .filter(a -> a.getActivityType().getName().equals("ReinStopForBudget"))
                .map(a -> Duration.ofSeconds(a.getScheduleToStartTimeout().getSeconds(), a.getScheduleToStartTimeout().getNanos()))
                .findFirst().orElseThrow(() -> new AssertionError("no ReinStopForBudget was scheduled"));
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
