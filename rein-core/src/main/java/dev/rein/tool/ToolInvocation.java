package dev.rein.tool;

import java.util.Objects;

/** One call on its way through the executor: the proposed call, the resolved tool and its context. */
public record ToolInvocation(ToolCall call, Tool tool, ToolContext context) {
    public ToolInvocation {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(context, "context");
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
