package dev.rein.stall;

import dev.rein.ReinException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code steps} tool steps in a row that made no progress: every call failed, or every successful
 * call repeated what was already known. A call makes progress when its result text is new
 * (compared by content hash, whichever call produced it), when it establishes a new fact (the same
 * text from a new source), or when a side-effecting call touches a resource not touched before
 * ({@link Observed#touched()}): ten writes to ten files that each answer "File written." are
 * progress. A step whose calls were all polling calls neither counts nor resets the streak: waiting
 * on a job is not stalling. Steps whose calls were all blocked are not observed at all.
 *
 * <p>Evidence: {@code steps}.
 */
public final class NoProgress implements StallDetector {
    public static final String NAME = "no_progress";
    public static final int DEFAULT_STEPS = 5;

    private final int steps;
    private final Set<String> seen = new HashSet<>();
    private int streak;

    public NoProgress(int steps) {
        if (steps < 2) {
            throw new ReinException("no-progress steps must be at least 2, was " + steps);
        }
        this.steps = steps;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] The last {steps} steps produced nothing new: every result repeated something already seen"
                + " or failed. Change approach, or finish with what you have and say what is missing.";
    }

    @Override
    public void recordStep(List<Observed> observed) {
        if (observed.isEmpty()) {
            return;
        }
        boolean fresh = false;
        for (Observed o : observed) {
            if (!o.isError()) {
                // every kind of novelty is recorded (no short-circuit), each in its own namespace
                fresh |= seen.add("text:" + o.hash());
                fresh |= o.fact().map(f -> seen.add("fact:" + f)).orElse(false);
                fresh |= o.touched().map(r -> seen.add("resource:" + r)).orElse(false);
            }
        }
        boolean onlyPolling = observed.stream().allMatch(o -> o.call().polling());
        if (fresh) {
            streak = 0;
        } else if (!onlyPolling) {
            streak++;
        }
    }

    @Override
    public Optional<Map<String, Object>> checkStep() {
        if (streak < steps) {
            return Optional.empty();
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("steps", streak);
        return Optional.of(evidence);
    }
}
