package dev.rein.tool;

import dev.rein.internal.text.Counts;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-tool call caps for one run: from the tool's own {@code maxCalls} and the budget's per-tool
 * limits, the lower where both cap a tool. A call over its cap is not executed.
 */
final class CallLimits extends BuiltInToolStage {
    private final Map<String, Integer> limits;
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    CallLimits(Map<String, Integer> limits, Map<String, Integer> countsSoFar) {
        this.limits = Map.copyOf(limits);
        this.counts.putAll(countsSoFar);
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInToolStage). */
    private final class Bound extends BuiltInToolStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            String name = invocation.tool().name();
            // The tool's own maxCalls is the most its author allows in a run: a budget may lower it, never raise it
            Integer limit = lower(limits.get(name), invocation.tool().maxCalls());
            if (limit != null) {
                // a call refused here is not made: counting it would report more calls than the cap allows, and a
                // resumed or Temporal-driven run (which carries these counts) would see calls that never ran
                boolean[] admitted = {false};
                counts.compute(name, (tool, count) -> {
                    int made = count == null ? 0 : count;
                    if (made >= limit) {
                        return count;
                    }
                    admitted[0] = true;
                    return made + 1;
                });
                if (!admitted[0]) {
                    return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.LIMIT_REACHED,
                            "Tool '" + name + "' has reached its limit of " + Counts.of(limit, "call") + " in this run and was not called."
                                    + " Work with the results you already have, use another tool, or finish."));
                }
            }
            return next.proceed(invocation);
        }
    }

    private static Integer lower(Integer a, Integer b) {
        return a == null ? b : b == null ? a : Integer.valueOf(Math.min(a, b));
    }

    /** Calls admitted so far, by tool name (for persistence and reports); a call refused for its cap is not among them. */
    Map<String, Integer> counts() {
        return Map.copyOf(counts);
    }
}
