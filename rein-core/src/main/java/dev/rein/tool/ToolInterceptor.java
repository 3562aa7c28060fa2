package dev.rein.tool;

/**
 * One stage of the executor's pipeline around a tool call (validation, scopes, limits, retries,
 * truncation...). A stage either answers the call itself (refusing it) or calls
 * {@link Chain#proceed} and may transform the result; only a retrying stage calls it more than
 * once. Stages never return null and never throw: a failure is an error {@link ToolResult}.
 */
@FunctionalInterface
public interface ToolInterceptor {

    ToolResult intercept(ToolInvocation invocation, Chain chain) throws InterruptedException;

    /** The rest of the pipeline. */
    interface Chain {
        ToolResult proceed(ToolInvocation invocation) throws InterruptedException;
    }
}
