package dev.rein.internal.replay;

import dev.rein.tool.ToolInterceptor;

/**
 * A tool stage that answers calls from a recording instead of running them (a replay's). Given as a tool interceptor,
 * it is not run with the application's stages: the run hands it to the executor's
 * {@link dev.rein.tool.ToolExecutor.Builder#recordedAnswers} slot, which runs it after Rein's own checks (scope,
 * approval, call limits) and before idempotency, so a replay refuses or pauses a call where a live run with today's settings would,
 * and only a call those checks let through is answered from the recording.
 */
public interface RecordedAnswers extends ToolInterceptor {
    /**
     * Whether the approval stage must hold {@code invocation} for a person whatever the approval policy says: a
     * replay's stand-in tool (whose real risk and policy the trace does not record) waits exactly where the
     * recording's call of that step and id did. Empty: the policy decides.
     */
    default java.util.Optional<Boolean> holds(dev.rein.tool.ToolInvocation invocation) {
        return java.util.Optional.empty();
    }
}
