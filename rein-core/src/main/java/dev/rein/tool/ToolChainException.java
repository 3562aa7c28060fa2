package dev.rein.tool;

import dev.rein.ReinException;

/**
 * A tool-chain stage broke the chain's contract (returned null, threw, or changed the call's id or
 * tool, or answered for another call), or a scope or approval policy threw or answered null. A
 * programmer error, not the model's: the run ends {@code internal_error} with this message; the
 * model never sees it as a tool error.
 */
public final class ToolChainException extends ReinException {
    public ToolChainException(String message) {
        super(message);
    }

    public ToolChainException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * {@code who} (a stage or a policy, named with its class) threw {@code thrown} for the call of
     * {@code invocation}; {@code ran} says whether the tool may have run (the rest of the chain had answered it).
     * Public for the approval gate, which names the application's policy rather than itself, and names itself for a
     * failure of its own work (bound to the stages after it, it has no link of the chain's to name it).
     */
    public static ToolChainException threw(String who, ToolInvocation invocation, RuntimeException thrown, boolean ran) {
        return threw(who, invocation, thrown, ran ? "after the rest of the chain had answered the call (the tool may have run)"
                : "before passing the call on: it was not run");
    }

    /**
     * As {@link #threw(String, ToolInvocation, RuntimeException, boolean)}, for a stage of Rein's own bound to the next:
     * whether it had passed the call on is not known where its failure is caught, so the tool may or may not have run.
     */
    static ToolChainException threwUnsure(String who, ToolInvocation invocation, RuntimeException thrown) {
        return threw(who, invocation, thrown, "the tool may or may not have run");
    }

    private static ToolChainException threw(String who, ToolInvocation invocation, RuntimeException thrown, String what) {
        return new ToolChainException(who + " threw " + thrown.getClass().getSimpleName() + ": " + thrown.getMessage()
                + " for call " + invocation.call().id() + " of tool '" + invocation.tool().name() + "', " + what
                + "; it must not throw: a stage refuses a call with ToolOutcome.of(ToolResult.error(...)), a policy"
                + " answers (and must catch its own failures)", thrown);
    }
}
