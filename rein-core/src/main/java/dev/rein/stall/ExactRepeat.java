package dev.rein.stall;

import dev.rein.ReinException;
import java.util.HashMap;
import dev.rein.tool.Risk;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The same tool with the same arguments (compared canonically: key order and whitespace do not
 * matter) for the {@code threshold}-th time. Polling tools have their own threshold, 0 meaning
 * exempt.
 *
 * <p>A successful call of a tool that changes something (risk WRITE or IRREVERSIBLE) restarts the
 * count of every other call: running the same tests or reading the same file again after an edit
 * is checking the change, not repeating oneself. Repeating the write itself still counts.
 *
 * <p>Evidence: {@code tool}, {@code count}, {@code first_step}.
 */
public final class ExactRepeat implements StallDetector {
    public static final String NAME = "exact_repeat";
    public static final int DEFAULT_THRESHOLD = 3;
    /** Polling tools are exempt by default. */
    public static final int DEFAULT_POLLING_THRESHOLD = 0;

    private final int threshold;
    private final int pollingThreshold;
    private final Map<String, Integer> counts = new HashMap<>();
    private final Map<String, Integer> firstStep = new HashMap<>();

    public ExactRepeat(int threshold, int pollingThreshold) {
        if (threshold < 2) {
            throw new ReinException("exact repeat threshold must be at least 2, was " + threshold
                    + ": give which identical call to block (the default is " + DEFAULT_THRESHOLD
                    + ", the third), or turn the detector off with StallPolicy.Builder.without(\"" + NAME + "\")");
        }
        if (pollingThreshold != 0 && pollingThreshold < 2) {
            throw new ReinException("exact repeat threshold for polling tools must be 0 (exempt) or at least 2, was "
                    + pollingThreshold + ": give 0 to let polling tools repeat a call (the default), or which identical"
                    + " call of one to block");
        }
        this.threshold = threshold;
        this.pollingThreshold = pollingThreshold;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] You have called '{tool}' with these exact arguments {count} times. Repeating the call will"
                + " not change its result, so it was not run. Change the tool, the arguments or the approach; if"
                + " you are blocked, finish and say what is blocking you.";
    }

    @Override
    public void recordCall(ProposedCall call) {
        counts.merge(call.key(), 1, Integer::sum);
        firstStep.putIfAbsent(call.key(), call.step());
    }

    @Override
    public void recordStep(List<Observed> observed) {
        for (Observed o : observed) {
            if (!o.isError() && o.call().risk() != null && o.call().risk() != Risk.READ) {
                Integer own = counts.get(o.call().key());
                counts.clear();
                firstStep.keySet().retainAll(java.util.Set.of(o.call().key()));
                if (own != null) {
                    counts.put(o.call().key(), own);
                }
            }
        }
    }

    @Override
    public Optional<Map<String, Object>> checkCall(ProposedCall call) {
        int limit = call.polling() ? pollingThreshold : threshold;
        int count = counts.getOrDefault(call.key(), 0);
        if (limit == 0 || count < limit) {
            return Optional.empty();
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("tool", call.tool());
        evidence.put("count", count);
        evidence.put("first_step", firstStep.get(call.key()));
        return Optional.of(evidence);
    }
}
