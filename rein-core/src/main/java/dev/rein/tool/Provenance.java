package dev.rein.tool;

/**
 * Every observation carries where it came from. A handler that returns data without a source
 * gets {@code tool:<name>}; in strict mode such a result is rejected instead, so that nothing
 * unattributed is ever recorded as a fact.
 */
final class Provenance implements ToolInterceptor {
    private final boolean strict;

    Provenance(boolean strict) {
        this.strict = strict;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolOutcome outcome = chain.proceed(invocation);
        if (!(outcome instanceof ToolOutcome.Done done)) {
            return outcome;
        }
        ToolResult result = done.result();
        if (result.source() != null && !result.source().isBlank()) {
            return outcome;
        }
        if (strict && !result.isError()) {
            return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.MISSING_SOURCE, "Tool '" + invocation.tool().name()
                    + "' returned data without a source, and this agent only accepts observations with one."
                    + " The result was discarded. Use another tool or report that the information could not be confirmed."));
        }
        return ToolOutcome.of(result.withSource(invocation.tool().defaultSource));
    }
}
