package dev.rein.tool;

import dev.rein.ReinException;

/** One call on its way through the executor: the proposed call, the resolved tool and its context. */
public record ToolInvocation(ToolCall call, Tool tool, ToolContext context) {
    /** @throws ReinException when a part is null (a stage's {@link #withCall} or {@link #withContext} given null) */
    public ToolInvocation {
        if (call == null) {
            throw new ReinException("a tool invocation was given no call (null): give the call to run (withCall(call) in a"
                    + " stage), or leave the invocation's own");
        }
        if (tool == null) {
            throw new ReinException("the tool invocation of call " + call.id() + " was given no tool (null): give the tool"
                    + " the call names");
        }
        if (context == null) {
            throw new ReinException("the tool invocation of call " + call.id() + " was given no context (null): give one"
                    + " (withContext(context) in a stage, e.g. invocation.context().withDeadline(deadline)), or leave its own");
        }
    }

    /** The same invocation with other arguments (for stages that rewrite them, e.g. an approved edit). */
    public ToolInvocation withCall(ToolCall newCall) {
        return new ToolInvocation(newCall, tool, context);
    }

    /** The same invocation with another context (for stages that narrow the deadline). */
    public ToolInvocation withContext(ToolContext newContext) {
        return new ToolInvocation(call, tool, newContext);
    }
}
