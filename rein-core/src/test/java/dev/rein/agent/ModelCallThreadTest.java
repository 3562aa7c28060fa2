package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Which thread a model call runs on, and that the run's deadline holds on both paths: a model
 * that aborts on interrupt runs on the run's own thread; any other model on a thread of its own.
 */
class ModelCallThreadTest {

    /** A model whose first call blocks until released; it records the thread that called it. */
    private static final class Blocking implements Model {
        final boolean aborts;
        final AtomicReference<Thread> caller = new AtomicReference<>();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final ScriptedModel after = ScriptedModel.of(ScriptedModel.text("done"));

        Blocking(boolean aborts) {
            this.aborts = aborts;
        }

        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
            caller.set(Thread.currentThread());
            entered.countDown();
            if (aborts) {
                release.await();
            } else {
                awaitIgnoringInterrupts();
            }
            return after.call(request, context);
        }

        private void awaitIgnoringInterrupts() {
            boolean interrupted = false;
            while (true) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public boolean abortsOnInterrupt() {
            return aborts;
        }
    }

    private static Agent agent(Model model, Duration deadline) {
        return Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .budget(Budget.builder().maxDuration(deadline).build()).build();
    }

    @Test
    void aModelThatAbortsOnInterruptRunsOnTheRunsThreadAndStopsAtTheDeadline() {
        Blocking model = new Blocking(true);
        RunResult result = agent(model, Duration.ofMillis(500)).run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        // No thread of its own: the call ran on the loop's thread (the only other one is the caller's).
        assertThat(model.caller.get().getName()).startsWith("rein-run-");
    }

    @Test
    void aModelThatIgnoresInterruptsRunsOnItsOwnThreadAndStillStopsAtTheDeadline() {
        Blocking model = new Blocking(false);
        try {
            RunResult result = agent(model, Duration.ofMillis(500)).run("go");
            assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(result.reason()).isEqualTo("deadline");
            assertThat(model.caller.get().getName()).startsWith("rein-model-");
        } finally {
            model.release.countDown();
        }
    }

    @Test
    void aModelCallThatEndsInTimeLeavesNoInterruptForTheNextStep() {
        Blocking model = new Blocking(true);
        model.release.countDown();
        RunResult result = agent(model, Duration.ofSeconds(60)).run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
    }

    @Test
    void cancelInterruptsAModelCallOnTheRunsThread() throws Exception {
        Blocking model = new Blocking(true);
        RunHandle handle = agent(model, Duration.ofSeconds(60)).start("go");
        assertThat(model.entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(10));
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(model.caller.get().getName()).startsWith("rein-run-");
    }
}
