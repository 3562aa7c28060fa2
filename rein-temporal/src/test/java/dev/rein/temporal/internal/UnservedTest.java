package dev.rein.temporal.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.enums.v1.RetryState;
import io.temporal.api.enums.v1.TimeoutType;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An activity never taken up, as a real Temporal server reports it: its schedule-to-start timeout (capped at the
 * schedule-to-close one) with retry state NON_RETRYABLE_FAILURE, where the in-process test server reports the
 * schedule-to-close timeout first.
 */
class UnservedTest {

    private static final String QUEUE = "orders";

    private static ActivityFailure neverStarted(String activityType) {
        TimeoutFailure timeout = new TimeoutFailure("activity timeout", null, TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START);
        return new ActivityFailure("activity failed", 5, 0, activityType, "1", RetryState.RETRY_STATE_NON_RETRYABLE_FAILURE,
                "", timeout);
    }

    private static String describe(ActivityFailure failure, Duration startTimeout) {
        return Unserved.describe(failure, QUEUE, startTimeout, d -> d.toSeconds() + " s", t -> false);
    }

    @Test
    void aModelCallNeverTakenUpBeforeTheDeadlineOnARealServerIsSaidToHaveMissedTheDeadlineNotItsStartTimeout() {
        // a 1-hour deadline: the default start timeout (365 days) is not shorter than the call's limit, so not blamed
        String message = describe(neverStarted("ReinCallModel"), null);

        assertThat(message).contains("ReinCallModel").contains("was not started before the run's deadline")
                .contains("'" + QUEUE + "'").contains("TemporalAgents.worker").doesNotContain("withModelCallStartTimeout");
    }

    @Test
    void anotherActivityNeverTakenUpOnARealServerNeverNamesTheModelCallsStartTimeout() {
        for (String type : new String[] {"ReinBegin", "ReinEnd", "ReinCallTool"}) {
            String message = describe(neverStarted(type), Duration.ofSeconds(2));

            assertThat(message).as(type).contains(type).contains("was not started before the run's deadline")
                    .doesNotContain("withModelCallStartTimeout").doesNotContain("start timeout");
        }
    }

    @Test
    void aModelCallWhoseShorterStartTimeoutPassedIsSaidToHaveWaitedThatLongForAWorker() {
        String message = describe(neverStarted("ReinCallModel"), Duration.ofSeconds(2));

        assertThat(message).contains("no worker took it up within 2 s").contains("withModelCallStartTimeout");
    }
}
