package dev.rein.temporal.internal;

import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;

import java.time.Duration;
import java.util.Map;

/**
 * What a workflow needs to decide deterministically, taken from the agent definition when the run
 * starts (so a worker with a changed agent does not change the decisions of runs in flight).
 *
 * @param goal        the run's goal; empty in a continued execution's input, whose run has its goal in its snapshot
 * @param prices      the agent's price table, for the money budget checked in the workflow
 * @param attempt     the heartbeat timeout of every activity: a worker silent this long is taken for
 *                    dead and the activity retried elsewhere (an attempt itself may run until the deadline)
 * @param retries     the agent's model retry policy, as activity retry options
 * @param historyLimit the workflow history's length (events) from which the run continues as new before its next step
 *                    (0: {@link dev.rein.temporal.TemporalAgentClient#DEFAULT_HISTORY_LIMIT})
 * @param callStartTimeout how long a model call may wait for a worker to take it up, on each attempt (null, in a run
 *                    started before it was kept: {@link dev.rein.temporal.TemporalAgentClient#DEFAULT_MODEL_CALL_START_TIMEOUT})
 * @param carried     Rein's own: the run's state carried into a workflow execution that continues it as new; null when
 *                    the run starts
 */
public record RunInput(String goal, String modelName, Budget budget, Map<String, ModelPrice> prices, int maxTokens,
                       int maxVerificationFailures, int maxEmptyNudges, Duration attempt, int retries,
                       Duration initialBackoff, Duration maxBackoff, int historyLimit, Duration callStartTimeout,
                       Payloads.Carried carried) {
    /** A run's input as it starts, with the default history limit. */
    public RunInput(String goal, String modelName, Budget budget, Map<String, ModelPrice> prices, int maxTokens,
                    int maxVerificationFailures, int maxEmptyNudges, Duration attempt, int retries,
                    Duration initialBackoff, Duration maxBackoff) {
        this(goal, modelName, budget, prices, maxTokens, maxVerificationFailures, maxEmptyNudges, attempt, retries,
                initialBackoff, maxBackoff, 0, null, null);
    }
}
