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

    /**
     * {@code outcome}, the executor's answer to a call at {@code step}, as the replay hands it to the run: a refusal Rein
     * made before this stage (arguments that are not JSON or do not fit the schema, an unknown tool) may be one the
     * recording has in other words. The default hands {@code outcome} back. (Asked by the run of each outcome, not by
     * the executor, which does not know this package.)
     */
    default dev.rein.tool.ToolOutcome answered(int step, dev.rein.tool.ToolOutcome outcome) {
        return outcome;
    }
}
