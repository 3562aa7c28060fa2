package dev.rein.tool;

/**
 * Every observation carries where it came from. A handler that returns data without a source
 * gets {@code tool:<name>}; in strict mode such a result is rejected instead, so that nothing
 * unattributed is ever recorded as a fact.
 */
final class Provenance extends BuiltInToolStage {
    private final boolean strict;

    Provenance(boolean strict) {
        this.strict = strict;
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInToolStage). */
    private final class Bound extends BuiltInToolStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            ToolOutcome outcome = next.proceed(invocation);
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
}
