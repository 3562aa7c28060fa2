package dev.rein.stall;

import dev.rein.ReinException;
import dev.rein.internal.text.Excerpts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code count} tool calls in a row that ended in an error (any success resets the count). Calls
 * the guard blocked do not count: they are interventions, not tool errors.
 *
 * <p>Evidence: {@code count}, {@code last_tool}, {@code last_error}.
 */
public final class ConsecutiveErrors implements StallDetector {
    public static final String NAME = "consecutive_errors";
    public static final int DEFAULT_COUNT = 5;
    private static final int ERROR_EXCERPT = 200;

    private final int count;
    private int streak;
    private Observed last;

    public ConsecutiveErrors(int count) {
        if (count < 2) {
            throw new ReinException("consecutive-errors count must be at least 2, was " + count
                    + ": give how many tool errors in a row make a stall (the default is " + DEFAULT_COUNT
                    + "), or turn the detector off with StallPolicy.Builder.without(\"" + NAME + "\")");
        }
        this.count = count;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] The last {count} tool calls failed (latest: '{last_tool}'). Read the error messages, check"
                + " your arguments against the tool descriptions and change approach; if you cannot make progress,"
                + " finish and say what is blocking you.";
    }

    @Override
    public void recordStep(List<Observed> observed) {
        for (Observed o : observed) {
            streak = o.isError() ? streak + 1 : 0;
            last = o;
        }
    }

    @Override
    public Optional<Map<String, Object>> checkStep() {
        if (streak < count) {
            return Optional.empty();
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("count", streak);
        evidence.put("last_tool", last.call().tool());
        evidence.put("last_error", Excerpts.first(last.content(), ERROR_EXCERPT));
        return Optional.of(evidence);
    }
}
