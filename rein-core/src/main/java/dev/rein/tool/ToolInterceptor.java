package dev.rein.tool;

/**
 * One stage of the executor's pipeline around a tool call (validation, scopes, limits, retries,
 * truncation...). A stage either answers the call itself (refusing it:
 * {@code ToolOutcome.of(ToolResult.error(...))}) or calls {@link Chain#proceed} and may transform
 * the outcome ({@link ToolOutcome#map}); only a retrying stage calls it more than once. Stages never
 * return null and never throw: a failure is a {@link ToolOutcome.Failed} (a stage that throws
 * breaks the chain's contract: the run ends {@code FAILED/internal_error} naming it, see {@link ToolChainException}; a
 * {@link dev.rein.ConfigurationException}, a setting that cannot work, ends it {@code FAILED/configuration_error} with its
 * message, as in the model chain). A call waiting for
 * approval comes back as {@link ToolOutcome.Deferred}, never as a placeholder result.
 */
@FunctionalInterface
public interface ToolInterceptor {

    ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException;

    /**
     * Wraps the handler call itself, for what must hold on the thread the handler runs on: the
     * executor runs it on a thread of its own (under the call's timeout), so thread-bound context
     * set in {@link #intercept} (a tracing span, a logging MDC) is not there. The application's
     * interceptors are asked in order, the first one outermost, for calls that reach the handler;
     * the default adds nothing. The tool and the call stay as they are; only how the handler is
     * invoked changes.
     */
    default ToolHandler aroundHandler(ToolInvocation invocation, ToolHandler handler) {
        return handler;
    }

    /** The rest of the pipeline. */
    interface Chain {
        ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException;
    }
}
