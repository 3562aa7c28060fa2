package dev.rein.stall;

import dev.rein.ReinException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Calls going round a short cycle: A,B,A,B or A,B,C,A,B,C (each letter one tool with the same
 * arguments), repeated {@code minCycles} times in a row across steps. Calls of polling tools are
 * left out of the sequence. A cycle of one call is {@link ExactRepeat}'s business.
 *
 * <p>Evidence: {@code cycle} (tool names), {@code period}, {@code cycles}.
 */
public final class Alternation implements StallDetector {
    public static final String NAME = "alternation";
    public static final int DEFAULT_MIN_CYCLES = 2;
    private static final int MIN_PERIOD = 2;
    private static final int MAX_PERIOD = 3;

    private final int minCycles;
    private final List<ProposedCall> sequence = new ArrayList<>();

    public Alternation(int minCycles) {
        if (minCycles < 2) {
            throw new ReinException("alternation needs at least 2 cycles to be a cycle, was " + minCycles
                    + ": give after how many rounds of a cycle to block (the default is " + DEFAULT_MIN_CYCLES
                    + "), or turn the detector off with StallPolicy.Builder.without(\"" + NAME + "\")");
        }
        this.minCycles = minCycles;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] You are going round in a cycle ({cycle}), repeated {cycles} times with the same arguments;"
                + " nothing changes between rounds, so this call was not run. Step back: what did the results tell"
                + " you? Take a different action, or finish and say what is blocking you.";
    }

    @Override
    public void recordCall(ProposedCall call) {
        if (!call.polling()) {
            sequence.add(call);
        }
    }

    @Override
    public Optional<Map<String, Object>> checkCall(ProposedCall call) {
        if (call.polling()) {
            return Optional.empty();
        }
        for (int period = MIN_PERIOD; period <= MAX_PERIOD; period++) {
            if (cycles(period)) {
                List<ProposedCall> cycle = sequence.subList(sequence.size() - period, sequence.size());
                Map<String, Object> evidence = new LinkedHashMap<>();
                evidence.put("cycle", String.join(" -> ", cycle.stream().map(ProposedCall::tool).toList()));
                evidence.put("period", period);
                evidence.put("cycles", minCycles);
                return Optional.of(evidence);
            }
        }
        return Optional.empty();
    }

    /** The last {@code period * minCycles} calls repeat one cycle of distinct calls. */
    private boolean cycles(int period) {
        int window = period * minCycles;
        int n = sequence.size();
        if (n < window) {
            return false;
        }
        int start = n - window;
        // the cycle's calls are distinct: pairwise, as a period is at most MAX_PERIOD (no set per check)
        for (int i = start; i < start + period; i++) {
            for (int j = i + 1; j < start + period; j++) {
                if (sequence.get(i).key().equals(sequence.get(j).key())) {
                    return false;
                }
            }
        }
        for (int i = start + period; i < n; i++) {
            if (!sequence.get(i).key().equals(sequence.get(i - period).key())) {
                return false;
            }
        }
        return true;
    }
}
