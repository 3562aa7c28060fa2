package dev.rein.temporal.internal;

import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What to say of an activity no worker of the run's queue ran before its time was up: kept apart from the workflow so
 * that the failure as a real Temporal server writes it (which the in-process test server never does) can be tested.
 */
final class Unserved {

    /** The model call's activity type: the only activity scheduled with a start timeout of its own. */
    static final String MODEL_CALL = "ReinCallModel";

    private Unserved() {
    }

    /**
     * Whether {@code failure} is a model call no worker took up within its start timeout, one shorter than the call's
     * whole limit ({@code startTimeout}, as {@link #describe} takes it): workers of the queue may be back later, so the
     * run's end may still be traced by one.
     */
    static boolean callNeverTakenUp(ActivityFailure failure, Duration startTimeout) {
        return startTimeout != null && MODEL_CALL.equals(failure.getActivityType()) && neverTakenUp(failure);
    }

    private static boolean neverTakenUp(ActivityFailure failure) {
        return failure.getCause() instanceof TimeoutFailure t && t.getTimeoutType() == TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START;
    }

    /**
     * What every worker of {@code queue} must do to run the agent's activities: the one wording of it for every message
     * of an activity no worker ran.
     */
    static String register(String queue) {
        return "every worker of task queue '" + queue + "' must register the agent with TemporalAgents.worker(worker, agent,"
                + " runStore) (or TemporalAgents.activities for a worker that runs activities only)";
    }

    /**
     * What the run's result says of {@code failure}, or null for a failure no missing worker explains: workers took
     * it that lack the agent's activities (Temporal retried it, each attempt "not registered with a worker"), no
     * worker polls the queue for activities (never started before its limit), or a model call no worker took up
     * within its start timeout.
     *
     * @param queue the run's task queue
     * @param startTimeout the model call's start timeout when it was shorter than the call's whole limit (so it, not
     *     the deadline, ended a call never started); null otherwise. A real server caps an activity's schedule-to-start
     *     at its schedule-to-close and, when both are up, records a schedule-to-start timeout (non-retryable), so only
     *     such a shorter one may be blamed
     * @param shown how a duration reads for people
     * @param startedByALostWorker whether a worker started the timed-out attempt and was lost during it
     */
    static String describe(ActivityFailure failure, String queue, Duration startTimeout, Function<Duration, String> shown,
            Predicate<TimeoutFailure> startedByALostWorker) {
        if (failure.getCause() instanceof ApplicationFailure app) {
            if (WorkerConverter.UNREADABLE.equals(app.getType())) {
                return app.getOriginalMessage(); // the worker's client lacks Rein's converter: it says what to set
            }
            if (AgentWorkflowImpl.CONVERTER_FAILURE.equals(app.getType())) {
                return "a worker of task queue '" + queue + "' could not read the input of the"
                        + " activity " + failure.getActivityType() + " (" + app.getOriginalMessage() + "): its WorkflowClient"
                        + " has another data converter than Rein's. Build the client of every worker's WorkerFactory with"
                        + " TemporalAgents.clientOptions() (or setDataConverter(TemporalAgents.dataConverter())), and start"
                        + " the run again under a new run id";
            }
        }
        String where = "task queue '" + queue + "'";
        String register = register(queue);
        boolean neverTakenUp = neverTakenUp(failure);
        if (callNeverTakenUp(failure, startTimeout)) {
            // Temporal does not retry a start timeout, whatever the retry state says
            return "the activity " + failure.getActivityType() + " waited for a worker and no worker took it up within "
                    + shown.apply(startTimeout) + ", its start timeout: no worker with the"
                    + " agent's activities polls " + where + ", or all of them were busy or stopped that long. Check that"
                    + " one runs: " + register + "; to let a model call wait longer for a worker, set"
                    + " TemporalAgentClient.withModelCallStartTimeout";
        }
        if (failure.getRetryState() != RetryState.RETRY_STATE_TIMEOUT && !neverTakenUp) {
            return null;
        }
        if (failure.getCause() instanceof ApplicationFailure app && app.getOriginalMessage() != null
                && app.getOriginalMessage().contains("is not registered with a worker")) {
            return "the activity " + failure.getActivityType() + " could not run before the run's deadline: the workers of "
                    + where + " that took it lack the agent's activities, and Temporal retried it until then (last failure: "
                    + app.getOriginalMessage() + "); " + register;
        }
        // the test server ends a never-started activity with its schedule-to-close timeout (retry state TIMEOUT), a real
        // server with the schedule-to-start timeout capped to it (NON_RETRYABLE_FAILURE)
        if (failure.getCause() instanceof TimeoutFailure timeout && failure.getStartedEventId() <= 0
                && !startedByALostWorker.test(timeout)) {
            return "the activity " + failure.getActivityType() + " was not started before the run's deadline: no worker with"
                    + " the agent's activities polls " + where + "; " + register + ", and one must run";
        }
        return null;
    }
}
