package dev.rein.tool;

import java.util.List;

/**
 * Runs a list of interceptors in order and polices their contract: a stage passes on the call it
 * was given (same call id, same tool under the same name; the arguments may change, e.g. an approved edit), returns a
 * result for that call and never null nor throws, and the last stage answers. A breach is a
 * {@link ToolChainException} naming the stage.
 */
final class ToolChain implements ToolInterceptor.Chain {
    private final List<ToolInterceptor> stages;
    private final int index;
    private final ToolInvocation received;
    /** Whether the stage given this chain passed the call on (the timeout stage does so on another thread). */
    private volatile boolean proceeded;

    private ToolChain(List<ToolInterceptor> stages, int index, ToolInvocation received) {
        this.stages = stages;
        this.index = index;
        this.received = received;
    }

    @Override
    public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
        proceeded = true;
        if (invocation == null) {
            throw breach(stages.get(index - 1), "proceeded with null");
        }
        if (index >= stages.size()) {
            throw breach(stages.get(stages.size() - 1), "proceeded past the last stage, which must answer the call");
        }
        if (index > 0 && (!invocation.call().id().equals(received.call().id()) || invocation.tool() != received.tool()
                || !invocation.call().name().equals(received.call().name()))) {
            throw breach(stages.get(index - 1), "changed the call id or the tool (from " + describe(received)
                    + " to " + describe(invocation) + ")");
        }
        ToolInterceptor stage = stages.get(index);
        ToolChain rest = new ToolChain(stages, index + 1, invocation);
        ToolOutcome outcome;
        try {
            outcome = stage.intercept(invocation, rest);
        } catch (ToolChainException breach) {
            throw breach;
        } catch (RuntimeException e) {
            // a stage that throws broke the contract (it answers, never throws): the developer's error, never the model's
            throw ToolChainException.threw("tool-chain stage " + stage.getClass().getName(), invocation, e, rest.proceeded);
        }
        if (outcome == null) {
            throw breach(stage, "returned null instead of an outcome");
        }
        if (!outcome.callId().equals(invocation.call().id())) {
            throw breach(stage, "returned the outcome of call " + outcome.callId() + " for call " + invocation.call().id());
        }
        return outcome;
    }

    /**
     * A fresh pass through {@code stages}: {@code start(stages, invocation).proceed(invocation)}. The caller proceeds
     * itself, so no frame of this class's sits under the first stage's while the call runs.
     */
    static ToolChain start(List<ToolInterceptor> stages, ToolInvocation invocation) {
        return new ToolChain(stages, 0, invocation);
    }

    private static String describe(ToolInvocation invocation) {
        String named = invocation.call().name().equals(invocation.tool().name()) ? ""
                : " named '" + invocation.call().name() + "'";
        return "call " + invocation.call().id() + named + " of tool '" + invocation.tool().name() + "'";
    }

    private static ToolChainException breach(ToolInterceptor stage, String what) {
        String name = stage.getClass().getName();
        return new ToolChainException("tool-chain stage " + name + " " + what
                + "; a stage must pass on the call it was given and return a result for it");
    }
}
