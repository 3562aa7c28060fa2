package dev.rein.internal.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TimedTest {
    @AfterEach
    void noInterruptLeftOver() {
        Thread.interrupted();
    }

    @Test
    void workThatEndsInTimeIsDoneAndItsAlarmCannotFireLater() throws Exception {
        Timed.Outcome<String> outcome = Timed.runHere(Duration.ofMillis(50), () -> "ok");
        assertThat(outcome).isEqualTo(new Timed.Outcome.Done<>("ok"));
        // Were the alarm still armed, this sleep would end with an InterruptedException.
        Thread.sleep(300);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void interruptibleWorkPastTheLimitTimesOutOnTheCallersThread() throws Exception {
        Thread caller = Thread.currentThread();
        Thread[] ranOn = new Thread[1];
        Timed.Outcome<String> outcome = Timed.runHere(Duration.ofMillis(100), () -> {
            ranOn[0] = Thread.currentThread();
            Thread.sleep(60_000);
            return "never";
        });
        assertThat(outcome).isInstanceOf(Timed.Outcome.TimedOut.class);
        assertThat(ranOn[0]).isSameAs(caller);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void anAlarmThatGoesOffAfterTheWorksLastBlockingCallDoesNotLeakIntoWhatFollows() throws Exception {
        // The work notices nothing and returns normally after the alarm's interrupt arrived: the
        // interrupt must be cleared, or the next step's first blocking call would fail.
        Timed.Outcome<String> outcome = Timed.runHere(Duration.ofMillis(20), () -> {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
            }
            return "late";
        });
        assertThat(outcome).isInstanceOf(Timed.Outcome.TimedOut.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        Thread.sleep(50); // would throw if an interrupt were still pending
    }

    @Test
    void anInterruptFromSomeoneElseStaysAnInterrupt() throws Exception {
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> Timed.runHere(Duration.ofSeconds(60), () -> {
            Thread.sleep(60_000);
            return "never";
        })).isInstanceOf(InterruptedException.class);
    }

    @Test
    void failuresOfTheWorkAreReturned() throws Exception {
        IllegalStateException boom = new IllegalStateException("boom");
        Timed.Outcome<String> outcome = Timed.runHere(Duration.ofSeconds(60), () -> {
            throw boom;
        });
        assertThat(outcome).isEqualTo(new Timed.Outcome.Failed<>(boom));
    }

    @Test
    void workOnItsOwnThreadPastTheLimitTimesOutAndIsInterrupted() throws Exception {
        CountDownLatch workerInterrupted = new CountDownLatch(1);
        AtomicBoolean workStarted = new AtomicBoolean();
        Timed.Outcome<String> outcome = Timed.run("timed-test", Duration.ofMillis(500), () -> {
            workStarted.set(true);
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                workerInterrupted.countDown();
            }
            return "never";
        });
        assertThat(outcome).isInstanceOf(Timed.Outcome.TimedOut.class);
        // On a loaded machine the worker may not have begun by the limit: then the cancelled task
        // never runs its work (nothing to interrupt); work that had begun must have been interrupted.
        boolean interrupted = workerInterrupted.await(30, TimeUnit.SECONDS);
        assertThat(interrupted || !workStarted.get()).as("work that had begun was interrupted").isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void workOnItsOwnThreadReturnsItsValueOrItsFailure() throws Exception {
        Thread caller = Thread.currentThread();
        assertThat(Timed.run("timed-test", Duration.ofSeconds(60), () -> Thread.currentThread() != caller))
                .isEqualTo(new Timed.Outcome.Done<>(true));
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(Timed.run("timed-test", Duration.ofSeconds(60), () -> {
            throw boom;
        })).isEqualTo(new Timed.Outcome.Failed<>(boom));
    }

    @Test
    void anInterruptedWaiterStopsTheWorkAndThrows() throws Exception {
        Thread caller = Thread.currentThread();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch workerInterrupted = new CountDownLatch(1);
        // Interrupted once the work runs: before that, cancelling the work means it never starts.
        Thread.ofPlatform().daemon().start(() -> {
            try {
                started.await();
                caller.interrupt();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThatThrownBy(() -> Timed.run("timed-test", Duration.ofSeconds(60), () -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                workerInterrupted.countDown();
            }
            return "never";
        })).isInstanceOf(InterruptedException.class);
        assertThat(workerInterrupted.await(30, TimeUnit.SECONDS)).isTrue();
    }
}
