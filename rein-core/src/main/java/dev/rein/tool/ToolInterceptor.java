package dev.rein.tool;

/**
 * One stage of the executor's pipeline around a tool call (validation, scopes, limits, retries,
 * truncation...). A stage either answers the call itself (refusing it:
 * {@code ToolOutcome.of(ToolResult.error(...))}) or calls {@link Chain#proceed} and may transform
 * the outcome ({@link ToolOutcome#map}); only a retrying stage calls it more than once. Stages never
 * return null and never throw: a failure is a {@link ToolOutcome.Failed}. A call waiting for
 * approval comes back as {@link ToolOutcome.Deferred}, never as a placeholder result.
 */
@FunctionalInterface
public interface ToolInterceptor {

    ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException;

    /** The rest of the pipeline. */
    interface Chain {
        ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException;
    }
}
