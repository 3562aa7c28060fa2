package dev.rein.stall;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Watches a run for one way of getting stuck. State changes only in the {@code record} methods;
 * the {@code check} methods are side-effect free, so checking twice never counts twice.
 *
 * <p>The guard drives a detector in this order for every model response that proposes tool calls:
 * for each proposed call {@link #recordCall} then {@link #checkCall} (a finding blocks the call:
 * it is not run); after the allowed calls ran, {@link #recordStep} with their results then
 * {@link #checkStep} (a finding adds a notice to the results). The same order replayed over a
 * stored history rebuilds the state, so detectors survive a resume.
 *
 * <p>A check returns the evidence of a finding: values the intervention text can name with
 * {@code {placeholders}} and the trace records. Instances hold one run's state; a
 * {@link Factory} makes a fresh one per run.
 */
public interface StallDetector {

    /** A stable name, used in the trace, in {@link StallPolicy} overrides and in the run's message. */
    String name();

    /** The text the model sees when this detector fires, with {@code {placeholders}} from the evidence. */
    String defaultMessage();

    /** Records a proposed call, before it runs (blocked calls are recorded too). */
    default void recordCall(ProposedCall call) {}

    /** Whether {@code call}, already recorded, must not run. Side-effect free. */
    default Optional<Map<String, Object>> checkCall(ProposedCall call) {
        return Optional.empty();
    }

    /** Records the results of the calls of one step that ran, in call order. */
    default void recordStep(List<Observed> observed) {}

    /** Whether the step just recorded shows a stall. Side-effect free. */
    default Optional<Map<String, Object>> checkStep() {
        return Optional.empty();
    }

    /** Makes a fresh detector for each run. */
    @FunctionalInterface
    interface Factory {
        StallDetector create();
    }
}
