package dev.rein.tool;

import java.util.List;

/** Runs a list of interceptors in order and polices their contract (no null, the last stage answers). */
final class ToolChain implements ToolInterceptor.Chain {
    private final List<ToolInterceptor> stages;
    private final int index;

    ToolChain(List<ToolInterceptor> stages, int index) {
        this.stages = stages;
        this.index = index;
    }

    @Override
    public ToolResult proceed(ToolInvocation invocation) throws InterruptedException {
        if (index >= stages.size()) {
            throw new IllegalStateException("the last tool stage must answer the call, not proceed");
        }
        ToolInterceptor stage = stages.get(index);
        ToolResult result = stage.intercept(invocation, new ToolChain(stages, index + 1));
        if (result == null) {
            throw new IllegalStateException("tool stage " + stage.getClass().getName() + " returned null");
        }
        return result;
    }

    /** Starts a fresh pass through {@code stages}. */
    static ToolResult run(List<ToolInterceptor> stages, ToolInvocation invocation) throws InterruptedException {
        return new ToolChain(stages, 0).proceed(invocation);
    }
}
