package dev.rein.tool;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Admits the concurrent calls of one model response in call order: the stages above this one
 * (argument validation, the application's stages, the run's {@code tool_call} trace, scopes,
 * approval, idempotency and the per-tool call caps) see one call at a time, in the order the model
 * made them, so the trace and what a person watches follow the model's order and the calls over a
 * cap are always the last ones. Everything below (the timeout, retries, the handler) runs concurrently.
 */
final class CallOrder extends BuiltInToolStage {
    private static final ThreadLocal<CountDownLatch> TURN = new ThreadLocal<>();

    /** Runs {@code task} on this thread, counting {@code admitted} down when the call passes this stage. */
    static <T> T inTurn(CountDownLatch admitted, Callable<T> task) throws Exception {
        TURN.set(admitted);
        try {
            return task.call();
        } finally {
            TURN.remove();
            admitted.countDown(); // refused above this stage, or failed: the next call's turn either way
        }
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
            CountDownLatch admitted = TURN.get();
            if (admitted != null) {
                admitted.countDown();
            }
            return next.proceed(invocation);
        }
    }
}
