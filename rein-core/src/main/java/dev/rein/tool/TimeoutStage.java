package dev.rein.tool;

import dev.rein.internal.concurrent.Timed;
import dev.rein.internal.text.DeadlineRefusal;
import dev.rein.internal.text.Durations;
import java.time.Duration;
import java.time.Instant;

/**
 * Bounds the rest of the pipeline (retries included) by the tool's timeout, never past the run's
 * deadline. The rest runs on its own virtual thread, which is interrupted when time is up and
 * which the caller stops waiting for; for a tool that {@linkplain Tool#abortsOnInterrupt() aborts
 * on interrupt} it runs on the caller's thread, which an alarm interrupts instead. The narrowed
 * deadline is passed on in the context so retries and handlers can respect it.
 */
final class TimeoutStage extends BuiltInToolStage {
    private final Duration defaultTimeout;

    TimeoutStage(Duration defaultTimeout) {
        this.defaultTimeout = defaultTimeout;
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
            ToolCall call = invocation.call();
            Duration timeout = invocation.tool().timeout() != null ? invocation.tool().timeout() : defaultTimeout;
            Instant now = invocation.context().clock().instant();
            Instant runDeadline = invocation.context().deadline();
            boolean deadlineBinds = Duration.between(now, runDeadline).compareTo(timeout) < 0;
            Instant callDeadline = deadlineBinds ? runDeadline : now.plus(timeout);
            Duration wait = Duration.between(now, callDeadline);
            if (wait.isNegative() || wait.isZero()) {
                return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.TIMEOUT, DeadlineRefusal.notCalled(call.name())));
            }
            ToolInvocation bounded = invocation.withContext(invocation.context().withDeadline(callDeadline));
            Timed.Outcome<ToolOutcome> outcome;
            if (invocation.tool().abortsOnInterrupt()) {
                // Timed.runHere written out (Timed.here, the same try/catch, Here.end): the rest is called from here, not
                // through runHere and a lambda, since a handler that blocks on this thread parks the run with this stack,
                // and at thousands of runs in flight every frame of it is copied to the heap at each park (as the model
                // chain's DeadlineStage; docs/performance-log.md, 2026-12-07, perf5).
                Timed.Here here = Timed.here(wait); // this and the try below repeat Timed.runHere: change them together
                try {
                    outcome = new Timed.Outcome.Done<>(next.proceed(bounded));
                } catch (Exception | Error e) {
                    outcome = new Timed.Outcome.Failed<>(e);
                }
                outcome = here.end(outcome);
            } else {
                outcome = Timed.run("rein-tool-" + call.name(), wait, () -> next.proceed(bounded));
            }
            if (!(outcome instanceof Timed.Outcome.TimedOut<ToolOutcome>)
                    && !(outcome instanceof Timed.Outcome.Failed<ToolOutcome> f && f.cause() instanceof Error) && Thread.interrupted()) {
                // A handler on this thread that ended on an interrupt by returning sets it again (Tool.abortsOnInterrupt
                // asks so), or its channel was closed by it: the call ended as if it had thrown, and the interrupt is taken
                // here, so that nothing after the call (its record, the step's checkpoint: a store's socket, which the
                // interrupt closes on a virtual thread) runs under it.
                throw new InterruptedException("the tool call '" + call.name() + "' ended on an interrupt");
            }
            return switch (outcome) {
                case Timed.Outcome.Done<ToolOutcome> done -> done.value();
                case Timed.Outcome.TimedOut<ToolOutcome> ignored -> {
                    String why = deadlineBinds ? "the run's deadline was reached" : "it exceeded its timeout of " + Durations.human(timeout);
                    String effect = invocation.tool().risk() == Risk.READ ? ""
                            : " It may or may not have taken effect; check before calling it again.";
                    yield ToolOutcome.of(ToolResult.reinError(call, ErrorClass.TIMEOUT, "Tool '" + call.name() + "' was stopped because "
                            + why + "." + effect + " Try a smaller request or another approach."));
                }
                case Timed.Outcome.Failed<ToolOutcome> failed -> failure(call, failed.cause());
            };
        }
    }

    private static ToolOutcome failure(ToolCall call, Throwable cause) {
        if (cause instanceof ToolChainException breach) {
            throw breach; // a programmer error below this stage: never shown to the model
        }
        if (cause instanceof RuntimeException bug) {
            // A stage of Rein's own below this one threw (a bug of Rein's, or of a listener it calls, as ToolRetry's
            // ToolEvents): the handler's failures are results already (HandlerInvocation), an application's stage's are a
            // ToolChainException (its link). Passed on as it is, for the chain's link above to name the stage that threw
            // from its stack trace: the run ends internal_error, the model never sees it.
            throw bug;
        }
        return ToolOutcome.of(ToolResult.error(call, ErrorClass.EXECUTION_FAILED, "Tool '" + call.name() + "' could not be run: "
                + cause.getClass().getSimpleName() + ": " + cause.getMessage()));
    }
}
