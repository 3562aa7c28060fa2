package dev.rein.temporal.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.client.ActivityCompletionException;
import io.temporal.client.ActivityPausedException;
import io.temporal.client.ActivityResetException;
import io.temporal.failure.ApplicationFailure;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What an attempt's heartbeats do when Temporal answers that an operator paused or reset the activity (Temporal's
 * Activity Operations: "Activities with Heartbeat are interrupted on their next Heartbeat"; the SDK throws
 * ActivityPausedException or ActivityResetException from heartbeat). The in-process test server has no pause or reset,
 * so the SDK's answer is played by a context double.
 */
class HeartbeatsTest {
    /** A context whose heartbeats (every 100 ms, a timeout of 300 ms) answer {@code answer} from the second one on. */
    private static ActivityExecutionContext context(Supplier<ActivityCompletionException> answer) {
        ActivityInfo info = (ActivityInfo) Proxy.newProxyInstance(ActivityInfo.class.getClassLoader(),
                new Class<?>[] {ActivityInfo.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getHeartbeatTimeout" -> Duration.ofMillis(300);
                    default -> null;
                });
        AtomicInteger beats = new AtomicInteger();
        return (ActivityExecutionContext) Proxy.newProxyInstance(ActivityExecutionContext.class.getClassLoader(),
                new Class<?>[] {ActivityExecutionContext.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getInfo" -> info;
                    case "heartbeat" -> {
                        if (beats.incrementAndGet() > 1) {
                            throw answer.get();
                        }
                        yield null;
                    }
                    default -> null;
                });
    }

    /** Runs a call of 10 s under heartbeats answered with {@code answer}; returns them once the call ended. */
    private static Heartbeats callUnder(Supplier<ActivityCompletionException> answer) {
        Heartbeats alive = Heartbeats.start(context(answer), null);
        long began = System.nanoTime();
        try {
            Thread.sleep(10_000);
            fail("the call ran its 10 s: the heartbeats did not stop it");
        } catch (InterruptedException e) {
            assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
        } finally {
            alive.close();
            Thread.interrupted();
        }
        return alive;
    }

    /**
     * A pause stops the call at the next heartbeat, and the attempt fails with a retryable failure saying so, so that
     * Temporal makes the call again once the activity is unpaused (failed before: the heartbeats stopped, taking the pause
     * for the worker stopping, and the call ran on to its end).
     */
    @Test
    void aPausedActivityStopsItsCallAtTheNextHeartbeatAndFailsRetryably() {
        Heartbeats alive = callUnder(ActivityPausedException::new);

        assertThat(alive.interruptedTheCall()).isTrue();
        ApplicationFailure failure = alive.stoppedByAnOperator();
        assertThat(failure).isNotNull();
        assertThat(failure.isNonRetryable()).isFalse();
        assertThat(failure.getType()).isEqualTo(Heartbeats.PAUSED);
        assertThat(failure.getOriginalMessage()).contains("paused").contains("unpause");
    }

    /** A reset stops the call the same way, and the attempt fails retryably: Temporal starts the activity again. */
    @Test
    void aResetActivityStopsItsCallAtTheNextHeartbeatAndFailsRetryably() {
        Heartbeats alive = callUnder(ActivityResetException::new);

        assertThat(alive.interruptedTheCall()).isTrue();
        ApplicationFailure failure = alive.stoppedByAnOperator();
        assertThat(failure).isNotNull();
        assertThat(failure.isNonRetryable()).isFalse();
        assertThat(failure.getType()).isEqualTo(Heartbeats.RESET);
    }

    /** A cancel is not an operator's stop: the attempt reports the cancel itself (unchanged). */
    @Test
    void aCancelIsNotTakenForAnOperatorsStop() {
        Heartbeats alive = callUnder(() -> new io.temporal.client.ActivityCanceledException());

        assertThat(alive.interruptedTheCall()).isTrue();
        assertThat(alive.stoppedByAnOperator()).isNull();
    }

    /**
     * A heartbeat refused by the worker's own heartbeat executor as it shuts down (a RejectedExecutionException from the
     * SDK, seen when a worker stopped during a call) ends the heartbeats quietly, as the worker stopping does: the call
     * is left to the worker (failed before: the exception escaped the heartbeat thread, printed with its stack trace).
     */
    @Test
    void aHeartbeatRefusedAsTheWorkerShutsDownEndsTheHeartbeatsQuietly() throws InterruptedException {
        java.util.List<Throwable> escaped = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> escaped.add(e));
        try {
            ActivityExecutionContext refusing = (ActivityExecutionContext) Proxy.newProxyInstance(
                    ActivityExecutionContext.class.getClassLoader(), new Class<?>[] {ActivityExecutionContext.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "getInfo" -> context(ActivityPausedException::new).getInfo();
                        case "heartbeat" -> throw new java.util.concurrent.RejectedExecutionException("executor terminated");
                        default -> null;
                    });
            Heartbeats alive = Heartbeats.start(refusing, null);
            Thread.sleep(500);
            alive.close();

            assertThat(escaped).isEmpty();
            assertThat(alive.interruptedTheCall()).isFalse();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }
}
