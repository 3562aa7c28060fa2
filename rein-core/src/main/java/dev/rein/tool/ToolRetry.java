package dev.rein.tool;

import dev.rein.internal.concurrent.Sleeper;
import dev.rein.internal.concurrent.Timed;
import dev.rein.internal.text.Counts;
import dev.rein.internal.text.Durations;
import dev.rein.retry.RetryPolicy;
import java.time.Duration;

/**
 * Tries a call again when it failed transiently ({@link ErrorClass#retryable()}: the handler threw
 * {@link RetryableToolException}), with bounded exponential backoff, never sleeping past the
 * call's deadline. The other system's wait hint is honoured in full up to
 * {@link RetryPolicy#LONGEST_HINT}; a longer one is not retried, and the result says so. Permission and validation failures never get here as retryable. The
 * idempotency key stays the same for every attempt. Each retry is reported to {@link ToolEvents}. A call
 * whose caller stopped waiting ({@link Timed#abandoned()}: the run was cancelled, or its time is up) is not
 * tried again, also when the handler swallowed the interrupt and failed as retryable.
 */
final class ToolRetry extends BuiltInToolStage {
    private final RetryPolicy policy;
    private final ToolEvents events;
    private final Sleeper sleeper;

    ToolRetry(RetryPolicy policy, ToolEvents events, Sleeper sleeper) {
        this.policy = policy;
        this.events = events;
        this.sleeper = sleeper;
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
            for (int attempt = 1; ; attempt++) {
                ToolOutcome outcome = next.proceed(invocation);
                if (!(outcome instanceof ToolOutcome.Failed failed) || !failed.errorClass().retryable()) {
                    return outcome;
                }
                ToolResult result = failed.result();
                // the caller stopped waiting (the run was cancelled, or the call's time is up) though a handler may have
                // swallowed the interrupt that said so: no other attempt, whose effect nobody would wait for
                if (Timed.abandoned()) {
                    return outcome;
                }
                if (attempt > policy.maxRetries()) {
                    return attempt == 1 ? outcome
                            : ToolOutcome.of(result.withOwnContent(result.content() + " (gave up after " + Counts.of(attempt, "attempt") + ")"));
                }
                // a wait longer than Rein makes is said first: blaming the deadline would suggest a longer timeout helps
                if (RetryPolicy.tooLong(result.retryAfter())) {
                    return ToolOutcome.of(result.withOwnContent(result.content() + " (" + RetryPolicy.tooLongMessage(result.retryAfter()) + ")"));
                }
                Duration delay = policy.delayBefore(attempt, result.retryAfter());
                if (!invocation.context().clock().instant().plus(delay).isBefore(invocation.context().deadline())) {
                    return ToolOutcome.of(result.withOwnContent(result.content() + " (not tried again: waiting " + Durations.human(delay)
                            + " would pass the call's deadline)"));
                }
                events.retrying(invocation, attempt, result, delay);
                sleeper.sleep(delay);
                if (Timed.abandoned()) {
                    return outcome;
                }
            }
        }
    }
}
