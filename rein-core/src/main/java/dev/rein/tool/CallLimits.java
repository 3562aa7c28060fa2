package dev.rein.tool;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-tool call caps for one run: from the tool's own {@code maxCalls} or the budget's per-tool
 * limits. A call over its cap is not executed.
 */
final class CallLimits implements ToolInterceptor {
    private final Map<String, Integer> limits;
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    CallLimits(Map<String, Integer> limits, Map<String, Integer> countsSoFar) {
        this.limits = Map.copyOf(limits);
        this.counts.putAll(countsSoFar);
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        String name = invocation.tool().name();
        Integer limit = limits.getOrDefault(name, invocation.tool().maxCalls());
        if (limit != null) {
            int count = counts.merge(name, 1, Integer::sum);
            if (count > limit) {
                return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.LIMIT_REACHED,
                        "Tool '" + name + "' has reached its limit of " + limit + " calls in this run and was not called."
                                + " Work with the results you already have, use another tool, or finish."));
            }
        }
        return chain.proceed(invocation);
    }

    /** Calls counted so far, by tool name (for persistence and reports). */
    Map<String, Integer> counts() {
        return Map.copyOf(counts);
    }
}
