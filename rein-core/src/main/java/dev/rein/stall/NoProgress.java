package dev.rein.stall;

import dev.rein.ReinException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code steps} tool steps in a row that observed nothing new: every successful result repeated a
 * result already seen (compared by content hash, whichever call produced it), or every call
 * failed. A step whose calls were all polling calls neither counts nor resets the streak: waiting
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
                fresh |= seen.add(o.hash());
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
