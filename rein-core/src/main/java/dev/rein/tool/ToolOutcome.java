package dev.rein.tool;

import dev.rein.ReinException;
import java.util.function.UnaryOperator;

/**
 * What one tool call came to, as the executor chain returns it: it ran and completed, it failed
 * (or Rein refused it) with its {@link ErrorClass}, or it is deferred until a person decides. One
 * encoding per fact: a deferred call has no placeholder result.
 */
public sealed interface ToolOutcome {

    /** The id of the call this outcome belongs to. */
    String callId();

    /** A call that produced a result for the model: completed or failed. */
    sealed interface Done extends ToolOutcome {
        ToolResult result();

        @Override
        default String callId() {
            return result().callId();
        }
    }

    /** The call ran and succeeded. */
    record Completed(ToolResult result) implements Done {
        /** @throws ReinException when {@code result} is null */
        public Completed {
            if (result == null) {
                throw new ReinException("a completed tool outcome was given no result (null): give the call's ToolResult"
                        + " (ToolResult.success(call, content, source))");
            }
            if (result.isError()) {
                throw new IllegalArgumentException("a completed outcome needs a result that is not an error");
            }
        }
    }

    /** The call failed or was refused; {@link #errorClass()} says how. */
    record Failed(ToolResult result) implements Done {
        /** @throws ReinException when {@code result} is null */
        public Failed {
            if (result == null) {
                throw new ReinException("a failed tool outcome was given no result (null): give the call's error ToolResult"
                        + " (ToolResult.error(call, errorClass, message))");
            }
            if (!result.isError()) {
                throw new IllegalArgumentException("a failed outcome needs an error result");
            }
        }

        public ErrorClass errorClass() {
            return result.errorClass();
        }
    }

    /** The call waits for a person's decision on action {@code actionHash}; it has not run. */
    record Deferred(String callId, String toolName, String actionHash) implements ToolOutcome {
        /** @throws ReinException when a field is null, naming it */
        public Deferred {
            if (callId == null) {
                throw new ReinException("a deferred tool outcome was given no callId (null): give the id of the call that"
                        + " waits (invocation.call().id() in a stage)");
            }
            if (toolName == null) {
                throw new ReinException("the deferred tool outcome of call " + callId + " was given no toolName (null): give"
                        + " the name of the tool called (invocation.call().name())");
            }
            if (actionHash == null) {
                throw new ReinException("the deferred tool outcome of call " + callId + " was given no actionHash (null): give"
                        + " the hash of the action the decision is bound to (ActionHash.of(call.name(), call.arguments()))");
            }
        }
    }

    /** {@code result} as an outcome: completed, or failed when it is an error. */
    static Done of(ToolResult result) {
        return result.isError() ? new Failed(result) : new Completed(result);
    }

    /** This outcome with its result transformed; a deferred call is returned as it is. */
    default ToolOutcome map(UnaryOperator<ToolResult> change) {
        return this instanceof Done done ? of(change.apply(done.result())) : this;
    }
}
