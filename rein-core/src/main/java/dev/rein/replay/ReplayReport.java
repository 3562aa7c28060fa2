package dev.rein.replay;

import dev.rein.agent.RunResult;
import java.util.Optional;

/**
 * What a replay found: the first divergence (if any), the replayed run's result and the recorded ending.
 *
 * @param recordedStatus the status the recording ended with (null when the trace has no run_finished)
 * @param recordedReason its reason
 * @param recordedAnswer its answer
 * @param modelCalls     how many recorded model calls the replay used
 */
public record ReplayReport(String runId, Divergence divergence, RunResult result, String recordedStatus, String recordedReason,
                           String recordedAnswer, int modelCalls) {

    public Optional<Divergence> firstDivergence() {
        return Optional.ofNullable(divergence);
    }

    /** True when the replayed run ended as recorded: same status, reason and answer. */
    public boolean sameEnding() {
        return result.status().name().equals(recordedStatus) && result.reason().equals(recordedReason)
                && java.util.Objects.equals(result.answer(), recordedAnswer);
    }

    /** True when every request matched its recording and the run ended as recorded. */
    public boolean reproduced() {
        return divergence == null && sameEnding();
    }
}
