package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** What a model call does once the cancel's interrupt has been swallowed (or, for a later call, at once). */
    private interface AfterInterrupt {
        ModelResponse answer(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException;
    }

    /**
     * A model that aborts on interrupt by its own account, but whose first call waits for the cancel's interrupt and
     * swallows it, then does {@code after}; later calls do {@code after} at once. {@code calls} counts every call.
     */
    private static Model swallowingTheCancel(CountDownLatch entered, AtomicInteger calls, AfterInterrupt after) {
        return new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
                if (calls.incrementAndGet() == 1) {
                    entered.countDown();
                    try {
                        new CountDownLatch(1).await(); // until the cancel's interrupt
                    } catch (InterruptedException swallowed) {
                        // as a provider whose header limit met the cancel in the same instant
                    }
                }
                return after.answer(request, context);
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
    }

    @Test
    void aModelThatAbortsOnInterruptRunsOnTheRunsThreadAndStopsAtTheDeadline() {
        Blocking model = new Blocking(true);
        // 2 s, not less: under a load of 15 a 500 ms deadline ran out before the model was called (no caller seen)
        RunResult result = agent(model, Duration.ofSeconds(2)).run("go");
        assertThat(result.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.reason()).isEqualTo("deadline");
        // No thread of its own: the call ran on the loop's thread (the only other one is the caller's).
        assertThat(model.caller.get().getName()).startsWith("rein-run-");
    }

    @Test
    void aModelThatIgnoresInterruptsRunsOnItsOwnThreadAndStillStopsAtTheDeadline() {
        Blocking model = new Blocking(false);
        try {
            RunResult result = agent(model, Duration.ofSeconds(2)).run("go");
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

    /**
     * A cancel whose interrupt the model swallows, failing the call as a retryable timeout (as the Anthropic
     * provider's watchdog does when its header limit and the interrupt come in the same instant), starts no
     * backoff and no other attempt: the retry stage reads the run's cancel flag. Before, the run slept the
     * backoff, called the model again and ended SUCCEEDED with its answer.
     */
    @Test
    void aCancelWhoseInterruptTheModelSwallowedIsNotRetried() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        // The interrupt is swallowed and the call fails as a retryable timeout.
        Model swallowing = swallowingTheCancel(entered, calls, (request, context) -> {
            if (calls.get() > 1) {
                return ScriptedModel.of(ScriptedModel.text("answered after the cancel")).call(request, context);
            }
            throw new ModelException(ModelException.Kind.TIMEOUT, 0, "no response headers within 10 s");
        });
        RecordingListener trace = new RecordingListener();
        RunHandle handle = Agent.builder().model(swallowing).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .listener(trace).retryPolicy(new dev.rein.retry.RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1), 0))
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build().start("go");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(10));

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(result.message()).isEqualTo("the run was cancelled");
        assertThat(calls).hasValue(1);
        assertThat(trace.events(dev.rein.trace.TraceEvent.ModelRetry.class)).isEmpty();
    }

    /**
     * A model call that swallowed the cancel's interrupt and still answered (its response arrived as the interrupt
     * came) must not have the response's tool calls run: the run's cancel flag is read after each model call too,
     * where it was read only before the next step, after the tools had run.
     */
    @Test
    void aCancelWhoseInterruptTheModelSwallowedBeforeAnsweringRunsNoneOfItsTools() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        AtomicInteger toolRuns = new AtomicInteger();
        // The interrupt is swallowed: the response had arrived just then.
        Model swallowing = swallowingTheCancel(entered, new AtomicInteger(),
                (request, context) -> ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("refund", "{}"))).call(request, context));
        dev.rein.tool.Tool refund = dev.rein.tool.Tool.builder("refund").description("Refunds.")
                .handler((args, ctx) -> "refunded #" + toolRuns.incrementAndGet()).build();
        RunHandle handle = Agent.builder().model(swallowing).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .tools(refund).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(60)).build()).build().start("go");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        handle.cancel();
        RunResult result = handle.await(Duration.ofSeconds(10));

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(toolRuns).hasValue(0);
    }

    @Test
    void duringACallTheRunHoldsOneThreadForAModelThatAbortsOnInterruptAndTwoOtherwise() throws Exception {
        assertThat(threadsOfTheRunDuringACall(new Blocking(true))).containsExactly("rein-run-");
        assertThat(threadsOfTheRunDuringACall(new Blocking(false))).containsExactlyInAnyOrder("rein-run-", "rein-model-");
    }

    /** The names (without the run id) of the live threads named after the run, from a JVM thread dump taken mid-call. */
    private static List<String> threadsOfTheRunDuringACall(Blocking model) throws Exception {
        RunHandle handle = agent(model, Duration.ofSeconds(60)).start("go");
        try {
            assertThat(model.entered.await(10, TimeUnit.SECONDS)).isTrue();
            Path dump = Files.createTempDirectory("threads").resolve("dump.txt");
            // jcmd's dump lists virtual threads too (the module does not read jdk.management).
            Path launcher = Path.of(ProcessHandle.current().info().command().orElseThrow());
            // A long attach timeout: on a loaded machine the target's attach listener may start slowly.
            Process jcmd = new ProcessBuilder(launcher.resolveSibling("jcmd").toString(), "-J-Dsun.tools.attach.attachTimeout=120000",
                    Long.toString(ProcessHandle.current().pid()), "Thread.dump_to_file", dump.toString())
                    .redirectErrorStream(true).start();
            String said = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(jcmd.waitFor()).as(said).isZero();
            String text = Files.readString(dump);
            Files.delete(dump);
            Files.delete(dump.getParent());
            List<String> names = new ArrayList<>();
            Matcher m = Pattern.compile("\\\"(rein-[a-z]+-)" + Pattern.quote(handle.runId()) + "\\\"")
                    .matcher(text);
            while (m.find()) {
                names.add(m.group(1));
            }
            return names;
        } finally {
            model.release.countDown();
            assertThat(handle.await(Duration.ofSeconds(10)).status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }
}
